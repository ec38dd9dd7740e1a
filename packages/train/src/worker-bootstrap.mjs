// Loads a TypeScript worker entry when the package runs from source (the workspace, tests): registers
// tsx's loader in this worker thread, then imports the entry. A built package starts its .js entry directly.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);
