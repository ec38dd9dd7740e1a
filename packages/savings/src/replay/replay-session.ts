import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DistilConfigInput, KeepModel, ModelPrice } from '@distil/contract';
import { MemoryRestoreStore } from '@distil/core';
import { startProxy } from '@distil/proxy';
import { type CallBill, priceCall, sumBills } from '../billing/bill.js';
import type { ClientProfile } from '../profiles/client-profile.js';
import type { RecordedSession } from '../sessions/recorded-session.js';
import { startBillingUpstream, type UpstreamCall } from '../upstream/billing-upstream.js';
import { EXCHANGE_HEADER } from '../upstream/http-body.js';
import type { ScriptedModel } from '../wire/scripted-reply.js';
import { neededLinesOnly } from './needed-lines.js';
import { replayModel } from './replay-model.js';
import { requestBody, type ToolResults } from './request-bodies.js';

/** One route's calls, as the billing upstream billed them. */
export interface RouteReplay {
  /** Every upstream call, in order (through the proxy, expand continuations included). */
  readonly calls: readonly UpstreamCall[];
  readonly bill: CallBill;
}

/** A session replayed on every route. */
export interface SessionReplay {
  readonly session: RecordedSession;
  /** The agent's requests straight to the upstream: what the user pays today with prompt caching. */
  readonly direct: RouteReplay;
  /** The same requests with every tool result emptied: the most any tool-output compressor could save. */
  readonly ceiling: RouteReplay;
  /**
   * The same requests with each tool result cut to its needed lines: the most a compressor that hides no
   * line a later turn refers to could save (an oracle: which lines those are is known only afterwards).
   */
  readonly neededOnly: RouteReplay;
  /** The agent's requests through the proxy. */
  readonly distil: RouteReplay;
  /** Each request's log lines from the proxy (content-free). */
  readonly proxyLog: readonly string[];
}

/** How to replay. */
export interface ReplayOptions {
  /** The client's system prompt and tools, for logs that do not record them. */
  readonly profile: ClientProfile;
  /** The user's Distil config: its keep model, tiers and proxy settings apply as in `distil proxy`. */
  readonly config?: DistilConfigInput;
  /** A keep model already loaded (else the proxy loads the config's). */
  readonly keepModel?: KeepModel;
  /** Price every call at this model's prices instead of each call's own model. */
  readonly price?: ModelPrice;
  /** Send every call as this model (default: the model the log names). */
  readonly model?: string;
}

/**
 * Replays one recorded session: each request the agent made, rebuilt as its client builds it, sent
 * straight to a local upstream that bills like the provider (direct), the same with tool results emptied
 * (ceiling) and cut to their needed lines (needed only), and through an in-process proxy started as `distil proxy` starts — the same rewrite, session
 * layer and expand loop — to a fresh upstream of its own (distil). Every route starts with a cold cache.
 */
export async function replaySession(
  session: RecordedSession,
  options: ReplayOptions,
): Promise<SessionReplay> {
  const priceOf = options.price ? () => options.price! : undefined;
  const recordedReply = replayModel(session, new MemoryRestoreStore());
  const direct = await replayRoute(session, options, 'recorded', recordedReply, priceOf);
  const ceiling = await replayRoute(session, options, 'removed', recordedReply, priceOf);
  const neededOnly = await replayRoute(session, options, neededLinesOnly(session), recordedReply, priceOf);
  const store = new MemoryRestoreStore();
  const home = mkdtempSync(join(tmpdir(), 'distil-savings-'));
  const proxyLog: string[] = [];
  const upstream = await startBillingUpstream({ model: replayModel(session, store), priceOf });
  const proxy = await startProxy({
    config: options.config ?? {},
    port: 0,
    host: '127.0.0.1',
    anthropicUpstream: upstream.url,
    openaiUpstream: upstream.url,
    store,
    keepModel: options.keepModel,
    home,
    shadow: false,
    // a replay measures the compressor as it stands: its scripted expands must not change it mid-replay
    learn: false,
    log: (line) => proxyLog.push(line),
  });
  try {
    await sendSession(session, options, 'recorded', proxy.url);
  } finally {
    await proxy.close();
    await upstream.close();
    rmSync(home, { recursive: true, force: true });
  }
  return {
    session,
    direct,
    ceiling,
    neededOnly,
    distil: { calls: upstream.calls, bill: billOf(upstream.calls) },
    proxyLog,
  };
}

async function replayRoute(
  session: RecordedSession,
  options: ReplayOptions,
  toolResults: ToolResults,
  model: ScriptedModel,
  priceOf: ((model: string) => ModelPrice) | undefined,
): Promise<RouteReplay> {
  const upstream = await startBillingUpstream({ model, priceOf });
  try {
    await sendSession(session, options, toolResults, upstream.url);
  } finally {
    await upstream.close();
  }
  return { calls: upstream.calls, bill: billOf(upstream.calls) };
}

/**
 * Sends the session's requests to `base` (an upstream, or a proxy in front of one) in order, each tagged
 * with its call number so the upstream answers with that call's recorded reply, and reads every reply.
 */
export async function sendSession(
  session: RecordedSession,
  options: Pick<ReplayOptions, 'profile' | 'model'>,
  toolResults: ToolResults,
  base: string,
): Promise<void> {
  const path = session.api === 'messages' ? '/v1/messages' : '/v1/responses';
  const credentials: Record<string, string> =
    session.api === 'messages'
      ? { 'x-api-key': 'sk-replay', 'anthropic-version': '2023-06-01' }
      : { authorization: 'Bearer sk-replay' };
  for (let k = 0; k < session.calls.length; k++) {
    const body = requestBody(session, options.profile, k, toolResults, options.model);
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [EXCHANGE_HEADER]: String(k), ...credentials },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${session.id}: call ${k + 1} was refused (${response.status}): ${text.slice(0, 300)}`);
    }
  }
}

const NOTHING: CallBill = priceCall(
  { input: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0 },
  { input: 0, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, minCacheableTokens: 0 },
);

function billOf(calls: readonly UpstreamCall[]): CallBill {
  const bills = calls.flatMap((c) => (c.bill ? [c.bill] : []));
  return bills.length === 0 ? NOTHING : sumBills(bills);
}
