import { isWordCode } from './names.js';

/**
 * Identifier shapes an agent navigates by (spec: salience protection, "pattern matching"): UUIDs, git
 * SHAs, PREFIX-NNN tickets, e-mail addresses, IPv4 addresses, semantic versions and file paths.
 * One alternation, compiled once: a line is tested in a single pass. E-mail addresses are found apart
 * from it (see hasEmail).
 */
const IDENTIFIER = new RegExp(
  [
    String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`, // UUID
    String.raw`\b(?=[0-9a-f]{0,39}[a-f])(?=[0-9a-f]{0,39}\d)[0-9a-f]{7,40}\b`, // git SHA: hex with a letter and a digit
    String.raw`\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b`, // PROJ-123
    String.raw`\b(?:\d{1,3}\.){3}\d{1,3}\b`, // IPv4
    String.raw`\bv?\d+\.\d+\.\d+(?:-[\w.]+)?\b`, // semver
    String.raw`(?:^|[\s'"(=:])(?:\.{0,2}/|~/|[A-Za-z]:\\)?[\w.-]+(?:[/\\][\w.-]+)+\.\w{1,8}\b`, // a path with an extension
  ].join('|'),
  'i',
);

/** An e-mail address's domain, from its `@`: one or more dotted parts, ending at a word boundary. */
const DOMAIN = /@[\w-]+(?:\.[\w-]+)+\b/y;

/** `[\w.+-]`, an e-mail address's local part. */
const isLocal = (c: number): boolean => isWordCode(c) || c === 0x2e || c === 0x2b || c === 0x2d;

/**
 * Whether `line` holds an e-mail address, `\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b`, decided from each `@`
 * rather than from each start: as a branch of the alternation, the local part's `[\w.+-]+` read from every
 * word boundary of a long run (`a.a.a…`, `a-a-a…`, an SVG path) to its end before the `@` was missing,
 * quadratic in the run (a 16,000-character one took ~0.3 s). The pattern matches exactly when the run of
 * `[\w.+-]` right before an `@` holds a word character (a word boundary then lies inside it) and the
 * domain follows the `@`.
 */
function hasEmail(line: string): boolean {
  for (let at = line.indexOf('@'); at >= 0; at = line.indexOf('@', at + 1)) {
    let word = false;
    for (let k = at - 1; k >= 0 && !word; k--) {
      const c = line.charCodeAt(k);
      if (!isLocal(c)) break;
      word = isWordCode(c);
    }
    if (!word) continue;
    DOMAIN.lastIndex = at;
    if (DOMAIN.test(line)) return true;
  }
  return false;
}

/** Whether a line holds an identifier of a known shape. */
export function hasIdentifier(line: string): boolean {
  return IDENTIFIER.test(line) || hasEmail(line);
}
