/**
 * A JSON pretty-printer that reports the path of every line it writes, so a generator can label the
 * lines of the records it planted. Output is byte-identical to `JSON.stringify(value, null, indent)`.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonPath = readonly (string | number)[];

/** One printed line and the path of the value (or key) it holds. */
export interface JsonLine {
  readonly text: string;
  readonly path: JsonPath;
}

/** Pretty-prints `value` and returns its lines with their paths. */
export function jsonLines(value: Json, indent = 2): JsonLine[] {
  const out: JsonLine[] = [];
  const pad = (depth: number): string => ' '.repeat(depth * indent);
  const walk = (v: Json, path: JsonPath, depth: number, prefix: string, suffix: string): void => {
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push({ text: `${pad(depth)}${prefix}[]${suffix}`, path });
        return;
      }
      out.push({ text: `${pad(depth)}${prefix}[`, path });
      v.forEach((item, i) => {
        walk(item, [...path, i], depth + 1, '', i < v.length - 1 ? ',' : '');
      });
      out.push({ text: `${pad(depth)}]${suffix}`, path });
      return;
    }
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 0) {
        out.push({ text: `${pad(depth)}${prefix}{}${suffix}`, path });
        return;
      }
      out.push({ text: `${pad(depth)}${prefix}{`, path });
      keys.forEach((k, i) => {
        walk(v[k]!, [...path, k], depth + 1, `${JSON.stringify(k)}: `, i < keys.length - 1 ? ',' : '');
      });
      out.push({ text: `${pad(depth)}}${suffix}`, path });
      return;
    }
    out.push({ text: `${pad(depth)}${prefix}${JSON.stringify(v)}${suffix}`, path });
  };
  walk(value, [], 0, '', '');
  return out;
}

/** True when `path` starts with `prefix`. */
export function under(path: JsonPath, prefix: JsonPath): boolean {
  return prefix.every((p, i) => path[i] === p);
}
