/**
 * A block's text cut into lines that keep their terminators, so that joining the segments gives back the
 * exact bytes (`\r\n`, `\r` and `\n` each end a line, as in the labelled CI logs Distil is measured on).
 */
export interface LineSegments {
  /** Each line with its terminator; the last may have none. */
  readonly segments: string[];
  /** Each line without its terminator. */
  readonly lines: string[];
}

/**
 * Splits `text` into line segments; `segments.join('') === text` always holds. The terminators are found
 * with indexOf, which the engine runs as a fast memory scan, and both strings of a line are cut from
 * `text` itself: a line regex and a second pass to strip terminators cost three times as much.
 */
export function splitSegments(text: string): LineSegments {
  const segments: string[] = [];
  const lines: string[] = [];
  const n = text.length;
  // the next '\r' and '\n' at or after `start` (n when there is none), each searched for again only when passed
  let cr = -1;
  let lf = -1;
  let start = 0;
  while (start < n) {
    if (cr < start) cr = nextIndex(text, '\r', start);
    if (lf < start) lf = nextIndex(text, '\n', start);
    const end = Math.min(cr, lf);
    if (end === n) {
      const last = text.slice(start);
      segments.push(last);
      lines.push(last);
      break;
    }
    const next = end === cr && lf === cr + 1 ? end + 2 : end + 1;
    segments.push(text.slice(start, next));
    lines.push(text.slice(start, end));
    start = next;
  }
  return { segments, lines };
}

/** `text.indexOf(char, from)`, or the text's length when `char` does not occur. */
function nextIndex(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

/** The line without its trailing `\r\n`, `\r` or `\n`. */
export function stripTerminator(segment: string): string {
  if (segment.endsWith('\r\n')) return segment.slice(0, -2);
  if (segment.endsWith('\n') || segment.endsWith('\r')) return segment.slice(0, -1);
  return segment;
}
