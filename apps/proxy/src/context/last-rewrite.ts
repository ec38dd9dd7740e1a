import {
  type ByteEdit,
  editedOffset,
  type LiteralEncoder,
  type StringEdit,
  spliceBytes,
} from '../json/body-edits.js';
import type { JsonPath, LiteralDecoder, PathPatterns, ScannedJson } from '../json/json-scan.js';
import { putAt, scanJson, stringEnd } from '../json/json-scan.js';
import { copyJson, type SubtreeMemo } from '../json/subtree-memo.js';
import type { ProxySession } from '../session/proxy-session.js';

/**
 * A conversation's last request as the proxy rewrote it, kept so that the next one costs only what it
 * adds. An agent resends its whole history every turn: the next request repeats the last one's bytes up
 * to its last message or two (where the client moved its cache breakpoint, or appended the new turn),
 * then the same tail (system prompt, tools, settings). Everything the proxy made of the repeated part is
 * already here: the parsed history, and the bytes it sent for it, which prefix stability keeps the same
 * from turn to turn. So a request that repeats it is compared byte for byte with it (a few memcmps), only
 * the new items are scanned, and the bytes sent are the last request's up to the first new item, the new
 * items' own bytes (rewritten), and the last request's tail. The session still encodes every tool text
 * (it holds the decisions); the proxy checks that the repeated ones came out as last time before it
 * reuses their bytes, and reads the request whole otherwise.
 */
export interface LastRewrite {
  /** The session the request was encoded in: a later request is reused only in that same session. */
  readonly session: ProxySession;
  /** The client's bytes, and the bytes sent upstream (the same buffer when nothing changed). */
  readonly raw: Buffer;
  readonly body: Buffer;
  /** The top-level key of the history array (`messages`, `input`). */
  readonly history: string;
  /** Per history item, the offset just past it in `raw` and in `body`. */
  readonly ends: readonly number[];
  readonly outEnds: readonly number[];
  /** The offset of the history array's closing `]` in `raw` and in `body`. */
  readonly close: number;
  readonly outClose: number;
  /** The request as parsed, before any edit (its history member aside), and its history's items. */
  readonly top: Readonly<Record<string, unknown>>;
  readonly items: readonly unknown[];
  /** The request as sent (texts rewritten, distil tools appended), and its history's items. */
  readonly sent: Readonly<Record<string, unknown>>;
  readonly sentItems: readonly unknown[];
  /** The texts rewritten, in history order (see ContextOutcome.rewrites). */
  readonly rewrites: readonly StringEdit[];
  /** Whether the distil tools were wanted for it, and added. */
  readonly wanted: boolean;
  readonly offered: boolean;
}

/** A request read through its conversation's last rewrite: the repeated items, and the new ones parsed. */
export interface ReusedRead {
  readonly base: LastRewrite;
  /** How many leading history items repeat the last request's, byte for byte. */
  readonly kept: number;
  /** The request as parsed: the last request's unedited top-level members and kept items, then the new. */
  readonly request: Record<string, unknown>;
  /** The new items' bytes: from the `,` after the last kept item up to the history's `]` (may be empty). */
  readonly fresh: Buffer;
  /** The new items as parsed (never edited: the sent request gets copies). */
  readonly freshItems: readonly unknown[];
  /** The scan of `[` + the new items + `]`, whose offsets are `fresh`'s (its `[` stands on the `,`). */
  readonly freshScan: ScannedJson | null;
  /** The offset of the history's `]` in the new request. */
  readonly close: number;
  /**
   * The members after the history when their bytes changed (null: the last request's bytes), parsed, and
   * the scan of `{` + them (its `{` stands on the `,` after the history's `]`).
   */
  readonly tail: { readonly members: Record<string, unknown>; readonly scan: ScannedJson } | null;
}

/** Bytes of a body's start that file a conversation's last rewrite (the model, the first message's start). */
const HEAD_BYTES = 512;
/** Compared in strides this long before narrowing down to the first byte that differs. */
const STRIDE = 16 * 1024;

/** Most conversations whose last rewrite is kept: the agents a team runs at once. */
const MAX_REWRITES = 64;

/**
 * The last rewrite of recent conversations, filed by their route and the first bytes of their body, which
 * every turn of one conversation repeats. Bounded by MAX_REWRITES and by the bytes it holds, the least
 * recently used going first. A rewrite holds the client's bytes, the bytes sent (when they differ) and the
 * request parsed — its texts alone about as many bytes again (see sizeOf).
 */
export class RewriteMemory {
  readonly #byHead = new Map<string, LastRewrite>();
  readonly #maxBytes: number;
  #bytes = 0;
  /** Requests rewritten through a last rewrite so far. */
  readThrough = 0;

  /** `maxBytes`: the most it holds (0: nothing is kept, every request is read whole). */
  constructor(maxBytes = 12 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes held now. */
  get size(): number {
    return this.#bytes;
  }

  /** Whether it keeps anything (a request read whole files its rewrite only then). */
  get enabled(): boolean {
    return this.#maxBytes > 0;
  }

  /** The last rewrite filed for a body that starts as `raw` does on `route`, if any. */
  find(route: string, raw: Buffer): LastRewrite | undefined {
    if (this.#byHead.size === 0) return undefined;
    return this.#byHead.get(headKey(route, raw));
  }

  /** Files `rewrite` as the last of its conversation. */
  keep(route: string, rewrite: LastRewrite): void {
    const cost = sizeOf(rewrite);
    if (cost > this.#maxBytes) return;
    const key = headKey(route, rewrite.raw);
    const held = this.#byHead.get(key);
    if (held) {
      this.#byHead.delete(key);
      this.#bytes -= sizeOf(held);
    }
    this.#byHead.set(key, rewrite);
    this.#bytes += cost;
    for (const [oldest, entry] of this.#byHead) {
      if (this.#bytes <= this.#maxBytes && this.#byHead.size <= MAX_REWRITES) break;
      this.#byHead.delete(oldest);
      this.#bytes -= sizeOf(entry);
    }
  }
}

/** What a rewrite keeps alive: its two buffers, and the parsed request (counted as its bytes once more). */
function sizeOf(rewrite: LastRewrite): number {
  return 2 * rewrite.raw.length + (rewrite.body === rewrite.raw ? 0 : rewrite.body.length);
}

/** The route and an FNV-1a hash of a body's first HEAD_BYTES bytes. */
function headKey(route: string, raw: Buffer): string {
  const end = Math.min(raw.length, HEAD_BYTES);
  let hash = 0x811c9dc5;
  for (let i = 0; i < end; i++) hash = Math.imul(hash ^ raw[i]!, 0x01000193);
  return `${route}\0${end}\0${hash >>> 0}`;
}

/** The length of the longest common prefix of `a` and `b`, up to `limit`. */
export function commonPrefix(a: Buffer, b: Buffer, limit: number): number {
  let at = 0;
  while (at < limit) {
    const end = Math.min(at + STRIDE, limit);
    if (a.compare(b, at, end, at, end) === 0) {
      at = end;
      continue;
    }
    // the first difference lies in [at, end): halve the stride until it is short, then step
    let low = at;
    let high = end;
    while (high - low > 64) {
      const middle = (low + high) >>> 1;
      if (a.compare(b, low, middle, low, middle) === 0) low = middle;
      else high = middle;
    }
    while (low < high && a[low] === b[low]) low++;
    return low;
  }
  return limit;
}

/**
 * Reads `raw` through `base` when it repeats base's bytes up to its history's first changed item: the
 * same leading items, at least the first (the session the caller finds for it, from its root, must be
 * base's own). The members after the history are base's bytes again, or read anew (see readTail). What
 * is read anew must be compact JSON like the rest (a canonical body). Null when it is not so: the caller
 * reads the body whole.
 */
export function readThrough(
  raw: Buffer,
  base: LastRewrite,
  patterns: PathPatterns,
  literals: LiteralDecoder,
  subtrees: SubtreeMemo | null = null,
): ReusedRead | null {
  const tailLength = base.raw.length - base.close;
  const sameTail = raw.length - tailLength;
  const tailRepeats =
    sameTail >= base.ends[0]! &&
    raw[sameTail] === 0x5d &&
    raw.compare(base.raw, base.close, base.raw.length, sameTail, raw.length) === 0;
  const same = commonPrefix(raw, base.raw, Math.min(tailRepeats ? sameTail : raw.length, base.close));
  let kept = 0;
  while (kept < base.ends.length && base.ends[kept]! <= same) kept++;
  if (kept === 0) return null;
  const from = base.ends[kept - 1]!;
  const close = tailRepeats ? sameTail : arrayEnd(raw, from);
  if (close < 0) return null;
  const tail = tailRepeats ? null : readTail(raw, close, base, patterns, literals, subtrees);
  if (!tailRepeats && !tail) return null;
  const fresh = raw.subarray(from, close);
  let freshItems: readonly unknown[] = [];
  let freshScan: ScannedJson | null = null;
  if (fresh.length > 0) {
    if (fresh[0] !== 0x2c) return null;
    // `[` over the comma: the scan's offsets are then `fresh`'s own
    const array = Buffer.allocUnsafe(fresh.length + 1);
    fresh.copy(array);
    array[0] = 0x5b;
    array[fresh.length] = 0x5d;
    freshScan = scanJson(array, patterns.itemsOf(base.history), literals, null);
    if (!freshScan?.canonical || !Array.isArray(freshScan.value)) return null;
    freshItems = freshScan.value;
  }
  const request: Record<string, unknown> = { ...base.top, ...tail?.members };
  request[base.history] = [...base.items.slice(0, kept), ...freshItems];
  return { base, kept, request, fresh, freshItems, freshScan, close, tail };
}

/**
 * The offset of the `]` that closes the array whose items continue at `at` (just past an item), or -1.
 * Strings are skipped whole, so brackets inside them do not count.
 */
function arrayEnd(raw: Buffer, at: number): number {
  let depth = 0;
  for (let i = at; i < raw.length; i++) {
    const byte = raw[i]!;
    if (byte === 0x22) {
      const end = stringEnd(raw, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (byte === 0x5b || byte === 0x7b) depth++;
    else if (byte === 0x5d || byte === 0x7d) {
      if (depth === 0) return byte === 0x5d ? i : -1;
      depth--;
    }
  }
  return -1;
}

/**
 * The members after the history (`],` … `}`) read as an object, when they are compact JSON with the same
 * keys in the same order as the last request's (a client that rewrites its settings or metadata every
 * turn, as Codex does its `client_metadata`); null otherwise.
 */
function readTail(
  raw: Buffer,
  close: number,
  base: LastRewrite,
  patterns: PathPatterns,
  literals: LiteralDecoder,
  subtrees: SubtreeMemo | null,
): { readonly members: Record<string, unknown>; readonly scan: ScannedJson } | null {
  if (raw[close + 1] !== 0x2c) return null;
  const object = Buffer.allocUnsafe(raw.length - close - 1);
  raw.copy(object, 0, close + 1);
  object[0] = 0x7b;
  const scan = scanJson(object, patterns, literals, subtrees);
  if (!scan?.canonical || typeof scan.value !== 'object' || scan.value === null || Array.isArray(scan.value))
    return null;
  const members = scan.value as Record<string, unknown>;
  const keys = Object.keys(base.top);
  const after = keys.slice(keys.indexOf(base.history) + 1);
  const now = Object.keys(members);
  if (now.length !== after.length || now.some((key, i) => key !== after[i])) return null;
  return { members, scan };
}

/** The history item a rewritten text's path lies in, if it lies in one. */
function itemOf(path: JsonPath | undefined, history: string): number | undefined {
  return path && path[0] === history && typeof path[1] === 'number' ? path[1] : undefined;
}

function samePath(a: JsonPath | undefined, b: JsonPath | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((step, i) => step === b[i]);
}

/**
 * What goes after the history when its bytes changed: its members as sent (copies, the distil tools
 * appended when offered) and the byte edits over it, from its `]` on (the tools appended).
 */
export interface TailRewrite {
  readonly sent: Record<string, unknown>;
  readonly edits: readonly ByteEdit[];
}

/** What `rewriteThrough` made: the bytes to send, the request as sent, and the rewrite to file next. */
export interface ReusedRewrite {
  readonly body: Buffer;
  readonly rewritten: boolean;
  readonly sent: Record<string, unknown>;
  readonly next: LastRewrite;
}

/**
 * The bytes for a request read through its last rewrite, given the session's rewrites of all its tool
 * texts: the last request's bytes up to the first new item, the new items with their rewrites spliced in,
 * and the last request's tail. Null when the repeated items' rewrites are not exactly the last request's
 * (then their bytes are not the ones sent last time), or when a rewrite has no place in the bytes.
 */
export function rewriteThrough(
  read: ReusedRead,
  raw: Buffer,
  rewrites: readonly StringEdit[],
  literals: LiteralEncoder,
  tail: TailRewrite | null = null,
): ReusedRewrite | null {
  const { base, kept, fresh, freshScan } = read;
  let r = 0;
  for (; r < rewrites.length; r++) {
    const item = itemOf(rewrites[r]!.path, base.history);
    if (item === undefined) return null;
    if (item >= kept) break;
    const before = base.rewrites[r];
    if (before?.text !== rewrites[r]!.text || !samePath(before.path, rewrites[r]!.path)) return null;
  }
  const last = base.rewrites[r];
  if (last && (itemOf(last.path, base.history) ?? 0) < kept) return null;
  const edits: ByteEdit[] = [];
  const sentItems = read.freshItems.map(copyJson);
  for (; r < rewrites.length; r++) {
    const { path, text } = rewrites[r]!;
    const item = itemOf(path, base.history);
    if (item === undefined || item < kept || !freshScan) return null;
    const below = [item - kept, ...path!.slice(2)];
    const range = freshScan.rangeOf(below);
    if (!range || fresh[range.start] !== 0x22) return null;
    edits.push({ start: range.start, end: range.end, bytes: literals.encode(text) });
    putAt(sentItems, below, text);
  }
  edits.sort((a, b) => a.start - b.start);
  const freshOut = edits.length > 0 ? spliceBytes(fresh, edits) : fresh;
  const start = base.outEnds[kept - 1]!;
  const tailEdits = tail?.edits ?? [];
  const tailOut = read.tail
    ? tailEdits.length > 0
      ? spliceBytes(raw.subarray(read.close), tailEdits)
      : raw.subarray(read.close)
    : base.body.subarray(base.outClose);
  const rewritten = base.body !== base.raw || edits.length > 0 || tailEdits.length > 0;
  const body = rewritten ? Buffer.concat([base.body.subarray(0, start), freshOut, tailOut]) : raw;
  const freshEnds = freshScan?.itemsOf('')?.ends ?? [];
  const sentHistory = [...base.sentItems.slice(0, kept), ...sentItems];
  const sent: Record<string, unknown> = { ...base.sent, ...tail?.sent };
  sent[base.history] = sentHistory;
  const next: LastRewrite = {
    session: base.session,
    raw,
    body,
    history: base.history,
    ends: [...base.ends.slice(0, kept), ...freshEnds.map((end) => base.ends[kept - 1]! + end)],
    outEnds: [...base.outEnds.slice(0, kept), ...freshEnds.map((end) => start + editedOffset(edits, end))],
    close: read.close,
    outClose: start + freshOut.length,
    top: read.tail ? { ...base.top, ...read.tail.members } : base.top,
    items: read.request[base.history] as unknown[],
    sent,
    sentItems: sentHistory,
    rewrites,
    wanted: base.wanted,
    offered: base.offered,
  };
  return { body, rewritten, sent, next };
}

/**
 * The last rewrite of a request read whole, when its bytes can serve the next one: its history an array
 * of objects, the body compact JSON edited byte for byte (not re-serialised), and each item's end a
 * position the edits did not touch. `top` and `items` are the request as parsed, taken before any edit.
 */
export function firstRewrite(
  fields: Omit<LastRewrite, 'ends' | 'outEnds' | 'close' | 'outClose' | 'body'> & {
    readonly body: Buffer | string;
    readonly scanned: ScannedJson | null;
    readonly edits: readonly ByteEdit[] | null;
  },
): LastRewrite | null {
  const { body, scanned, edits, ...rest } = fields;
  if (typeof body === 'string' || !edits || !scanned?.canonical) return null;
  const spans = scanned.itemsOf(rest.history);
  if (!spans) return null;
  const outEnds = spans.ends.map((end) => editedOffset(edits, end));
  const outClose = editedOffset(edits, spans.close);
  if (outClose < 0 || outEnds.some((end) => end < 0)) return null;
  return { ...rest, body, ends: spans.ends, outEnds, close: spans.close, outClose };
}
