import { createRequire } from 'node:module';

type Counter = (text: string) => number;
let counter: Counter | undefined;

/**
 * Tokens in `text` under OpenAI's o200k_base encoding (gpt-tokenizer: counts equal tiktoken's). Claude's
 * tokenizer is not public; o200k is a stable, reproducible yardstick for before/after comparisons, and
 * billed figures come from the provider's own `usage`. The encoding's tables cost ~60 MB of memory, so
 * they load on the first count, not when the package is imported.
 */
export function countTokens(text: string): number {
  counter ??= (
    createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Counter }
  ).countTokens;
  return counter(text);
}
