import type { KeepContext } from '@distil/contract';
import { COMMON_WORDS } from './common-words.js';
import { fitLogisticNewton } from './newton-logistic.js';
import { REFERENCE_TOKEN } from './reference-tokens.js';
import { EMPTY_PRIOR, type TokenPrior, tokenBucket } from './token-prior.js';

/**
 * The token need model: how likely the agent is to write each reference token of a tool output after
 * reading it, from what the token is (its shape, how its kind of token fared in other sessions) and where
 * it stands (how many lines of its block hold it, whether the task, the call's input or the agent's own
 * text named it or a part of it). The needed-line label is "a later reply shares a token with the line",
 * so a line's need is the chance that any of its tokens is written: 1 − Π(1 − p_token), a noisy-OR. The
 * block model reads that as one feature (block-features.ts `token_need`); on the recorded sessions it
 * added 2–4 points of tokens removed at 99% recall, held out, on both agent families (`pnpm bench:keep`).
 */
export const TOKEN_FEATURE_NAMES = Object.freeze([
  'bias',
  'prior_log_odds',
  'prior_unseen',
  'prior_support',
  'in_task',
  'in_input',
  'in_recent',
  'recent_count',
  'lower_word',
  'capitalised_word',
  'identifier',
  'path',
  'file_extension',
  'numberish',
  'hexish',
  'length',
  'block_line_share',
  'unique_in_block',
  'common_word',
  'has_colon',
  'context_part_share',
  'context_part_any',
  'context_part_all',
  'block_lines',
] as const);

/** How many features a token has: the length of the token model's weight vector. */
export const TOKEN_FEATURE_COUNT = TOKEN_FEATURE_NAMES.length;

/** SGR escape sequences (colour, erase-line): presentation, not what a line says (the label strips them too). */
const STYLING = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[mK]`, 'g');

/** The parts of a token a context may name on their own: path segments, dotted and snake_case pieces. */
const partsOf = (token: string): string[] => token.split(/[/.:_-]+/).filter((p) => p.length >= 4);

/** One block's distinct reference tokens, the tokens of each line (indices), and every token's features. */
export interface BlockTokens {
  readonly tokens: readonly string[];
  readonly lineTokens: readonly (readonly number[])[];
  /** A row of {@link TOKEN_FEATURE_COUNT} per token. */
  readonly features: Float64Array;
}

/** The trusted context's tokens, their counts in what the agent wrote, and their parts. */
interface ContextTokens {
  readonly task: ReadonlySet<string>;
  readonly input: ReadonlySet<string>;
  readonly recent: ReadonlyMap<string, number>;
  readonly parts: ReadonlySet<string>;
}

function contextTokens(context: KeepContext | undefined): ContextTokens {
  const task = new Set(context?.task?.match(REFERENCE_TOKEN) ?? []);
  const input = new Set(context?.input?.match(REFERENCE_TOKEN) ?? []);
  const recent = new Map<string, number>();
  for (const text of context?.recent ?? [])
    for (const t of text.match(REFERENCE_TOKEN) ?? []) recent.set(t, (recent.get(t) ?? 0) + 1);
  const parts = new Set<string>();
  for (const t of [...task, ...input, ...recent.keys()]) for (const p of partsOf(t)) parts.add(p);
  return { task, input, recent, parts };
}

/** The prior's rate as log-odds, clamped: a bucket seen a handful of times says little either way. */
const logOdds = (p: number): number => {
  const q = Math.min(0.999, Math.max(0.001, p));
  return Math.log(q / (1 - q));
};

/** Every distinct token of a block with its features (see TOKEN_FEATURE_NAMES). */
export function blockTokens(
  lines: readonly string[],
  context: KeepContext | undefined,
  prior: TokenPrior = EMPTY_PRIOR,
): BlockTokens {
  const ctx = contextTokens(context);
  const index = new Map<string, number>();
  const tokens: string[] = [];
  const lineCount: number[] = [];
  const lineTokens = lines.map((line) => {
    const plain = line.includes('\u001b') ? line.replace(STYLING, '') : line;
    const distinct = new Set(plain.match(REFERENCE_TOKEN) ?? []);
    const list: number[] = [];
    for (const t of distinct) {
      let i = index.get(t);
      if (i === undefined) {
        i = tokens.length;
        index.set(t, i);
        tokens.push(t);
        lineCount.push(0);
      }
      lineCount[i]!++;
      list.push(i);
    }
    return list;
  });
  const n = Math.max(1, lines.length);
  const features = new Float64Array(tokens.length * TOKEN_FEATURE_COUNT);
  tokens.forEach((t, i) => {
    const rate = prior.rate(tokenBucket(t, prior.buckets));
    const parts = partsOf(t);
    const named = parts.filter((p) => ctx.parts.has(p)).length;
    const recent = ctx.recent.get(t) ?? 0;
    // written in TOKEN_FEATURE_NAMES order, straight into the row (no per-token array)
    let f = i * TOKEN_FEATURE_COUNT;
    features[f++] = 1;
    features[f++] = rate === undefined ? 0 : logOdds(rate);
    features[f++] = rate === undefined ? 1 : 0;
    features[f++] = rate === undefined ? 0 : 1;
    features[f++] = ctx.task.has(t) ? 1 : 0;
    features[f++] = ctx.input.has(t) ? 1 : 0;
    features[f++] = recent > 0 ? 1 : 0;
    features[f++] = Math.log1p(recent);
    features[f++] = /^[a-z]+$/.test(t) ? 1 : 0;
    features[f++] = /^[A-Z][a-z]+$/.test(t) ? 1 : 0;
    features[f++] = /[a-z][A-Z]|_/.test(t) ? 1 : 0;
    features[f++] = t.includes('/') ? 1 : 0;
    features[f++] = /\.[A-Za-z]{1,5}$/.test(t) ? 1 : 0;
    features[f++] = /[A-Za-z]{3}/.test(t) ? 0 : 1;
    features[f++] = /^[0-9a-f]{7,}$/.test(t) && /\d/.test(t) ? 1 : 0;
    features[f++] = Math.log(t.length);
    features[f++] = lineCount[i]! / n;
    features[f++] = lineCount[i] === 1 ? 1 : 0;
    features[f++] = COMMON_WORDS.has(t.toLowerCase()) ? 1 : 0;
    features[f++] = t.includes(':') ? 1 : 0;
    features[f++] = parts.length === 0 ? 0 : named / parts.length;
    features[f++] = named > 0 ? 1 : 0;
    features[f++] = parts.length > 0 && named === parts.length ? 1 : 0;
    features[f] = Math.log(n);
  });
  return { tokens, lineTokens, features };
}

/** Each token's chance of being written later, under the token model's weights. */
export function tokenNeeds(block: BlockTokens, weights: ArrayLike<number>): Float64Array {
  const out = new Float64Array(block.tokens.length);
  const x = block.features;
  for (let i = 0; i < out.length; i++) {
    let z = 0;
    for (let j = 0, o = i * TOKEN_FEATURE_COUNT; j < TOKEN_FEATURE_COUNT; j++) z += weights[j]! * x[o + j]!;
    out[i] = 1 / (1 + Math.exp(-z));
  }
  return out;
}

/**
 * Each line's need as log-odds of the noisy-OR of its tokens' needs; a line without a reference token can
 * never be needed by the label and gets the floor, −20.
 */
export function lineNeedOdds(block: BlockTokens, weights: ArrayLike<number>): Float64Array {
  const p = tokenNeeds(block, weights);
  return Float64Array.from(block.lineTokens, (list) => {
    let none = 1;
    for (const i of list) none *= 1 - p[i]!;
    const q = Math.min(1 - 1e-9, Math.max(2e-9, 1 - none));
    return list.length === 0 ? -20 : Math.log(q / (1 - q));
  });
}

/** One block the token model learns from: its tokens and which of them the agent wrote afterwards. */
export interface TokenTrainingBlock {
  readonly tokens: BlockTokens;
  readonly written: (token: string) => boolean;
}

/** Fits the token model by Newton's method with L2 (every weight but the bias). Deterministic. */
export function fitTokenNeed(blocks: readonly TokenTrainingBlock[], l2 = 1e-2): Float64Array {
  const rows = blocks.reduce((s, b) => s + b.tokens.tokens.length, 0);
  const x = new Float64Array(rows * TOKEN_FEATURE_COUNT);
  const y = new Uint8Array(rows);
  let r = 0;
  for (const b of blocks) {
    x.set(b.tokens.features, r * TOKEN_FEATURE_COUNT);
    for (const t of b.tokens.tokens) y[r++] = b.written(t) ? 1 : 0;
  }
  if (rows === 0) return new Float64Array(TOKEN_FEATURE_COUNT);
  return fitLogisticNewton(x, y, TOKEN_FEATURE_COUNT, { l2 }).weights;
}

/**
 * Which tokens of a labelled block the agent wrote, when only the line labels are known: a token on an
 * unneeded line was not written (else that line would be needed); a token only on needed lines is taken
 * as written. Recorded sessions give the exact set (LabelledBlock.writtenAfter).
 */
export function writtenFromLabels(
  lines: readonly string[],
  needed: ArrayLike<number>,
): (token: string) => boolean {
  const unneeded = new Set<string>();
  lines.forEach((line, i) => {
    if (!needed[i]) for (const t of line.replace(STYLING, '').match(REFERENCE_TOKEN) ?? []) unneeded.add(t);
  });
  return (token) => !unneeded.has(token);
}
