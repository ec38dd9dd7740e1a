import { analysisView } from '../guard/terminal-codes.js';
import { findLineNumbers, withoutLineNumbers } from '../tier0/line-numbers.js';

/**
 * A block's lines as the signals read them: a file read's line-number gutter cut off (numbered, every
 * line would be unique to template mining and the rarity counts, and `  412\t` would read as a number
 * or location), then each line's terminal codes and runner timestamp (see analysisView). The bytes sent
 * keep everything: a kept line goes out with its number, exactly as the tool printed it.
 */
export function analysisLines(lines: readonly string[]): string[] {
  return withoutLineNumbers(lines, findLineNumbers(lines)).map(analysisView);
}
