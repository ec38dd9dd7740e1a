import { countTokens } from '@distil/core';
import type { UpstreamCall } from '@distil/savings';
import { type CallBill, callsOf, type ScriptedReply, sumBills } from '@distil/savings';
import type { RouteRun } from '../run/run-session.js';
import type { WorkspaceTemplate } from '../workspace/workspace.js';
import { prefixBreak } from './prefix-breaks.js';
import { readAgentRequest, resultsById } from './wire-views.js';

/** One agent request and everything it cost upstream. */
export interface ExchangeFigures {
  readonly exchange: number;
  /** What the agent got back in the end: the tool it was asked to run, or the final answer. */
  readonly action: string;
  /** Upstream calls (1 + expand continuations). */
  readonly calls: number;
  readonly expands: number;
  /** Tokens of the tool results new in this request: as the agent sent them, as the upstream got them. */
  readonly newResults: { readonly agentTokens: number; readonly upstreamTokens: number };
  readonly bill: CallBill;
  readonly busts: number;
  /** Where each bust broke the prefix. */
  readonly bustDetails: readonly string[];
  /** Forwarded byte for byte although it held tool results. */
  readonly untouched: boolean;
}

/** The big CI-log tool result: as the agent sent it and as the upstream got it. */
export interface CiLogFigures {
  readonly agentText: string;
  readonly agentTokens: number;
  readonly upstreamTokens: number;
  /**
   * Per key line of the log: visible in what the upstream got, or in an expansion; null when the agent's
   * own result lacked it (Codex cuts long outputs before anyone else sees them).
   */
  readonly keyLinesVisible: readonly (boolean | null)[];
}

/** Everything one route of one session measured. */
export interface RouteFigures {
  readonly route: RouteRun['route'];
  readonly exitCode: number | null;
  readonly finalAnswer: string | null;
  readonly exchanges: readonly ExchangeFigures[];
  readonly total: CallBill;
  readonly busts: number;
  readonly expands: number;
  readonly untouchedWithResults: number;
  /** Calls the fake upstream refused (a body it could not read), with the field it named. */
  readonly upstreamErrors: readonly string[];
  readonly ciLog: CiLogFigures | null;
  /** The proxy's own ledger over the run (null when direct). */
  readonly ledger: {
    readonly requests: number;
    readonly actualUsd: number;
    readonly savedUsd: number;
  } | null;
}

/** The text that marks the CI log's first line (a tool result holding it holds the log). */
const LOG_START = 'Runner Image Provisioner';

function describe(reply: ScriptedReply | null): string {
  if (!reply) return '(no reply)';
  if (reply.kind === 'final') return 'final answer';
  const input =
    typeof reply.input === 'string' ? (reply.input.split('\n')[1] ?? '') : JSON.stringify(reply.input);
  const short = input.length > 60 ? `${input.slice(0, 57)}...` : input;
  const parallel = reply.kind === 'tool' && reply.more?.length ? ` (+${reply.more.length} more)` : '';
  return `${reply.name}${parallel} ${short}`;
}

/** Computes a route's figures from what the tap and the fake upstream recorded. */
export function routeFigures(run: RouteRun, template: WorkspaceTemplate): RouteFigures {
  const byExchange = new Map<number, UpstreamCall[]>();
  for (const call of run.upstreamCalls) {
    if (call.exchange === null || !call.billed) continue;
    byExchange.set(call.exchange, [...(byExchange.get(call.exchange) ?? []), call]);
  }
  const exchanges: ExchangeFigures[] = [];
  const lastFirstCall = new Map<string, UpstreamCall>();
  const seenResults = new Map<string, Set<string>>();
  let ciLog: { exchange: number; id: string; text: string } | null = null;
  for (const request of run.agentRequests) {
    const read = readAgentRequest(request);
    const calls = byExchange.get(request.exchange) ?? [];
    if (!read || calls.length === 0) continue;
    const agentResults = resultsById(read.view);
    const before = seenResults.get(read.conversation) ?? new Set<string>();
    const upstreamResults = resultsById(calls[0]!.view!);
    let agentTokens = 0;
    let upstreamTokens = 0;
    for (const [id, text] of agentResults) {
      if (before.has(id)) continue;
      agentTokens += countTokens(text);
      upstreamTokens += countTokens(upstreamResults.get(id) ?? '');
      if (text.includes(LOG_START) && text.length > (ciLog?.text.length ?? 0)) {
        ciLog = { exchange: request.exchange, id, text };
      }
    }
    seenResults.set(read.conversation, new Set(agentResults.keys()));
    const bustDetails: string[] = [];
    calls.forEach((call, i) => {
      const parent = i > 0 ? calls[i - 1]! : (lastFirstCall.get(read.conversation) ?? null);
      const broken = prefixBreak({ call, parent });
      if (broken) bustDetails.push(`call ${i + 1}: ${broken}`);
    });
    lastFirstCall.set(read.conversation, calls[0]!);
    exchanges.push({
      exchange: request.exchange,
      action: describe(calls.at(-1)!.reply),
      calls: calls.length,
      expands: calls.reduce(
        (sum, c) =>
          c.reply?.kind === 'tool'
            ? sum + callsOf(c.reply).filter((call) => call.name.startsWith('distil_')).length
            : sum,
        0,
      ),
      newResults: { agentTokens, upstreamTokens },
      bill: sumBills(calls.map((c) => c.bill!)),
      busts: bustDetails.length,
      bustDetails,
      untouched: agentResults.size > 0 && calls[0]!.body.equals(request.body),
    });
  }
  const expansions = run.upstreamCalls.flatMap((call) =>
    (call.view?.calls ?? [])
      .filter((c) => c.name === 'distil_expand' && c.output !== null)
      .map((c) => c.output!),
  );
  let ciLogFigures: CiLogFigures | null = null;
  if (ciLog) {
    const log = ciLog;
    const first = byExchange.get(log.exchange)![0]!;
    const upstreamText = resultsById(first.view!).get(log.id) ?? '';
    ciLogFigures = {
      agentText: log.text,
      agentTokens: countTokens(log.text),
      upstreamTokens: countTokens(upstreamText),
      keyLinesVisible: template.facts.keyLines.map((needle) =>
        log.text.includes(needle)
          ? upstreamText.includes(needle) || expansions.some((text) => text.includes(needle))
          : null,
      ),
    };
  }
  return {
    route: run.route,
    exitCode: run.run.exitCode,
    finalAnswer: run.run.finalAnswer,
    exchanges,
    total: sumBills(exchanges.map((e) => e.bill)),
    busts: exchanges.reduce((n, e) => n + e.busts, 0),
    expands: exchanges.reduce((n, e) => n + e.expands, 0),
    untouchedWithResults: exchanges.filter((e) => e.untouched).length,
    upstreamErrors: run.upstreamCalls.flatMap((call) => (call.error ? [`${call.path}: ${call.error}`] : [])),
    ciLog: ciLogFigures,
    ledger:
      run.route === 'distil'
        ? {
            requests: run.ledger.length,
            actualUsd: run.ledger.reduce((sum, r) => sum + (r.actualUsd ?? 0), 0),
            savedUsd: run.ledger.reduce((sum, r) => sum + (r.savedUsd ?? 0), 0),
          }
        : null,
  };
}
