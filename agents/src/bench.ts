import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeClientProfile, writeFixtures } from './capture/write-fixtures.js';
import { claudeCodeCli, codexCli } from './cli/cli-binaries.js';
import type { SessionLength } from './model/lexer-session.js';
import { acceptanceChecks } from './report/acceptance.js';
import { formatSession } from './report/print-report.js';
import { compareSession } from './run/compare-session.js';
import { runSession, type SessionSpec } from './run/run-session.js';
import { prepareWorkspace } from './workspace/workspace.js';

/**
 * `pnpm bench:agents [--short] [--agent claude-code|codex] [--capture]`: runs the real Claude Code and
 * Codex CLIs through the scripted sessions, direct and through Distil, and prints per turn what was sent,
 * billed and broken, then the acceptance of issue #14 with every figure beside direct. `--capture`
 * instead re-records the request bodies the CLIs send into agents/fixtures/.
 */
async function main(argv: readonly string[]): Promise<void> {
  const length: SessionLength = argv.includes('--short') ? 'short' : 'long';
  const only = argv.includes('--agent') ? argv[argv.indexOf('--agent') + 1] : undefined;
  if (only !== undefined && only !== 'claude-code' && only !== 'codex') {
    throw new Error(`--agent: expected claude-code or codex, got ${JSON.stringify(only)}`);
  }
  const template = prepareWorkspace(mkdtempSync(join(tmpdir(), 'distil-agents-template-')));
  const claude = claudeCodeCli();
  const codex = codexCli();
  if (argv.includes('--capture')) {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
    const captures: [SessionSpec, string, string, string][] = [
      [
        { agent: 'claude-code', length: 'short' },
        'claude-code',
        claude.version,
        'short session, default model, direct',
      ],
      [
        { agent: 'codex', length: 'short' },
        'codex',
        codex.version,
        'short session, default 10k-token tool output cap, direct',
      ],
      [
        { agent: 'codex', length: 'short', fullOutput: true },
        'codex-full-output',
        codex.version,
        'short session, tool_output_token_limit raised and max_output_tokens asked, direct',
      ],
    ];
    for (const [spec, prefix, version, note] of captures) {
      const run = await runSession(template, spec, 'direct');
      for (const file of writeFixtures(run, dir, prefix, { cliVersion: version, note }))
        process.stdout.write(`${file}\n`);
      // The default-configured runs also give `distil savings` the prompt and tools the logs leave out.
      if (prefix === 'claude-code' || prefix === 'codex')
        process.stdout.write(`${writeClientProfile(run, prefix, version)}\n`);
    }
    return;
  }
  process.stdout.write(
    `Real agents on the wire: @anthropic-ai/claude-code ${claude.version}, @openai/codex ${codex.version}; ` +
      `CI log ${template.ciLog.lineCount} lines; ${length} sessions.\n` +
      'Upstream: scripted fake billing like the provider (prompt caching at catalog list prices, tokens by ' +
      "o200k); the shared corpus is not used: the CI log is generated with Node's real test output.\n\n",
  );
  const specs: SessionSpec[] = [
    { agent: 'claude-code', length },
    { agent: 'codex', length },
    { agent: 'codex', length, fullOutput: true },
  ];
  const summary: string[] = [];
  for (const spec of specs.filter((s) => only === undefined || s.agent === only)) {
    const session = await compareSession(template, spec);
    process.stdout.write(`${formatSession(session)}\n\n`);
    const checks = acceptanceChecks(session);
    summary.push(
      `${session.label}: ${checks.filter((c) => c.pass).length}/${checks.length} pass` +
        (checks.some((c) => !c.pass)
          ? ` (failing: ${checks
              .filter((c) => !c.pass)
              .map((c) => c.name)
              .join('; ')})`
          : ''),
    );
  }
  process.stdout.write(`== acceptance\n${summary.join('\n')}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `bench:agents: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
