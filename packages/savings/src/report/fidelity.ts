import { firstSeenAt, laterTokens, normalisedLine as normalised } from '../replay/needed-lines.js';
import { sharesToken } from '../replay/reference-tokens.js';
import type { SessionReplay } from '../replay/replay-session.js';
import { entriesOfBody, toolResultsOf } from '../replay/tool-results.js';
import type { UpstreamCall } from '../upstream/billing-upstream.js';

/** How many tool-output lines later turns referred to, and how many of those the proxy hid. */
export interface Fidelity {
  /** Tool-output lines sharing a reference token with a later assistant text or tool input. */
  readonly neededLines: number;
  /**
   * Needed lines not visible verbatim anywhere in the request the proxy forwarded first for that turn (a
   * line sent once and referred back to later is visible where it was sent).
   */
  readonly hiddenLines: number;
  /** Of those, the ones no later expand round brought back either. */
  readonly hiddenAfterExpands: number;
}

/**
 * Fidelity of one replay: every tool output is judged where the agent first read it — the first request
 * of the turn that carried it, as the proxy forwarded it — against every assistant text and tool input
 * written from then on; a hidden line counts as brought back when a later expand round returned it.
 */
export function fidelityOf(replay: SessionReplay): Fidelity {
  const { session } = replay;
  const firstSeen = firstSeenAt(session);
  const laterFrom = laterTokens(session);
  const original = new Map(toolResultsOf(session.entries).map((r) => [r.id, r.text]));
  const byExchange = groupByExchange(replay.distil.calls);
  // expandedFrom[k]: what every expand round from turn k on gave back
  const expandedFrom: string[] = [];
  let acc = '';
  for (let k = session.calls.length - 1; k >= 0; k--) {
    const rounds = (byExchange.get(k) ?? []).slice(1).map(expandOutputs);
    if (rounds.length > 0) acc = `${rounds.join('\n')}\n${acc}`;
    expandedFrom[k] = acc;
  }
  let neededLines = 0;
  let hiddenLines = 0;
  let hiddenAfterExpands = 0;
  for (const [id, k] of firstSeen) {
    const calls = byExchange.get(k) ?? [];
    if (!calls[0] || !forwardedResult(calls[0], id)) continue;
    const forwarded = visibleText(calls[0]);
    const expanded = expandedFrom[k]!;
    const later = laterFrom[k]!;
    for (const raw of (original.get(id) ?? '').split('\n')) {
      const line = normalised(raw);
      if (line.length === 0 || !sharesToken(line, later)) continue;
      neededLines++;
      if (forwarded.includes(line)) continue;
      hiddenLines++;
      if (!expanded.includes(line)) hiddenAfterExpands++;
    }
  }
  return { neededLines, hiddenLines, hiddenAfterExpands };
}

function groupByExchange(calls: readonly UpstreamCall[]): Map<number, UpstreamCall[]> {
  const out = new Map<number, UpstreamCall[]>();
  for (const call of calls) {
    if (call.exchange === null) continue;
    const list = out.get(call.exchange) ?? [];
    list.push(call);
    out.set(call.exchange, list);
  }
  return out;
}

function bodyOf(call: UpstreamCall): unknown {
  try {
    return JSON.parse(call.body.toString('utf8'));
  } catch {
    return null;
  }
}

/** Whether `call` carried tool result `id` at all. */
function forwardedResult(call: UpstreamCall, id: string): boolean {
  return toolResultsOf(entriesOfBody(bodyOf(call))).some((r) => r.id === id);
}

/** Keys whose strings the model never reads as text. */
const OPAQUE = new Set(['signature', 'encrypted_content', 'id', 'call_id', 'tool_use_id', 'type', 'role']);

/** Every line of text in a forwarded request's conversation, normalised (memoised per call). */
const visible = new WeakMap<UpstreamCall, string>();
function visibleText(call: UpstreamCall): string {
  let text = visible.get(call);
  if (text === undefined) {
    const strings: string[] = [];
    const walk = (value: unknown, key: string): void => {
      if (typeof value === 'string') {
        if (!OPAQUE.has(key)) strings.push(value);
      } else if (Array.isArray(value)) for (const v of value) walk(v, key);
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
    };
    walk(entriesOfBody(bodyOf(call)), '');
    // Tool results (Codex's JSON envelope included) as the model reads them.
    for (const r of toolResultsOf(entriesOfBody(bodyOf(call)))) strings.push(r.text);
    text = strings.join('\n').split('\n').map(normalised).join('\n');
    visible.set(call, text);
  }
  return text;
}

/** What the expansions in a continuation call gave back (the results of distil tool calls). */
function expandOutputs(call: UpstreamCall): string {
  const distilIds = new Set((call.view?.calls ?? []).filter((c) => c.distil).map((c) => c.id));
  return toolResultsOf(entriesOfBody(bodyOf(call)))
    .filter((r) => distilIds.has(r.id))
    .map((r) => r.text.split('\n').map(normalised).join('\n'))
    .join('\n');
}
