import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
// Resolved here, so the binary also runs from a working directory outside the repository.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** What one run of the real `distil` binary printed. */
export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the `distil` binary in a child process, exactly as `pnpm distil` does (node + tsx loader). */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): CliRun {
  const result = spawnSync(process.execPath, ['--import', TSX, BIN, ...args], {
    cwd: options.cwd,
    input: options.input,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
