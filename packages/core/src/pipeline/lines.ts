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

const LINE = /[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g;

/** Splits `text` into line segments; `segments.join('') === text` always holds. */
export function splitSegments(text: string): LineSegments {
  const segments = text.match(LINE) ?? [];
  const lines = segments.map(stripTerminator);
  return { segments, lines };
}

/** The line without its trailing `\r\n`, `\r` or `\n`. */
export function stripTerminator(segment: string): string {
  if (segment.endsWith('\r\n')) return segment.slice(0, -2);
  if (segment.endsWith('\n') || segment.endsWith('\r')) return segment.slice(0, -1);
  return segment;
}
