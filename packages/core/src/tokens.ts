import { createRequire } from 'node:module';

type Counter = (text: string, options: { readonly disallowedSpecial: ReadonlySet<string> }) => number;
let counter: Counter | undefined;

/**
 * Every special-token string (`<|endoftext|>`, …) counted as the plain text it is. A tool output is data:
 * ML code and tokenizer files print these strings, and gpt-tokenizer's default throws on them, which made
 * one such line cost the whole request its compression.
 */
const ORDINARY_TEXT = Object.freeze({ disallowedSpecial: new Set<string>() });

/**
 * Tokens in `text` under OpenAI's o200k_base encoding (gpt-tokenizer: counts equal tiktoken's
 * `encode_ordinary`). Claude's tokenizer is not public; o200k is a stable, reproducible yardstick for
 * before/after comparisons, and billed figures come from the provider's own `usage`. The encoding's tables
 * cost ~60 MB of memory, so they load on the first count, not when the package is imported.
 */
export function countTokens(text: string): number {
  counter ??= (
    createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Counter }
  ).countTokens;
  return counter(text, ORDINARY_TEXT);
}
