/** Runs the quick benchmarks one after another; each prints its figures beside its own baseline. */
import { spawnSync } from 'node:child_process';

const QUICK = ['quality', 'speed', 'tier0', 'templates', 'codec', 'session', 'replay', 'proxy'];
let failed = 0;
for (const name of QUICK) {
  process.stdout.write(`\n== pnpm bench:${name}\n`);
  const run = spawnSync('pnpm', ['-s', `bench:${name}`], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
