/**
 * Terminal styling removed: the colour and weight codes (SGR, `ESC[…m`) and erase-in-line codes
 * (`ESC[…K`) that CI runners, test reporters and package managers print around their text.
 *
 * They are presentation, like the key order canonical JSON drops: a terminal shows the same characters
 * with or without them, and the words an agent reads ("error", "FAILED", `✗`) are in the text itself.
 * Yet they are costly: `ESC[34mESC[1m … ESC[0m` is several tokens a line, about a fifth of the tokens of a
 * typical Travis log. Like canonical JSON the transform is not byte-invertible, so the pipeline keeps the
 * original bytes behind the lossless trailer's handle.
 *
 * Only these two families go. Cursor moves, screen clears and OSC sequences (hyperlinks, titles) change
 * what is shown or carry text, so they stay; so does every line break, so lines keep their numbers.
 */

/**
 * The text without its styling codes, or `null` when it has none. `verbatimAt(offset)` marks offsets
 * whose codes stay (lines the salience guard protects read exactly as the tool printed them).
 *
 * The codes are SGR (`ESC[…m`) and EL (`ESC[…K`), parameters being digits, `;` and `:` (ITU T.416 colour
 * notation): what `/\u001b\[[0-9;:]*[mK]/g` matches. Found by the native search for ESC and read by hand
 * rather than by that pattern's replace: a CI log holds tens of thousands of codes, and a callback per
 * match cost more than the scan.
 */
export function stripStyling(text: string, verbatimAt?: (offset: number) => boolean): string | null {
  let at = text.indexOf('\u001b');
  if (at < 0) return null;
  // The pieces kept, joined once at the end: a string grown by `+=` is a rope, and every native search
  // the later transforms run on a rope's flattened copy still goes the slow way (8× slower here).
  const kept: string[] = [];
  // text before `from` is in `kept` already
  let from = 0;
  const n = text.length;
  while (at >= 0) {
    const end = styleCodeEnd(text, at, n);
    if (end < 0) {
      at = text.indexOf('\u001b', at + 1);
      continue;
    }
    if (verbatimAt?.(at) !== true) {
      kept.push(text.slice(from, at));
      from = end;
    }
    at = text.indexOf('\u001b', end);
  }
  if (from === 0) return null;
  kept.push(text.slice(from));
  return kept.join('');
}

/** The end of the SGR or EL code whose ESC is at `at`, or -1 when no such code starts there. */
function styleCodeEnd(text: string, at: number, n: number): number {
  if (text.charCodeAt(at + 1) !== 91) return -1; // [
  let k = at + 2;
  for (; k < n; k++) {
    const c = text.charCodeAt(k);
    // 0-9, `:` and `;` are the contiguous units 48–59
    if (c < 48 || c > 59) break;
  }
  const last = text.charCodeAt(k);
  return last === 109 || last === 75 ? k + 1 : -1; // m, K
}
