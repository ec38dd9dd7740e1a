import { compactJson } from './canonical-json.js';
import { type JsonNode, parseJsonTree } from './json-tree.js';

/**
 * How one value is written in a columnar row (`|`-separated):
 * - `~`: the record has no such key (distinct from `null` and `""`);
 * - numbers, `true`, `false`, `null`: as written in the input;
 * - strings: bare when that cannot be misread — no backslash escapes in the original, not empty, no
 *   leading or trailing space, no `|`, and not spelled like a number, a literal, `~`, or a value starting
 *   with `"`, `[` or `{`; otherwise the JSON string literal exactly as written (quotes, escapes);
 * - objects and arrays: compact canonical JSON.
 * A row is split by scanning: a cell starting with `"` runs to its closing quote, one starting with `[` or
 * `{` to its matching bracket (strings inside respected), any other cell to the next `|`.
 */

/** The cell for a key the record does not have. */
export const MISSING_CELL = '~';

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Writes one value as a cell. */
export function encodeCell(node: JsonNode): string {
  if (node.type !== 'scalar') return compactJson(node);
  if (node.kind !== 'string') return node.raw;
  const raw = node.raw;
  const bare = raw.slice(1, -1);
  return canBeBare(raw, bare) ? bare : raw;
}

function canBeBare(raw: string, bare: string): boolean {
  if (bare.length === 0 || raw.includes('\\') || bare.includes('|')) return false;
  const first = bare.charCodeAt(0);
  const last = bare.charCodeAt(bare.length - 1);
  if (first === 32 || first === 9 || last === 32 || last === 9) return false;
  if (first === 34 || first === 91 || first === 123) return false; // " [ {
  if (bare === MISSING_CELL || bare === 'true' || bare === 'false' || bare === 'null') return false;
  return !NUMBER.test(bare);
}

/** Reads one cell back: `undefined` for a missing key. */
export function decodeCell(cell: string): JsonNode | undefined {
  if (cell === MISSING_CELL) return undefined;
  const first = cell.charCodeAt(0);
  if (first === 34) return { type: 'scalar', raw: cell, kind: 'string' };
  if (first === 91 || first === 123) return parseJsonTree(cell);
  if (cell === 'true' || cell === 'false' || cell === 'null')
    return { type: 'scalar', raw: cell, kind: 'literal' };
  if (NUMBER.test(cell)) return { type: 'scalar', raw: cell, kind: 'number' };
  return { type: 'scalar', raw: `"${cell}"`, kind: 'string' };
}

/** Splits a row into its raw cells. */
export function splitRow(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    const start = i;
    const c = line.charCodeAt(i);
    if (c === 34) i = skipString(line, i);
    else if (c === 91 || c === 123) i = skipNested(line, i);
    else {
      while (i < line.length && line.charCodeAt(i) !== 124) i++;
    }
    cells.push(line.slice(start, i));
    if (i >= line.length) return cells;
    if (line.charCodeAt(i) !== 124) throw new Error(`columnar: expected '|' at column ${i + 1}`);
    i++;
  }
}

/** Index just after the JSON string starting at `i`. */
function skipString(line: string, i: number): number {
  let j = i + 1;
  while (j < line.length) {
    const c = line.charCodeAt(j);
    if (c === 92) j += 2;
    else if (c === 34) return j + 1;
    else j++;
  }
  throw new Error('columnar: unterminated string cell');
}

/** Index just after the bracketed JSON value starting at `i`. */
function skipNested(line: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < line.length) {
    const c = line.charCodeAt(j);
    if (c === 34) {
      j = skipString(line, j);
      continue;
    }
    if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  throw new Error('columnar: unbalanced brackets in a cell');
}
