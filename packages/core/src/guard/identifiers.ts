/**
 * Identifier shapes an agent navigates by (spec: salience protection, "pattern matching"): UUIDs, git
 * SHAs, PREFIX-NNN tickets, e-mail addresses, IPv4 addresses, semantic versions and file paths.
 * One alternation, compiled once: a line is tested in a single pass.
 */
const IDENTIFIER = new RegExp(
  [
    String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`, // UUID
    String.raw`\b(?=[0-9a-f]{0,39}[a-f])(?=[0-9a-f]{0,39}\d)[0-9a-f]{7,40}\b`, // git SHA: hex with a letter and a digit
    String.raw`\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b`, // PROJ-123
    String.raw`\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b`, // e-mail
    String.raw`\b(?:\d{1,3}\.){3}\d{1,3}\b`, // IPv4
    String.raw`\bv?\d+\.\d+\.\d+(?:-[\w.]+)?\b`, // semver
    String.raw`(?:^|[\s'"(=:])(?:\.{0,2}/|~/|[A-Za-z]:\\)?[\w.-]+(?:[/\\][\w.-]+)+\.\w{1,8}\b`, // a path with an extension
  ].join('|'),
  'i',
);

/** Whether a line holds an identifier of a known shape. */
export function hasIdentifier(line: string): boolean {
  return IDENTIFIER.test(line);
}
