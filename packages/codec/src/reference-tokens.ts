/**
 * The tokens by which a later turn can refer to a line of tool output: runs of at least four identifier,
 * path or number characters. The same definition as the needed-line label the keep models are trained and
 * judged by (@distil/savings), so what a feature counts is what the label looks for.
 */
export const REFERENCE_TOKEN = /[A-Za-z0-9_./:-]{4,}/g;

/** Every reference token of `text`. */
export function referenceTokens(text: string): Set<string> {
  return new Set(text.match(REFERENCE_TOKEN) ?? []);
}
