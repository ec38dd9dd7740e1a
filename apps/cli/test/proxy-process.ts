import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** A `distil proxy` process, started as a user starts it. */
export interface ProxyProcess {
  readonly url: string;
  /** SIGTERM, then the process's exit: a stopping proxy still writes to its home (learned counts). */
  stop(): Promise<void>;
}

/** Starts the real `distil proxy` binary on a free port in front of `upstream`, and waits for its banner. */
export function startProxyProcess(upstream: string, distilHome: string): Promise<ProxyProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      TSX,
      BIN,
      'proxy',
      '--port',
      '0',
      '--anthropic-upstream',
      upstream,
      '--openai-upstream',
      upstream,
    ],
    { env: { ...process.env, DISTIL_HOME: distilHome }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        resolve({
          url: match[1]!,
          stop: () => {
            if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
            const exited = new Promise<void>((done) => child.once('exit', () => done()));
            child.kill();
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`distil proxy exited (${code}) before listening:\n${seen}`)),
    );
  });
}
