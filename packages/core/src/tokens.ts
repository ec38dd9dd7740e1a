import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Tokens in `text` under OpenAI's o200k_base encoding (gpt-tokenizer; counts equal tiktoken's).
 * Claude's tokenizer is not public, so every Distil estimate uses this one; billed figures come from
 * the provider's own `usage`.
 */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200k(text);
}
