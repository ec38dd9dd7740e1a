import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ComparedSession,
  compareSession,
  prepareWorkspace,
  type WorkspaceTemplate,
} from '../src/index.js';

// The real CLIs, the real proxy, the scripted fake upstream: one short session per agent, direct and
// through Distil. Slow by nature (two CLI runs each), hence the per-test limit.
const LIMIT_MS = 90_000;

let template: WorkspaceTemplate;
beforeAll(() => {
  template = prepareWorkspace(mkdtempSync(join(tmpdir(), 'distil-agents-test-')));
});

function expectSameOutcome(session: ComparedSession): void {
  const { direct, distil } = session;
  expect(direct.exitCode, `direct stderr: ${session.runs.direct.run.stderr.slice(-500)}`).toBe(0);
  expect(distil.exitCode, `through stderr: ${session.runs.distil.run.stderr.slice(-500)}`).toBe(0);
  expect(direct.finalAnswer).toContain(template.facts.testName);
  expect(direct.finalAnswer).toContain(template.facts.location);
  expect(distil.finalAnswer).toBe(direct.finalAnswer);
}

function expectKeyLinesAndStablePrefix(session: ComparedSession): void {
  const log = session.distil.ciLog;
  expect(log, 'a tool result held the CI log').not.toBeNull();
  const hidden = template.facts.keyLines.filter((_, i) => log!.keyLinesVisible[i] !== true);
  expect(hidden, 'key lines neither visible nor expanded').toEqual([]);
  const busts = session.distil.exchanges.flatMap((e) => e.bustDetails.map((d) => `turn ${e.exchange} ${d}`));
  expect(busts, 'prefix breaks through Distil').toEqual([]);
  expect(session.direct.busts).toBe(0);
}

/** Every request the agent sent with tool results was read and rewritten, and the CI log got much smaller. */
function expectCompressed(session: ComparedSession): void {
  expect(session.distil.untouchedWithResults, 'requests forwarded untouched').toBe(0);
  const log = session.distil.ciLog!;
  // A floor well under what the bench measures (56–57%), so the test guards the path, not a figure.
  expect(log.upstreamTokens).toBeLessThan(log.agentTokens * 0.6);
}

describe('real agents through the proxy', () => {
  it(
    'Claude Code on its default model: same answer, key lines visible, prefix stable',
    async () => {
      const session = await compareSession(template, { agent: 'claude-code', length: 'short' });
      expectSameOutcome(session);
      expectKeyLinesAndStablePrefix(session);
      expectCompressed(session);
    },
    LIMIT_MS,
  );

  it(
    'Claude Code with its session asleep between requests: the same, each request waking it',
    async () => {
      const session = await compareSession(template, {
        agent: 'claude-code',
        length: 'short',
        awakeSessions: 0,
      });
      expectSameOutcome(session);
      expectKeyLinesAndStablePrefix(session);
      expectCompressed(session);
    },
    LIMIT_MS,
  );

  it(
    'Codex with a raised tool-output limit: same answer, key lines visible, prefix stable',
    async () => {
      const session = await compareSession(template, { agent: 'codex', length: 'short', fullOutput: true });
      expectSameOutcome(session);
      expectKeyLinesAndStablePrefix(session);
      expectCompressed(session);
    },
    LIMIT_MS,
  );
});
