import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway redis-server for tests: loopback only, no persistence, its own temp folder, a free port.
 * Kept out of the package's public entry; tests of any package may import it by path.
 */
export interface RedisTestServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Whether the `redis-server` binary (Debian package `redis-server`) is on PATH. */
export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A port that was free a moment ago (the OS picks it); redis then binds it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function startOnce(port: number, dir: string): Promise<ChildProcess> {
  // Run in the foreground as our child (not --daemonize) so it can never outlive a crashed test run.
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--logfile',
      '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within 10 s:\n${log}`));
    }, 10_000);
    child.stdout?.on('data', (data: Buffer) => {
      log += data.toString();
      if (log.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with code ${code}:\n${log}`));
    });
  });
}

/** Starts a redis-server on 127.0.0.1 (retrying on a port race); `stop()` kills it and removes its folder. */
export async function startRedisTestServer(): Promise<RedisTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'distil-redis-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    try {
      const child = await startOnce(port, dir);
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: () =>
          new Promise<void>((resolve) => {
            const done = (): void => {
              rmSync(dir, { recursive: true, force: true });
              resolve();
            };
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      };
    } catch (error) {
      lastError = error;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
