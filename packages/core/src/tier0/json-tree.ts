/**
 * A strict JSON (RFC 8259) parser that keeps every scalar exactly as written.
 *
 * `JSON.parse` would do for validation but not for re-serialising: it turns `1.50` into `1.5`, `1e3` into
 * `1000` and `"\u00e9"` into `"é"`, so the canonical form would no longer hold the input's bytes for each
 * value. This parser keeps the raw spelling of every number, string and literal (strings with their
 * escapes) and only decodes object keys, for sorting. It is iterative, so deep nesting cannot overflow
 * the call stack.
 */

/** A parsed JSON value with raw scalar spellings. */
export type JsonNode =
  | { readonly type: 'object'; readonly members: JsonMember[] }
  | { readonly type: 'array'; readonly items: JsonNode[] }
  | { readonly type: 'scalar'; readonly raw: string; readonly kind: 'string' | 'number' | 'literal' };

/** One object member: the key as written (with quotes and escapes), decoded, and the value. */
export interface JsonMember {
  readonly rawKey: string;
  readonly key: string;
  readonly value: JsonNode;
}

/** Thrown for text that is not exactly one JSON value; callers turn it into `null`. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

/** Deeper documents are refused (callers pass them through unchanged): serialisers recurse. */
export const MAX_DEPTH = 512;

const WS = new Uint8Array(128);
WS[32] = 1;
WS[9] = 1;
WS[10] = 1;
WS[13] = 1;

/** Parses `text` as exactly one JSON value (surrounding whitespace allowed); throws JsonSyntaxError. */
export function parseJsonTree(text: string): JsonNode {
  const p = new JsonParser(text);
  const node = p.document();
  return node;
}

interface Frame {
  readonly node: JsonNode & { type: 'object' | 'array' };
  pendingKey?: { rawKey: string; key: string };
}

class JsonParser {
  private i = 0;
  constructor(private readonly s: string) {}

  document(): JsonNode {
    const stack: Frame[] = [];
    let root: JsonNode | undefined;
    this.ws();
    // Iterative: values are attached to the frame on top of the stack.
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame !== undefined && frame.node.type === 'object' && frame.pendingKey === undefined) {
        // Expect a key, or `}` right after `{`.
        const c = this.s.charCodeAt(this.i);
        if (c === 125 && frame.node.members.length === 0) {
          this.i++;
          stack.pop();
          if (this.afterValue(stack)) break;
          continue;
        }
        if (c !== 34) throw new JsonSyntaxError('expected a string key', this.i);
        const rawKey = this.string();
        this.ws();
        if (this.s.charCodeAt(this.i) !== 58) throw new JsonSyntaxError("expected ':'", this.i);
        this.i++;
        this.ws();
        frame.pendingKey = { rawKey, key: decodeJsonString(rawKey) };
      }
      if (frame !== undefined && frame.node.type === 'array' && frame.node.items.length === 0) {
        if (this.s.charCodeAt(this.i) === 93) {
          this.i++;
          stack.pop();
          if (this.afterValue(stack)) break;
          continue;
        }
      }
      const c = this.s.charCodeAt(this.i);
      let value: JsonNode;
      if (c === 123 || c === 91) {
        this.i++;
        this.ws();
        const node: JsonNode & { type: 'object' | 'array' } =
          c === 123 ? { type: 'object', members: [] } : { type: 'array', items: [] };
        this.attach(stack, node, (r) => {
          root = r;
        });
        if (stack.length >= MAX_DEPTH) throw new JsonSyntaxError('nested too deeply', this.i);
        stack.push({ node });
        continue;
      }
      if (c === 34) value = { type: 'scalar', raw: this.string(), kind: 'string' };
      else if (c === 45 || (c >= 48 && c <= 57))
        value = { type: 'scalar', raw: this.number(), kind: 'number' };
      else value = { type: 'scalar', raw: this.literal(), kind: 'literal' };
      this.attach(stack, value, (r) => {
        root = r;
      });
      if (stack.length === 0) break;
      if (this.afterValue(stack)) break;
    }
    this.ws();
    if (this.i !== this.s.length) throw new JsonSyntaxError('unexpected text after the value', this.i);
    if (root === undefined) throw new JsonSyntaxError('no value', 0);
    return root;
  }

  private attach(stack: Frame[], node: JsonNode, setRoot: (n: JsonNode) => void): void {
    const frame = stack[stack.length - 1];
    if (frame === undefined) setRoot(node);
    else if (frame.node.type === 'array') frame.node.items.push(node);
    else {
      const k = frame.pendingKey!;
      frame.node.members.push({ rawKey: k.rawKey, key: k.key, value: node });
      frame.pendingKey = undefined;
    }
  }

  /** After a value inside containers: consume `,` or closing brackets. True when the root closed. */
  private afterValue(stack: Frame[]): boolean {
    for (;;) {
      this.ws();
      const frame = stack[stack.length - 1];
      if (frame === undefined) return true;
      const c = this.s.charCodeAt(this.i);
      if (c === 44) {
        this.i++;
        this.ws();
        return false;
      }
      const close = frame.node.type === 'object' ? 125 : 93;
      if (c !== close) throw new JsonSyntaxError(`expected ',' or '${String.fromCharCode(close)}'`, this.i);
      this.i++;
      stack.pop();
    }
  }

  private ws(): void {
    const s = this.s;
    let i = this.i;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c >= 128 || WS[c] !== 1) break;
      i++;
    }
    this.i = i;
  }

  private string(): string {
    const s = this.s;
    const start = this.i;
    let i = start + 1;
    for (;;) {
      if (i >= s.length) throw new JsonSyntaxError('unterminated string', start);
      const c = s.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) throw new JsonSyntaxError('control character in string', i);
      if (c === 92) {
        const e = s.charCodeAt(i + 1);
        if (e === 117) {
          for (let k = 2; k < 6; k++) {
            const h = s.charCodeAt(i + k);
            const hex = (h >= 48 && h <= 57) || (h >= 65 && h <= 70) || (h >= 97 && h <= 102);
            if (!hex) throw new JsonSyntaxError('bad \\u escape', i);
          }
          i += 6;
          continue;
        }
        // " \ / b f n r t
        if (
          e !== 34 &&
          e !== 92 &&
          e !== 47 &&
          e !== 98 &&
          e !== 102 &&
          e !== 110 &&
          e !== 114 &&
          e !== 116
        ) {
          throw new JsonSyntaxError('bad escape', i);
        }
        i += 2;
        continue;
      }
      i++;
    }
    this.i = i + 1;
    return s.slice(start, i + 1);
  }

  private number(): string {
    const s = this.s;
    const start = this.i;
    let i = start;
    if (s.charCodeAt(i) === 45) i++;
    const digit = (k: number): boolean => {
      const c = s.charCodeAt(k);
      return c >= 48 && c <= 57;
    };
    if (s.charCodeAt(i) === 48) i++;
    else if (digit(i)) while (digit(i)) i++;
    else throw new JsonSyntaxError('bad number', start);
    if (s.charCodeAt(i) === 46) {
      i++;
      if (!digit(i)) throw new JsonSyntaxError('bad fraction', start);
      while (digit(i)) i++;
    }
    const e = s.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      if (!digit(i)) throw new JsonSyntaxError('bad exponent', start);
      while (digit(i)) i++;
    }
    this.i = i;
    return s.slice(start, i);
  }

  private literal(): string {
    for (const word of ['true', 'false', 'null']) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return word;
      }
    }
    throw new JsonSyntaxError('unexpected character', this.i);
  }
}

/** The string value of a raw JSON string literal (quotes included). */
export function decodeJsonString(raw: string): string {
  // No backslash: the text between the quotes is the value.
  if (raw.indexOf('\\') < 0) return raw.slice(1, -1);
  return JSON.parse(raw) as string;
}
