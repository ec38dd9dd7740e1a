import { type Exchange, type PreparedExchange, postUpstream, prepared } from '../exchange.js';
import type { DialectTools } from '../expand/distil-tools.js';
import { credentialDigest, grantHandles } from '../expand/handle-owners.js';
import { bypassReasonOf } from '../fail-open/part-failure.js';
import { standAside } from '../fail-open/stand-aside.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { appendedBytes, requestBytes } from '../json/body-edits.js';
import { jsonOf, type PathPatterns, type ScannedJson, scanJson } from '../json/json-scan.js';
import { copyJson } from '../json/subtree-memo.js';
import type { ProxySession } from '../session/proxy-session.js';
import { compressContext } from './compress-context.js';
import type { RequestContext } from './context-block.js';
import {
  firstRewrite,
  type ReusedRead,
  readThrough,
  rewriteThrough,
  type TailRewrite,
} from './last-rewrite.js';

/** How one provider dialect's requests are read and rewritten (Messages, Chat Completions, Responses). */
export interface RequestDialect<R> {
  /** Where its rewritable texts sit in the body (the paths its context adapter gives), and `tools`. */
  readonly patterns: PathPatterns;
  /** The top-level key of the conversation's history (the array an agent resends, growing, every turn). */
  readonly history: string;
  /** The validated request, or null when the body is not one the proxy can rewrite. */
  read(json: unknown): R | null;
  /** Puts remembered distil exchanges back into the history; whether anything changed. */
  splice(request: R, session: ProxySession): boolean;
  /** The request's tool texts (with writers and paths) and trusted texts. */
  context(request: R, excludedTools: ReadonlySet<string>): RequestContext;
  /** Appends the distil tools; false when it added nothing. */
  offer(request: R): boolean;
  readonly tools: DialectTools;
}

/** A request body the proxy read. */
export interface ReadRequest<R> {
  /** The request as parsed; read through the last rewrite, its repeated parts are shared: read only. */
  readonly request: R;
  readonly scanned: ScannedJson | null;
  /** Set when it was read through its conversation's last rewrite (see last-rewrite.ts). */
  readonly reused?: ReusedRead;
}

/** What files a conversation's last rewrite besides its first bytes: the route, query included. */
function routeOf(exchange: Exchange): string {
  return exchange.req.url ?? '';
}

/**
 * Reads a provider request body; null when it is not one the dialect can rewrite, after forwarding it
 * upstream byte for byte and relaying the answer. A body that repeats its conversation's last rewrite
 * is read through it: only its new history items are scanned.
 */
export async function readRequest<R>(
  exchange: Exchange,
  raw: Buffer,
  dialect: RequestDialect<R>,
): Promise<ReadRequest<R> | null> {
  const { rt } = exchange;
  const base = rt.rewrites.find(routeOf(exchange), raw);
  const reused = base && readThrough(raw, base, dialect.patterns, rt.literals, rt.subtrees);
  const request = reused && dialect.read(reused.request);
  if (reused && request) return { request, scanned: null, reused };
  const whole = readWhole(exchange, raw, dialect);
  if (whole) return whole;
  const upstream = await postUpstream(exchange, raw, false);
  await relayResponse(exchange.res, upstream, distilHeaders(exchange.clock, null));
  return null;
}

/** Reads a body from scratch (scanned, or parsed by JSON.parse); null when the dialect cannot rewrite it. */
function readWhole<R>(exchange: Exchange, raw: Buffer, dialect: RequestDialect<R>): ReadRequest<R> | null {
  const scanned = scanJson(raw, dialect.patterns, exchange.rt.literals, exchange.rt.subtrees);
  let request: R | null = null;
  try {
    request = dialect.read(jsonOf(raw, scanned));
  } catch {
    // not JSON: forwarded as it came
  }
  return request ? { request, scanned } : null;
}

/**
 * Whether the client declares tools of its own: an agent. Its tool list is the very start of the cached
 * prefix (tools, then system, then messages), so the distil tools join it on the session's first request
 * rather than on the first request whose context shows a fold — adding them then would re-write the whole
 * cache once per session. A request without tools (a title or summary call) gets them only once a fold is
 * in its context, when they are needed to recover it. All three dialects name the list `tools`.
 */
function declaresTools(request: unknown): boolean {
  const tools = (request as { tools?: unknown }).tools;
  return Array.isArray(tools) && tools.length > 0;
}

/**
 * Records in the store that this caller was issued the handles new to its session, so it — and only it —
 * may expand them on any replica. A store that cannot take the grant costs the caller those expands on
 * other replicas, never the request: the handles still resolve in this session.
 */
async function grantIssued(
  exchange: Exchange,
  session: ProxySession,
  issued: ReadonlySet<string>,
): Promise<void> {
  const fresh: string[] = [];
  for (const handle of issued) if (!session.grantedHandles.has(handle)) fresh.push(handle);
  if (fresh.length === 0) return;
  try {
    await grantHandles(exchange.rt.putGrants, fresh, credentialDigest(exchange.req.headers));
    for (const handle of fresh) session.grantedHandles.add(handle);
  } catch (error) {
    exchange.rt.log(`handle grants not recorded (${error instanceof Error ? error.name : 'error'})`);
  }
}

/** A request rewritten for upstream: the exchange to run and the bytes to send. */
export interface RewrittenRequest<R> {
  readonly prepared: PreparedExchange;
  /** The request as sent (what the expand loop continues from). */
  readonly request: R;
  readonly body: Buffer | string;
  /** Whether `body` differs from the client's bytes (its framing headers are then recomputed). */
  readonly rewritten: boolean;
}

/** A reused request's tool texts are never written into it: its bytes and its sent copy are made apart. */
const UNWRITTEN = (): void => {};

/**
 * The request's members as parsed, taken before the rewrite edits them, for its conversation's next
 * request (see last-rewrite.ts): top-level arrays copied (the distil tools are appended in place), the
 * history's items as the scan's memo holds them. Null when the body cannot serve as a last rewrite.
 */
function unedited(
  request: object,
  scanned: ScannedJson | null,
  history: string,
): { readonly top: Record<string, unknown>; readonly items: readonly unknown[] } | null {
  const items = scanned?.canonical ? scanned.itemsOf(history)?.values() : null;
  if (!items) return null;
  const top: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) top[key] = Array.isArray(value) ? [...value] : value;
  top[history] = items;
  return { top, items };
}

/**
 * The proxy's rewrite of a request in its session: remembered distil exchanges spliced back, tool texts
 * compressed (`continuation`: only the request's new items, the provider holds the rest), the distil
 * tools offered from an agent's first request, or once the context shows a handle (and kept from then on, so
 * the tool list never changes),
 * and the bytes to send.
 */
export async function rewriteRequest<R extends { model: string }>(
  exchange: Exchange,
  raw: Buffer,
  read: ReadRequest<R>,
  session: ProxySession,
  dialect: RequestDialect<R>,
  mode: 'whole' | 'continuation' = 'whole',
): Promise<RewrittenRequest<R>> {
  const { rt } = exchange;
  const { reused } = read;
  if (reused) {
    const usable = mode === 'whole' && session === reused.base.session && session.splices.size === 0;
    const made = usable ? await rewriteReused(exchange, raw, read.request, reused, session, dialect) : null;
    if (made) return made;
    // Read whole after all. When the session already encoded the texts, it hands the same blocks back.
    const whole = readWhole(exchange, raw, dialect);
    if (!whole) throw new Error('a body read through its last rewrite did not read whole');
    return rewriteRequest(exchange, raw, whole, session, dialect, mode);
  }
  const { request, scanned } = read;
  const kept = mode === 'whole' && rt.rewrites.enabled ? unedited(request, scanned, dialect.history) : null;
  session.splices.beginRequest();
  const spliced = dialect.splice(request, session);
  const splicedTokens = session.splices.appliedTokens;
  const outcome = await compressContext(dialect.context(request, rt.excludedTools), session, mode);
  if (outcome.failed) {
    const { count, error } = outcome.failed;
    standAside(exchange, bypassReasonOf(error), error, `${count} tool outputs sent whole`);
  }
  const wanted = wantsTools(exchange, outcome.handles, session, request);
  const offered = wanted && dialect.offer(request);
  if (offered) session.toolsOffered = true;
  const { body, rewritten, edits } = requestBytes(
    raw,
    scanned,
    request,
    { rewrites: outcome.rewrites, tools: offered ? dialect.tools : null, spliced },
    rt.literals,
  );
  if (kept && !spliced) {
    const history = dialect.history;
    const sent = request as unknown as Record<string, unknown>;
    const last = firstRewrite({
      ...kept,
      session,
      raw,
      body,
      history,
      sent,
      sentItems: sent[history] as unknown[],
      rewrites: outcome.rewrites,
      wanted,
      offered,
      scanned,
      edits,
    });
    if (last) rt.rewrites.keep(routeOf(exchange), last);
  }
  const made = prepared(exchange, {
    session,
    outcome,
    offered,
    splicedTokens,
    model: request.model,
    stored: storedFor(exchange, session, outcome),
  });
  return { prepared: made, request, body, rewritten };
}

/**
 * The rewrite of a request read through its conversation's last rewrite: its tool texts go through the
 * session as usual; the bytes are the last rewrite's for what repeats it (see rewriteThrough). Null when
 * they cannot be (the tools wanted changed, or a repeated text's rewrite): the caller reads it whole.
 */
async function rewriteReused<R extends { model: string }>(
  exchange: Exchange,
  raw: Buffer,
  request: R,
  reused: ReusedRead,
  session: ProxySession,
  dialect: RequestDialect<R>,
): Promise<RewrittenRequest<R> | null> {
  const { rt } = exchange;
  session.splices.beginRequest();
  const context = dialect.context(request, rt.excludedTools);
  const toolTexts = context.toolTexts.map((text) => (text.write ? { ...text, write: UNWRITTEN } : text));
  const outcome = await compressContext({ ...context, toolTexts }, session, 'whole');
  if (outcome.failed) {
    const { count, error } = outcome.failed;
    standAside(exchange, bypassReasonOf(error), error, `${count} tool outputs sent whole`);
  }
  const wanted = wantsTools(exchange, outcome.handles, session, request);
  const tail = reused.tail && tailRewrite(reused, wanted, dialect);
  const offered = tail ? tail.offered : reused.base.offered;
  if (reused.tail ? !tail : wanted !== reused.base.wanted) return null;
  const made = rewriteThrough(reused, raw, outcome.rewrites, rt.literals, tail);
  if (!made) return null;
  if (offered) session.toolsOffered = true;
  rt.rewrites.keep(routeOf(exchange), made.next);
  rt.rewrites.readThrough++;
  return {
    prepared: prepared(exchange, {
      session,
      outcome,
      offered,
      splicedTokens: 0,
      model: request.model,
      stored: storedFor(exchange, session, outcome),
    }),
    request: made.sent as unknown as R,
    body: made.body,
    rewritten: made.rewritten,
  };
}

/**
 * The members after a reused request's history when they changed: copies, offered the distil tools when
 * wanted, with the bytes that appends to the tool list. The tool list must be among them (its bytes are
 * then the new ones) or, unchanged before the history, want the tools as it did last time; null else.
 */
function tailRewrite<R>(
  reused: ReusedRead,
  wanted: boolean,
  dialect: RequestDialect<R>,
): (TailRewrite & { readonly offered: boolean }) | null {
  const { members, scan } = reused.tail!;
  const sent = copyJson(members) as Record<string, unknown>;
  if (!('tools' in members)) {
    if (wanted !== reused.base.wanted || (wanted && !('tools' in reused.base.top))) return null;
    return { sent, edits: [], offered: reused.base.offered };
  }
  const offered = wanted && dialect.offer(sent as R);
  if (!offered) return { sent, edits: [], offered };
  const range = scan.rangeOf(['tools']);
  if (!range || !Array.isArray(members.tools)) return null;
  // the scan's `{` stands on the `,` after the history's `]`: its offset x is x + 1 from that `]`
  const at = range.end;
  return {
    sent,
    edits: [{ start: at, end: at, bytes: appendedBytes(dialect.tools.json, members.tools.length > 0) }],
    offered,
  };
}

/**
 * Whether the distil tools go with this request: from an agent's first request, or once its context
 * shows a handle, and from then on (see declaresTools).
 */
function wantsTools(
  exchange: Exchange,
  handles: ReadonlySet<string>,
  session: ProxySession,
  request: unknown,
): boolean {
  return (
    exchange.rt.config.expandLoopCap > 0 &&
    (handles.size > 0 || session.toolsOffered || declaresTools(request))
  );
}

/**
 * The grants and fsyncs a request's handles need (see PreparedExchange.stored): against the disk store
 * every grant and new record waits on its fsyncs, so they run while the request is upstream.
 */
function storedFor(
  exchange: Exchange,
  session: ProxySession,
  outcome: PreparedExchange['outcome'],
): Promise<void> {
  return Promise.all([
    grantIssued(exchange, session, outcome.issued),
    exchange.rt.syncs.syncedFor(outcome.handles),
  ]).then(() => {});
}
