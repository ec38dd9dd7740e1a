import { type Exchange, type PreparedExchange, postUpstream } from '../exchange.js';
import type { DialectTools } from '../expand/distil-tools.js';
import { credentialDigest, grantHandles } from '../expand/handle-owners.js';
import { bypassReasonOf } from '../fail-open/part-failure.js';
import { standAside } from '../fail-open/stand-aside.js';
import { distilHeaders, relayResponse } from '../http/relay.js';
import { requestBytes } from '../json/body-edits.js';
import { jsonOf, type PathPatterns, type ScannedJson, scanJson } from '../json/json-scan.js';
import type { ProxySession } from '../session/proxy-session.js';
import { compressContext } from './compress-context.js';
import type { RequestContext } from './context-block.js';

/** How one provider dialect's requests are read and rewritten (Messages, Chat Completions, Responses). */
export interface RequestDialect<R> {
  /** Where its rewritable texts sit in the body (the paths its context adapter gives), and `tools`. */
  readonly patterns: PathPatterns;
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
  readonly request: R;
  readonly scanned: ScannedJson | null;
}

/**
 * Reads a provider request body; null when it is not one the dialect can rewrite, after forwarding it
 * upstream byte for byte and relaying the answer.
 */
export async function readRequest<R>(
  exchange: Exchange,
  raw: Buffer,
  dialect: RequestDialect<R>,
): Promise<ReadRequest<R> | null> {
  const scanned = scanJson(raw, dialect.patterns, exchange.rt.literals, exchange.rt.subtrees);
  let request: R | null = null;
  try {
    request = dialect.read(jsonOf(raw, scanned));
  } catch {
    // not JSON: forwarded as it came
  }
  if (request) return { request, scanned };
  const upstream = await postUpstream(exchange, raw, false);
  await relayResponse(exchange.res, upstream, distilHeaders(exchange.clock, null));
  return null;
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
export interface RewrittenRequest {
  readonly prepared: PreparedExchange;
  readonly body: Buffer | string;
  /** Whether `body` differs from the client's bytes (its framing headers are then recomputed). */
  readonly rewritten: boolean;
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
): Promise<RewrittenRequest> {
  const { rt } = exchange;
  const { request, scanned } = read;
  session.splices.beginRequest();
  const spliced = dialect.splice(request, session);
  const splicedTokens = session.splices.appliedTokens;
  const outcome = await compressContext(dialect.context(request, rt.excludedTools), session, mode);
  if (outcome.failed) {
    const { count, error } = outcome.failed;
    standAside(exchange, bypassReasonOf(error), error, `${count} tool outputs sent whole`);
  }
  // against the disk store every grant and new record waits on its fsyncs: they run while the request is
  // upstream
  const stored = Promise.all([
    grantIssued(exchange, session, outcome.issued),
    rt.syncs.syncedFor(outcome.handles),
  ]).then(() => {});
  const wanted =
    rt.config.expandLoopCap > 0 &&
    (outcome.handles.size > 0 || session.toolsOffered || declaresTools(request));
  const offered = wanted && dialect.offer(request);
  if (offered) session.toolsOffered = true;
  const { body, rewritten } = requestBytes(
    raw,
    scanned,
    request,
    { rewrites: outcome.rewrites, tools: offered ? dialect.tools : null, spliced },
    rt.literals,
  );
  const prepared: PreparedExchange = {
    ...exchange,
    session,
    outcome,
    offered,
    splicedTokens,
    model: request.model,
    stored,
  };
  return { prepared, body, rewritten };
}
