import { z } from 'zod';

/** Billed tokens of one upstream call, in the four buckets every provider prices separately. */
export interface BilledUsage {
  /** Input billed at the full input price (not written to or read from the cache). */
  readonly input: number;
  /** Input written to the prompt cache (Anthropic's cache_creation_input_tokens; OpenAI: none). */
  readonly cacheWrite: number;
  /** Input read from the prompt cache. */
  readonly cacheRead: number;
  readonly output: number;
}

/** No tokens. */
export const NO_USAGE: BilledUsage = Object.freeze({ input: 0, cacheWrite: 0, cacheRead: 0, output: 0 });

/** The sum of two usages. */
export function addUsage(a: BilledUsage, b: BilledUsage): BilledUsage {
  return {
    input: a.input + b.input,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheRead: a.cacheRead + b.cacheRead,
    output: a.output + b.output,
  };
}

const count = z
  .number()
  .int()
  .nonnegative()
  .nullish()
  .transform((value) => value ?? 0);

const AnthropicUsage = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
});

/** A token count as `count` reads it, or -1 where `count` would fail. */
function plainCount(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : -1;
}

/**
 * `AnthropicUsage` read without zod, which rebuilds the object field by field on every reply; null
 * whenever the schema might say otherwise, and then the schema decides.
 */
function plainAnthropicUsage(usage: unknown): BilledUsage | null {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return null;
  const u = usage as Record<string, unknown>;
  const input = plainCount(u.input_tokens);
  const output = plainCount(u.output_tokens);
  const cacheWrite = plainCount(u.cache_creation_input_tokens);
  const cacheRead = plainCount(u.cache_read_input_tokens);
  if (input < 0 || output < 0 || cacheWrite < 0 || cacheRead < 0) return null;
  return { input, cacheWrite, cacheRead, output };
}

/** Anthropic's `usage`: input_tokens excludes cached tokens, which come as their own two fields. */
export function anthropicUsage(usage: unknown): BilledUsage {
  const plain = plainAnthropicUsage(usage ?? {});
  if (plain) return plain;
  const parsed = AnthropicUsage.safeParse(usage ?? {});
  if (!parsed.success) return NO_USAGE;
  const u = parsed.data;
  return {
    input: u.input_tokens,
    cacheWrite: u.cache_creation_input_tokens,
    cacheRead: u.cache_read_input_tokens,
    output: u.output_tokens,
  };
}

const OpenAIChatUsage = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  prompt_tokens_details: z.looseObject({ cached_tokens: count }).nullish(),
});

/** OpenAI Chat Completions' `usage`: prompt_tokens includes the cached ones. */
export function openaiChatUsage(usage: unknown): BilledUsage {
  const parsed = OpenAIChatUsage.safeParse(usage ?? {});
  if (!parsed.success) return NO_USAGE;
  const u = parsed.data;
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input: Math.max(0, u.prompt_tokens - cached),
    cacheWrite: 0,
    cacheRead: cached,
    output: u.completion_tokens,
  };
}

const OpenAIResponsesUsage = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  input_tokens_details: z.looseObject({ cached_tokens: count }).nullish(),
});

/** OpenAI Responses' `usage`: input_tokens includes the cached ones. */
export function openaiResponsesUsage(usage: unknown): BilledUsage {
  const parsed = OpenAIResponsesUsage.safeParse(usage ?? {});
  if (!parsed.success) return NO_USAGE;
  const u = parsed.data;
  const cached = u.input_tokens_details?.cached_tokens ?? 0;
  return {
    input: Math.max(0, u.input_tokens - cached),
    cacheWrite: 0,
    cacheRead: cached,
    output: u.output_tokens,
  };
}
