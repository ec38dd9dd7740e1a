import { jsonTreeOf, linesJson, sortedMembers } from './canonical-json.js';
import { decodeCell, encodeCell, MISSING_CELL, splitRow } from './columnar-cells.js';
import { type JsonNode, parseJsonTree } from './json-tree.js';

/**
 * Reversible structured compaction (spec: "keys stated once, values listed as rows"): every homogeneous
 * array of JSON records is re-encoded as a table. The folded form:
 *
 * ```
 * {"items":@table1,"total_count":2}
 * @table1 $.items 2 rows
 * id|login|site_admin
 * 1|octocat|false
 * 2|hubot|~
 * ```
 *
 * - the document itself, in canonical JSON, with each folded array replaced by a bare `@tableN` (a bare
 *   `@` cannot occur in JSON, so the reference is unambiguous);
 * - per table: a header line `@tableN <path> <n> rows`, a line naming the columns (sorted keys), then one
 *   line per record. Cells are separated by `|`; see columnar-cells.ts for how a cell is written (bare
 *   strings when unambiguous, JSON otherwise, `~` for a key the record does not have — distinct from
 *   `null` and `""`).
 * Nested objects and arrays are inline canonical JSON cells rather than dotted columns: a cell then holds
 * exactly one field of one record (easy to read and to decode), and sparse nested data does not explode
 * into many mostly-empty columns. Record arrays nested inside a folded table stay inline.
 *
 * The decoder gives back JSON equal in value (canonical key order; numbers and strings as written).
 */

/** Folds only arrays of at least this many records. */
const MIN_ROWS = 2;
/** A table is folded only when at least this share of its cells is present (not `~`). */
const MIN_FILL = 0.5;

/** A JSON record array folded to a table, for {@link compactColumnar}. */
interface Table {
  readonly path: string;
  readonly columns: string[]; // raw keys
  readonly rows: JsonNode[];
}

/**
 * The columnar form of `text` when it is one JSON value holding at least one foldable record array and
 * the folded form is shorter; otherwise `null`.
 */
export function compactColumnar(text: string): string | null {
  const tree = jsonTreeOf(text);
  if (tree === null) return null;
  const tables: Table[] = [];
  const skeleton = foldTables(tree, '$', tables);
  if (tables.length === 0) return null;
  const out: string[] = [linesJson(skeleton)];
  tables.forEach((table, k) => {
    out.push(`@table${k + 1} ${table.path} ${table.rows.length} rows`);
    out.push(table.columns.map((c) => encodeCell({ type: 'scalar', raw: c, kind: 'string' })).join('|'));
    for (const row of table.rows) {
      const byKey = new Map<string, JsonNode>();
      if (row.type === 'object') for (const m of row.members) byKey.set(m.rawKey, m.value);
      out.push(table.columns.map((c) => (byKey.has(c) ? encodeCell(byKey.get(c)!) : MISSING_CELL)).join('|'));
    }
  });
  const folded = out.join('\n');
  return folded.length < text.length ? folded : null;
}

/** Reference node standing for a folded table inside the skeleton. */
const REF_PREFIX = '@table';

function foldTables(node: JsonNode, path: string, tables: Table[]): JsonNode {
  if (node.type === 'scalar') return node;
  if (node.type === 'array') {
    const columns = recordColumns(node.items);
    if (columns !== null) {
      tables.push({ path, columns, rows: node.items });
      return { type: 'scalar', raw: `${REF_PREFIX}${tables.length}`, kind: 'literal' };
    }
    return { type: 'array', items: node.items.map((item, i) => foldTables(item, `${path}[${i}]`, tables)) };
  }
  return {
    type: 'object',
    members: node.members.map((m) => ({
      ...m,
      value: foldTables(m.value, `${path}.${pathKey(m.key)}`, tables),
    })),
  };
}

function pathKey(key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
}

/**
 * The sorted column keys (raw spellings) when `items` is a foldable record array: enough objects, no
 * duplicate keys inside a record, and cells mostly present. Otherwise `null`.
 */
function recordColumns(items: readonly JsonNode[]): string[] | null {
  if (items.length < MIN_ROWS) return null;
  const columns = new Map<string, string>(); // decoded key → raw key
  let present = 0;
  for (const item of items) {
    if (item.type !== 'object' || item.members.length === 0) return null;
    const seen = new Set<string>();
    for (const m of item.members) {
      if (seen.has(m.key)) return null;
      seen.add(m.key);
      const raw = columns.get(m.key);
      // One spelling per key: `"a"` and `"\u0061"` in different records would not round-trip.
      if (raw !== undefined && raw !== m.rawKey) return null;
      columns.set(m.key, m.rawKey);
    }
    present += item.members.length;
  }
  if (present < MIN_FILL * columns.size * items.length) return null;
  const sorted = sortedMembers(
    [...columns].map(([key, rawKey]) => ({
      key,
      rawKey,
      value: { type: 'scalar', raw: '', kind: 'literal' },
    })),
  );
  return sorted.map((m) => m.rawKey);
}

/** Decodes the columnar form back to canonical JSON (the `lines` layout), equal in value to the input. */
export function expandColumnar(compact: string): string {
  const lines = compact.split('\n');
  // The skeleton runs up to the first table header.
  let first = lines.findIndex((l) => /^@table\d+ /.test(l));
  if (first < 0) first = lines.length;
  const tables = new Map<string, JsonNode>();
  let i = first;
  while (i < lines.length) {
    const header = /^@table(\d+) .* (\d+) rows$/.exec(lines[i]!);
    if (header === null) throw new Error(`columnar: expected a table header at line ${i + 1}`);
    const rowCount = Number(header[2]);
    const columns = splitRow(lines[i + 1] ?? '').map((c) => {
      const node = decodeCell(c);
      if (node === undefined || node.type !== 'scalar' || node.kind !== 'string') {
        throw new Error(`columnar: bad column name in table ${header[1]}`);
      }
      return node.raw;
    });
    const items: JsonNode[] = [];
    for (let r = 0; r < rowCount; r++) {
      const cells = splitRow(lines[i + 2 + r] ?? '');
      if (cells.length !== columns.length) {
        throw new Error(
          `columnar: row ${r + 1} of table ${header[1]} has ${cells.length} cells, not ${columns.length}`,
        );
      }
      const members = [];
      for (let c = 0; c < columns.length; c++) {
        const value = decodeCell(cells[c]!);
        if (value === undefined) continue;
        const rawKey = columns[c]!;
        members.push({ rawKey, key: JSON.parse(rawKey) as string, value });
      }
      items.push({ type: 'object', members });
    }
    tables.set(`${REF_PREFIX}${header[1]}`, { type: 'array', items });
    i += 2 + rowCount;
  }
  const skeletonText = lines.slice(0, first).join('\n');
  // `@tableN` is not JSON: turn each bare reference into a string the parser accepts, outside strings.
  const marker = markerFor(skeletonText);
  const tree = parseJsonTree(quoteReferences(skeletonText, marker));
  return linesJson(substitute(tree, tables, `"${marker}`));
}

/**
 * Turns each bare `@tableN` reference (outside JSON strings) into a string literal the parser accepts,
 * prefixed with a marker that occurs nowhere in the skeleton, so no original string is taken for one.
 */
function quoteReferences(text: string, marker: string): string {
  let out = '';
  let inString = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 64) {
      let j = i + 1;
      while (j < text.length && /[a-z0-9]/.test(text[j]!)) j++;
      out += `${text.slice(from, i)}"${marker}${text.slice(i, j)}"`;
      from = j;
      i = j - 1;
    }
  }
  return out + text.slice(from);
}

function markerFor(text: string): string {
  let k = 0;
  while (text.includes(`distil-ref${k}:`)) k++;
  return `distil-ref${k}:`;
}

function substitute(node: JsonNode, tables: ReadonlyMap<string, JsonNode>, prefix: string): JsonNode {
  if (node.type === 'scalar') {
    if (node.kind === 'string' && node.raw.startsWith(prefix)) {
      const name = node.raw.slice(prefix.length, -1);
      const table = tables.get(name);
      if (table === undefined) throw new Error(`columnar: unknown reference ${name}`);
      return table;
    }
    return node;
  }
  if (node.type === 'array')
    return { type: 'array', items: node.items.map((n) => substitute(n, tables, prefix)) };
  return {
    type: 'object',
    members: node.members.map((m) => ({ ...m, value: substitute(m.value, tables, prefix) })),
  };
}
