import type { SessionComparison } from '../report/acceptance.js';
import { compressReference } from '../report/compress-reference.js';
import { routeFigures } from '../report/session-figures.js';
import type { WorkspaceTemplate } from '../workspace/workspace.js';
import { type RouteRun, runSession, type SessionSpec } from './run-session.js';

/** A compared session with the raw runs kept (for fixtures and tests). */
export interface ComparedSession extends SessionComparison {
  readonly runs: { readonly direct: RouteRun; readonly distil: RouteRun };
}

/** A readable name for a session spec. */
export function sessionLabel(spec: SessionSpec): string {
  const agent = spec.agent === 'claude-code' ? 'Claude Code' : 'Codex';
  const output =
    spec.agent === 'codex'
      ? spec.fullOutput
        ? ', raised tool_output_token_limit'
        : ', default 10k-token output cap'
      : '';
  return `${agent} (${spec.length} session${output})`;
}

/**
 * Runs one session direct, then through Distil (one after the other: the two never share a cache or a
 * store), and measures both, with `distil compress` on the CI-log result as the agent sent it.
 */
export async function compareSession(
  template: WorkspaceTemplate,
  spec: SessionSpec,
): Promise<ComparedSession> {
  const direct = await runSession(template, spec, 'direct');
  const distil = await runSession(template, spec, 'distil');
  const directFigures = routeFigures(direct, template);
  const distilFigures = routeFigures(distil, template);
  const logText = distilFigures.ciLog?.agentText ?? directFigures.ciLog?.agentText;
  return {
    label: sessionLabel(spec),
    direct: directFigures,
    distil: distilFigures,
    reference: logText ? await compressReference(logText) : null,
    runs: { direct, distil },
  };
}
