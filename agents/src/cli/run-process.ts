import { spawn } from 'node:child_process';

/** What a finished CLI process left behind. */
export interface ProcessResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command to completion with stdin closed (both CLIs wait for input otherwise). `limitMs` is a
 * safety stop for a hung agent, not a measurement: the process is killed and reported by its signal.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string>; readonly limitMs: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.limitMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** The environment every agent starts from: no inherited credentials or model settings, a private HOME. */
export function cleanEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
  };
}

/**
 * The JSON objects of a CLI's line-delimited event output (`--output-format stream-json`, `--json`), in
 * order; lines that are not JSON (progress, warnings) are skipped.
 */
export function* jsonLines(stdout: string): Generator<unknown> {
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      yield JSON.parse(line);
    } catch {
      // a partial or non-JSON line: not an event
    }
  }
}
