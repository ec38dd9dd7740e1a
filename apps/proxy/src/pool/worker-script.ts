import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the compress worker's code is, and the node flags a worker needs to run it. */
export interface WorkerScript {
  readonly filename: string;
  /**
   * The worker's node flags; absent, it inherits the proxy's own. Node rejects a list that names V8 or
   * process-wide flags (`--max-semi-space-size`, `--title`, …) with ERR_WORKER_INVALID_EXEC_ARGV, while
   * inheriting them is fine, so a proxy started with such flags keeps its workers only by inheriting.
   */
  readonly execArgv?: readonly string[];
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
  if (existsSync(fileURLToPath(built))) return { filename: built.href };
  const source = new URL('./compress-worker.ts', import.meta.url);
  if (existsSync(fileURLToPath(source))) {
    const flags = moduleFlags(process.execArgv);
    const hasTsx = flags.some(
      (flag, i) =>
        /^--(import|loader)=.*tsx/.test(flag) ||
        ((flags[i - 1] === '--import' || flags[i - 1] === '--loader') && flag.includes('tsx')),
    );
    return { filename: source.href, execArgv: hasTsx ? flags : [...flags, '--import', tsxLoader()] };
  }
  return null;
}

/** Flags that load or resolve modules, with their values: what a worker running sources must share. */
const MODULE_FLAGS = /^(?:--import|--require|-r|--loader|--experimental-loader|--conditions|-C)$/;

/**
 * The flags of `execArgv` that say how modules load (`--import tsx`, `--conditions …`, source maps),
 * in order. An explicit list must leave out V8 and process-wide flags, which Node refuses in a worker's
 * own list (see WorkerScript); these are what running the TypeScript sources in a worker needs.
 */
export function moduleFlags(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    const name = flag.split('=', 1)[0]!;
    if (MODULE_FLAGS.test(name)) {
      kept.push(flag);
      if (!flag.includes('=') && i + 1 < execArgv.length) kept.push(execArgv[++i]!);
    } else if (name === '--enable-source-maps' || name.startsWith('--experimental-')) kept.push(flag);
  }
  return kept;
}

/** tsx's loader, resolved from here (the workspace's dev dependency), whatever the working directory. */
function tsxLoader(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    return 'tsx';
  }
}
