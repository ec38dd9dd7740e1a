import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RequestSavings, startProxy } from '@distil/proxy';
import { startBillingUpstream, type UpstreamCall } from '@distil/savings';
import { type AgentRun, runClaudeCode } from '../cli/claude-code.js';
import { runCodex } from '../cli/codex.js';
import { lexerSession, type SessionLength } from '../model/lexer-session.js';
import { type AgentKind, claudeCodeToolbelt, codexToolbelt } from '../model/toolbelt.js';
import { type AgentRequest, startAgentTap } from '../upstream/agent-tap.js';
import { cloneWorkspace, type WorkspaceTemplate } from '../workspace/workspace.js';

/** Direct (agent → fake upstream) or through Distil (agent → proxy → fake upstream). */
export type Route = 'direct' | 'distil';

/** Which session to play with which agent. */
export interface SessionSpec {
  readonly agent: AgentKind;
  readonly length: SessionLength;
  /**
   * Codex only: raise `tool_output_token_limit` and ask for the whole output (default false: Codex's
   * 10,000-token cut applies).
   */
  readonly fullOutput?: boolean;
  /** The proxy's `awakeSessions` (default the proxy's: 64); 0 puts the session to sleep after every request. */
  readonly awakeSessions?: number;
}

/** One agent run on one route, with everything both ends of the wire saw. */
export interface RouteRun {
  readonly spec: SessionSpec;
  readonly route: Route;
  readonly run: AgentRun;
  readonly workdir: string;
  readonly agentRequests: readonly AgentRequest[];
  readonly upstreamCalls: readonly UpstreamCall[];
  /** The proxy's own ledger, one record per proxied request (empty when direct). */
  readonly ledger: readonly RequestSavings[];
  /** The proxy's log lines (content-free by design). */
  readonly proxyLog: readonly string[];
}

/** The model Codex is configured with (in the catalog; Codex 0.171 defaults to one that is not). */
export const CODEX_MODEL = 'gpt-5.5';
/** Claude Code's Read budget in the harness: a whole 1,800-line log fits one Read (see the README). */
export const CLAUDE_READ_LIMIT_TOKENS = 100_000;

/** What the user asks the agent. The scripted model does not read it: it follows the session script. */
export function promptFor(length: SessionLength): string {
  const ask =
    length === 'short'
      ? 'Find the failing test and where it fails.'
      : 'Find the failing test, fix the code, and run the tests.';
  return `The CI job "test (20.x)" failed; its log is in ci/test-20.x.log. ${ask}`;
}

/**
 * Runs one agent through one route: a fresh copy of the workspace, a fresh fake upstream, the recording
 * tap and (for `distil`) an in-process proxy configured as `distil proxy` is by default, except that
 * shadow sampling is off (it would add random upstream calls) and its store lives in a scratch home.
 */
export async function runSession(
  template: WorkspaceTemplate,
  spec: SessionSpec,
  route: Route,
): Promise<RouteRun> {
  const scratch = mkdtempSync(join(tmpdir(), `distil-agents-${spec.agent}-${route}-`));
  const workdir = cloneWorkspace(template, join(scratch, 'work'));
  const tools =
    spec.agent === 'claude-code' ? claudeCodeToolbelt(workdir) : codexToolbelt(spec.fullOutput ?? false);
  const upstream = await startBillingUpstream({ model: lexerSession(tools, spec.length) });
  const ledger: RequestSavings[] = [];
  const proxyLog: string[] = [];
  const proxy =
    route === 'distil'
      ? await startProxy({
          port: 0,
          anthropicUpstream: upstream.url,
          openaiUpstream: upstream.url,
          home: join(scratch, 'distil-home'),
          shadow: false,
          // the benchmark measures the compressor as it stands, on a cold home
          learn: false,
          log: (line) => proxyLog.push(line),
          onRequest: (savings) => ledger.push(savings),
          ...(spec.awakeSessions !== undefined && {
            config: { proxy: { awakeSessions: spec.awakeSessions } },
          }),
        })
      : null;
  const tap = await startAgentTap(proxy?.url ?? upstream.url);
  try {
    const agentScratch = join(scratch, 'agent');
    mkdirSync(agentScratch, { recursive: true });
    const run =
      spec.agent === 'claude-code'
        ? await runClaudeCode({
            cwd: workdir,
            baseUrl: tap.url,
            prompt: promptFor(spec.length),
            scratch: agentScratch,
            readLimitTokens: CLAUDE_READ_LIMIT_TOKENS,
          })
        : await runCodex({
            cwd: workdir,
            baseUrl: `${tap.url}/v1`,
            prompt: promptFor(spec.length),
            scratch: agentScratch,
            model: CODEX_MODEL,
            ...(spec.fullOutput ? { toolOutputTokenLimit: 200_000 } : {}),
          });
    return {
      spec,
      route,
      run,
      workdir,
      agentRequests: tap.requests,
      upstreamCalls: upstream.calls,
      ledger,
      proxyLog,
    };
  } finally {
    await tap.close();
    await proxy?.close();
    await upstream.close();
  }
}
