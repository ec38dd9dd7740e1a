/**
 * `pnpm bench:savings [paths…]`: offline against live. Each session is priced by `distil savings`' own
 * replay (the proxy in process), and again live: the real `distil proxy` binary started as a user starts
 * it, in its own process with its own disk store, in front of the billing upstream, sent the same
 * requests. Prints both savings figures per session and their difference in percentage points; the
 * offline figure is only worth reading if the difference stays within 2 points.
 *
 * Default paths: the Claude Code logs of the corpus (`../shared/corpus/trajectories/claude_code_tokbench`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DistilConfig } from '@distil/contract';
import { openRestoreStore } from '@distil/core';
import {
  importSessions,
  type RecordedSession,
  replayModel,
  replaySession,
  sendSession,
  sessionSavings,
  shippedProfile,
  startBillingUpstream,
  sumBills,
} from '@distil/savings';
import { startProxyProcess } from '../apps/cli/test/proxy-process.js';
import { requireCorpus } from './corpus-path.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const paths = args.length > 0 ? args : [join(requireCorpus(), 'trajectories/claude_code_tokbench')];
  const { sessions } = importSessions(paths);
  process.stdout.write(
    `offline (distil savings) against live (distil proxy binary), ${sessions.length} sessions\n`,
  );
  process.stdout.write(
    'session                        calls  cache only   offline saved  live saved   diff (pp)\n',
  );
  let worst = 0;
  for (const session of sessions) {
    const profile = shippedProfile(session.api);
    const offline = sessionSavings(await replaySession(session, { profile }));
    const live = await liveBill(session);
    const offlineSaved = 1 - offline.distil / offline.cacheOnly;
    const liveSaved = 1 - live / offline.cacheOnly;
    const diff = (liveSaved - offlineSaved) * 100;
    worst = Math.max(worst, Math.abs(diff));
    process.stdout.write(
      `${session.id.slice(-30).padEnd(30)} ${String(session.calls.length).padStart(5)}  ` +
        `$${offline.cacheOnly.toFixed(4).padStart(9)}  ${pct(offlineSaved).padStart(13)}  ` +
        `${pct(liveSaved).padStart(10)}  ${diff.toFixed(2).padStart(9)}\n`,
    );
  }
  process.stdout.write(`largest difference: ${worst.toFixed(2)} pp (target: within 2 pp)\n`);
  if (worst > 2) process.exitCode = 1;
}

const pct = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;

/** What the billing upstream billed for the session sent through a `distil proxy` process. */
async function liveBill(session: RecordedSession): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'distil-savings-live-'));
  // The replayed agent reads folds from the proxy's own disk store, as `distil expand` would.
  const store = await openRestoreStore(DistilConfig.parse({}).restoreStore, home);
  const upstream = await startBillingUpstream({ model: replayModel(session, store) });
  const proxy = await startProxyProcess(upstream.url, home);
  try {
    await sendSession(session, { profile: shippedProfile(session.api) }, 'recorded', proxy.url);
    return sumBills(upstream.calls.flatMap((c) => (c.bill ? [c.bill] : []))).usd;
  } finally {
    proxy.stop();
    await upstream.close();
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
