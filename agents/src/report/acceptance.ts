import type { CompressReference } from './compress-reference.js';
import type { RouteFigures } from './session-figures.js';

/** One session, both routes, and the `distil compress` reference on its CI-log result. */
export interface SessionComparison {
  readonly label: string;
  readonly direct: RouteFigures;
  readonly distil: RouteFigures;
  /** `distil compress` on the CI-log tool result exactly as the agent sent it (null: no such result). */
  readonly reference: CompressReference | null;
}

/** One acceptance check, with the figures it was decided on. */
export interface Check {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** Fraction saved going from `before` to `after` (0 when there was nothing). */
export function savedShare(before: number, after: number): number {
  return before === 0 ? 0 : 1 - after / before;
}

/** The acceptance of issue #14, per session, each figure beside its direct counterpart. */
export function acceptanceChecks(s: SessionComparison): Check[] {
  const { direct, distil } = s;
  const checks: Check[] = [];
  checks.push({
    name: 'agents exit 0 with the same final answer',
    pass:
      direct.exitCode === 0 &&
      distil.exitCode === 0 &&
      direct.finalAnswer !== null &&
      direct.finalAnswer === distil.finalAnswer,
    detail: `exit direct ${direct.exitCode}, through ${distil.exitCode}; answers ${direct.finalAnswer === distil.finalAnswer ? 'equal' : `differ: direct ${JSON.stringify(direct.finalAnswer)} / through ${JSON.stringify(distil.finalAnswer)}`}`,
  });
  checks.push({
    name: 'no request with tool results forwarded untouched',
    pass: distil.untouchedWithResults === 0,
    detail: `${distil.untouchedWithResults} of ${distil.exchanges.filter((e) => e.newResults.agentTokens > 0 || e.untouched).length} requests with tool results went upstream byte for byte`,
  });
  const log = distil.ciLog;
  if (log) {
    const saved = savedShare(log.agentTokens, log.upstreamTokens);
    const ref = s.reference ? savedShare(log.agentTokens, s.reference.tokens) : 0;
    checks.push({
      name: 'CI-log tool result >= 60% fewer tokens, within 10 points of distil compress',
      pass: saved >= 0.6 && ref - saved <= 0.1,
      detail: `agent sent ${log.agentTokens}, upstream got ${log.upstreamTokens} (${pct(saved)} fewer); distil compress: ${s.reference?.tokens ?? 'n/a'} (${pct(ref)} fewer)`,
    });
    const sent = log.keyLinesVisible.filter((v) => v !== null);
    const hidden = sent.filter((v) => !v).length;
    const cut = log.keyLinesVisible.length - sent.length;
    checks.push({
      name: 'every key line of the CI log visible (or expanded)',
      pass: hidden === 0,
      detail:
        `${sent.length - hidden} of ${sent.length} the agent sent are visible; ${distil.expands} expand(s)` +
        (cut > 0 ? `; ${cut} key line(s) the agent itself cut before sending` : ''),
    });
  } else {
    checks.push({ name: 'CI-log tool result found', pass: false, detail: 'no tool result held the CI log' });
  }
  checks.push({
    name: '0 cache busts through Distil',
    pass: distil.busts === 0,
    detail: `through ${distil.busts}, direct ${direct.busts}`,
  });
  const cheaper = savedShare(direct.total.usd, distil.total.usd);
  checks.push({
    name: '>= 40% cheaper through Distil (prompt caching, expands and added tools included)',
    pass: cheaper >= 0.4,
    detail: `direct $${direct.total.usd.toFixed(4)}, through $${distil.total.usd.toFixed(4)} (${cheaper >= 0 ? `${pct(cheaper)} cheaper` : `${pct(-cheaper)} dearer`})`,
  });
  return checks;
}
