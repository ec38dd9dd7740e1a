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

/** SGR (`m`) and EL (`K`) sequences: parameters are digits, `;` and `:` (ITU T.416 colour notation). */
const STYLING = /\u001b\[[0-9;:]*[mK]/g;

/**
 * The text without its styling codes, or `null` when it has none. `verbatimAt(offset)` marks offsets
 * whose codes stay (lines the salience guard protects read exactly as the tool printed them).
 */
export function stripStyling(text: string, verbatimAt?: (offset: number) => boolean): string | null {
  if (!text.includes('\u001b')) return null;
  const plain = text.replace(STYLING, (code: string, offset: number) =>
    verbatimAt?.(offset) === true ? code : '',
  );
  return plain.length === text.length ? null : plain;
}
