import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the compress worker's code is, and the node flags a worker needs to run it. */
export interface WorkerScript {
  readonly filename: string;
  readonly execArgv: readonly string[];
}

/**
 * The compress worker beside this module: `compress-worker.js` in the built package (tsup puts this
 * module's code and the worker's entry both at the top of `dist/`), or `compress-worker.ts` in the
 * sources, run through tsx's loader as the rest of the sources are in development. Null when neither is
 * there (a bundler that folded the proxy into one file without the worker): the proxy then compresses
 * in its own thread, unless the embedder names the worker's file itself.
 */
export function compressWorkerScript(): WorkerScript | null {
  const built = new URL('./compress-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return { filename: built.href, execArgv: process.execArgv };
  const source = new URL('./compress-worker.ts', import.meta.url);
  if (existsSync(fileURLToPath(source))) {
    const flags = process.execArgv;
    const hasTsx = flags.some(
      (flag, i) =>
        /^--(import|loader)=.*tsx/.test(flag) ||
        ((flags[i - 1] === '--import' || flags[i - 1] === '--loader') && flag.includes('tsx')),
    );
    return { filename: source.href, execArgv: hasTsx ? flags : [...flags, '--import', tsxLoader()] };
  }
  return null;
}

/** tsx's loader, resolved from here (the workspace's dev dependency), whatever the working directory. */
function tsxLoader(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    return 'tsx';
  }
}
