import type { Handle, RestoreStore } from '@distil/contract';
import { countTokens, findStubs } from '@distil/core';
import type { RecordedSession } from '../sessions/recorded-session.js';
import type { ScriptedModel, ScriptedReply } from '../wire/scripted-reply.js';
import { referenceTokens } from './reference-tokens.js';
import { replyText } from './request-bodies.js';
import { toolResultsOf } from './tool-results.js';

/**
 * The upstream's side of a replay: each request is answered with the reply the provider recorded for that
 * call, billed at the recorded output tokens. Through the proxy, a request can first get a round of
 * `distil_expand` calls: when the recorded reply refers to something (a reference token) that is in the
 * tool output the agent saw but in none of what the proxy forwarded, a careful agent would have expanded
 * the folds holding it before answering, so the replay does exactly that — the folds whose originals hold
 * a missing token, all in one reply — and the proxy's expand loop answers them as it would for a real
 * agent, billed like every other call. What a fold hides and no reference needed costs nothing extra.
 */
export function replayModel(session: RecordedSession, store: RestoreStore): ScriptedModel {
  const decoder = new TextDecoder();
  return async (view, request) => {
    const k = request.exchange;
    const call = k === null ? undefined : session.calls[k];
    if (!call || k === null) return { kind: 'final', text: '' };
    const written = replyText(session, k);
    const recorded: ScriptedReply = {
      kind: 'final',
      text: written,
      outputTokens: call.usage?.output ?? countTokens(written),
    };
    // A continuation of this exchange: the expansions are in, so the agent answers as it did.
    if (view.calls.some((c) => c.distil && c.output !== null)) return recorded;
    if (!view.offeredTools.has('distil_expand')) return recorded;
    const forwarded = JSON.stringify(request.body);
    const seen = toolResultsOf(session.entries.slice(0, call.end))
      .map((r) => r.text)
      .join('\n');
    const missing = [...referenceTokens(written)].filter((t) => seen.includes(t) && !forwarded.includes(t));
    if (missing.length === 0) return recorded;
    const handles: string[] = [];
    for (const tool of view.calls) {
      if (tool.distil || tool.output === null) continue;
      for (const stub of findStubs(tool.output)) {
        if (handles.includes(stub.handle)) continue;
        const original = await store.get(stub.handle as Handle).then(
          (bytes) => decoder.decode(bytes),
          () => '',
        );
        if (missing.some((t) => original.includes(t))) handles.push(stub.handle);
      }
    }
    const [first, ...rest] = handles.map((handle) => ({ name: 'distil_expand', input: { handle } }));
    return first ? { kind: 'tool', ...first, more: rest } : recorded;
  };
}
