import type { KeepContext } from '@distil/contract';
import { COMMON_WORDS } from './common-words.js';
import { FEATURE_COUNT, FEATURE_NAMES, writeFeatures } from './line-features.js';
import { REFERENCE_TOKEN, referenceTokens } from './reference-tokens.js';
import { EMPTY_PRIOR, type TokenPrior, tokenBucket } from './token-prior.js';

/**
 * The features of the context-conditioned logistic keep model, in weight order: the nine line features,
 * then what a line says relative to its block (how often its shape repeats there, where it stands, how
 * rare its tokens are in it) and to the trusted context known before the output was read (whether it
 * names a token of the task, of the call's input, of what the agent wrote) and to what agents tend to
 * write (the hashed token prior, token-prior.ts: how often lines with its tokens were needed in other
 * sessions) and the token need model's reading of it (token-need.ts: the chance any of its tokens is
 * written later). `pnpm bench:keep` measures
 * them on recorded sessions; `distil train --corpus <trajectories>` fits their weights.
 */
export const BLOCK_FEATURE_NAMES = Object.freeze([
  ...FEATURE_NAMES,
  'task_overlap',
  'input_overlap',
  'recent_overlap',
  'context_tokens',
  'has_reference_token',
  'reference_tokens',
  'common_words',
  'path_token',
  'block_rarity',
  'template_share',
  'unique_in_block',
  'rare_tokens',
  'position',
  'block_edge',
  'block_size',
  'neighbour_overlap',
  'word_tokens',
  'no_word_token',
  'one_word_token',
  'two_word_tokens',
  'one_context_token',
  'one_common_word',
  'number_share',
  'long_line',
  'prior_max',
  'prior_any',
  'prior_known',
  'prior_unknown',
  'token_need',
] as const);

/** How many features a line has in the block model: the length of its weight vector. */
export const BLOCK_FEATURE_COUNT = BLOCK_FEATURE_NAMES.length;

/** A line's shape: digit and hex runs collapsed, so the lines of one template share it. */
const shape = (line: string): string => line.trim().replace(/[0-9a-f]{6,}|\d+/gi, '0');

/** A token that names a file or module: a slash or a dotted extension. */
const PATH_LIKE = /\/|\.[A-Za-z]{1,5}$/;

/** A token that is a word: letters only. */
const WORD = /^[A-Za-z]+$/;
/** A token that is a number, a hash, a version or a timestamp: no run of three letters. */
const NUMBERISH = /^(?!.*[A-Za-z]{3})/;

/** A rate's log-odds, clamped to ±7 and mapped into [0, 1]: the prior's scale is multiplicative. */
const logitShare = (p: number): number => {
  const q = Math.min(0.999, Math.max(0.001, p));
  return Math.min(1, Math.max(0, (Math.log(q / (1 - q)) + 7) / 14));
};

/** log(1 + n) / log(1 + cap), capped at 1: counts compressed into [0, 1]. */
const logShare = (n: number, cap: number): number => Math.min(1, Math.log1p(n) / Math.log1p(cap));

/** The reference tokens of every trusted text of `context`, by source. */
function contextTokens(context: KeepContext | undefined) {
  return {
    task: referenceTokens(context?.task ?? ''),
    input: referenceTokens(context?.input ?? ''),
    recent: referenceTokens((context?.recent ?? []).join('\n')),
  };
}

/**
 * Writes every feature of every line of one block into `out`, a row of {@link BLOCK_FEATURE_COUNT} per
 * line from row `row` on. Scores computed from these depend on the whole block, so a caller scores a
 * block's lines together, never a subset (see KeepModel.wholeBlock). `tokenNeed`: each line's log-odds
 * under the token need model (lineNeedOdds); without it the feature is the same for every line.
 */
export function writeBlockFeatures(
  lines: readonly string[],
  context: KeepContext | undefined,
  out: Float64Array,
  row: number,
  prior: TokenPrior = EMPTY_PRIOR,
  tokenNeed?: ArrayLike<number>,
): void {
  const ctx = contextTokens(context);
  const n = lines.length;
  const shapes = lines.map(shape);
  const shapeCount = new Map<string, number>();
  for (const s of shapes) shapeCount.set(s, (shapeCount.get(s) ?? 0) + 1);
  const tokens = lines.map((line) => line.match(REFERENCE_TOKEN) ?? []);
  // in how many lines of the block each token occurs
  const lineCount = new Map<string, number>();
  for (const list of tokens) for (const t of new Set(list)) lineCount.set(t, (lineCount.get(t) ?? 0) + 1);
  const inContext = tokens.map((list) =>
    list.some((t) => ctx.task.has(t) || ctx.input.has(t) || ctx.recent.has(t)),
  );
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    const list = tokens[i]!;
    const at = (row + i) * BLOCK_FEATURE_COUNT;
    writeFeatures(line, out, at);
    let task = false;
    let input = false;
    let recent = false;
    let shared = 0;
    let common = 0;
    let path = false;
    let rare = 0;
    let words = 0;
    let numbers = 0;
    let priorMax = 0;
    let priorNone = 1;
    let known = 0;
    const distinct = new Set(list);
    for (const t of distinct) {
      const p = prior.rate(tokenBucket(t, prior.buckets));
      if (p === undefined) continue;
      known++;
      priorMax = Math.max(priorMax, p);
      priorNone *= 1 - p;
    }
    for (const t of list) {
      if (WORD.test(t)) words++;
      else if (NUMBERISH.test(t)) numbers++;
      const inTask = ctx.task.has(t);
      const inInput = ctx.input.has(t);
      const inRecent = ctx.recent.has(t);
      task ||= inTask;
      input ||= inInput;
      recent ||= inRecent;
      if (inTask || inInput || inRecent) shared++;
      if (COMMON_WORDS.has(t.toLowerCase())) common++;
      path ||= PATH_LIKE.test(t);
      if (lineCount.get(t) === 1) rare++;
    }
    const count = shapeCount.get(shapes[i]!)!;
    let f = at + FEATURE_COUNT;
    out[f++] = task ? 1 : 0;
    out[f++] = input ? 1 : 0;
    out[f++] = recent ? 1 : 0;
    out[f++] = logShare(shared, 10);
    out[f++] = list.length > 0 ? 1 : 0;
    out[f++] = logShare(list.length, 30);
    out[f++] = logShare(common, 10);
    out[f++] = path ? 1 : 0;
    out[f++] = 1 - count / n;
    out[f++] = logShare(count - 1, n);
    out[f++] = count === 1 ? 1 : 0;
    out[f++] = logShare(rare, 10);
    out[f++] = n <= 1 ? 0 : i / (n - 1);
    out[f++] = i < 3 || i >= n - 3 ? 1 : 0;
    out[f++] = logShare(n, 10_000);
    out[f++] = (i > 0 && inContext[i - 1]) || (i + 1 < n && inContext[i + 1]) ? 1 : 0;
    // the counts below also as indicators: the label rises steeply from none to two such tokens
    out[f++] = logShare(words, 10);
    out[f++] = words === 0 ? 1 : 0;
    out[f++] = words === 1 ? 1 : 0;
    out[f++] = words === 2 ? 1 : 0;
    out[f++] = shared === 1 ? 1 : 0;
    out[f++] = common === 1 ? 1 : 0;
    out[f++] = list.length === 0 ? 0 : numbers / list.length;
    out[f++] = logShare(line.length, 2000);
    // the prior as the chance any one of the line's known tokens makes it needed, and how many are known
    out[f++] = known === 0 ? 0 : logitShare(priorMax);
    out[f++] = known === 0 ? 0 : 1 - priorNone;
    out[f++] = logShare(known, 20);
    out[f++] = logShare(distinct.size - known, 20);
    // log-odds clamped to ±6 (where lines with tokens lie; a line without one, at −20, is has_reference_token's
    // to tell) and mapped into [0, 1]; 0.5 without
    out[f++] = tokenNeed === undefined ? 0.5 : (Math.min(6, Math.max(-6, tokenNeed[i]!)) + 6) / 12;
  }
}
