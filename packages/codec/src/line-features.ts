import { DECISION_MARKER } from '@distil/contract';
import {
  emptyCounts,
  hasDebugNoise,
  hasErrorWords,
  hasVerdict,
  isKeyValue,
  isTableRow,
  isTimestampOnly,
  readLine,
  withoutTimestamp,
} from './line-signals.js';

/**
 * The nine features of the logistic keep model, in weight order (spec: "Logistic keep-model", features
 * defined in codec/features.py): bias, decision-marker indicator, error keywords, structured-data signal,
 * digit density, length, debug keywords, uppercase ratio, blank-line flag. Each is normalised to [0, 1].
 */
export const FEATURE_NAMES = Object.freeze([
  'bias',
  'decision_marker',
  'error_keywords',
  'structured_data',
  'digit_density',
  'length',
  'debug_keywords',
  'uppercase_ratio',
  'blank_line',
] as const);

/** One of {@link FEATURE_NAMES}. */
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** How many features a line has: the length of a weight vector. */
export const FEATURE_COUNT = FEATURE_NAMES.length;

/** Lines this long or longer saturate the length feature. */
export const LENGTH_SATURATION = 200;

const counts = emptyCounts();

/**
 * Writes the nine features of `line` into `out[offset … offset + 8]`. Writing into a caller's buffer keeps
 * feature extraction allocation-free, both for scoring and for building a training matrix.
 *
 * The structured-data signal fires on a verdict (a test or build summary), a pipe-table row or a key: value
 * line: each is kept by the rules on its own. The debug feature also fires on lines that are only a
 * timestamp.
 */
export function writeFeatures(line: string, out: Float64Array, offset: number): void {
  const body = withoutTimestamp(line);
  const words = readLine(body, counts);
  const blank = counts.nonSpace === 0;
  out[offset] = 1;
  out[offset + 1] = line.includes(DECISION_MARKER) ? 1 : 0;
  out[offset + 2] = !blank && hasErrorWords(body, words) ? 1 : 0;
  out[offset + 3] =
    !blank && (hasVerdict(body, words) || isTableRow(body, counts.pipes) || isKeyValue(body, words)) ? 1 : 0;
  out[offset + 4] = blank ? 0 : counts.digits / counts.nonSpace;
  out[offset + 5] = line.length >= LENGTH_SATURATION ? 1 : line.length / LENGTH_SATURATION;
  const timestampOnly = isTimestampOnly(line, body, counts.digits);
  out[offset + 6] = !blank && (timestampOnly || hasDebugNoise(body, words)) ? 1 : 0;
  out[offset + 7] = counts.letters === 0 ? 0 : counts.upper / counts.letters;
  out[offset + 8] = blank ? 1 : 0;
}

/** The nine features of one line as a fresh array (for inspection and tests; the hot paths use writeFeatures). */
export function lineFeatures(line: string): Float64Array {
  const out = new Float64Array(FEATURE_COUNT);
  writeFeatures(line, out, 0);
  return out;
}
