/**
 * A worker thread for tokens.test.ts: adopts the table in its workerData, counts the texts it was given,
 * and says whether it counted with that table (the same SharedArrayBuffer) or built one of its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countTokens, sharedTokenTable, useTokenTable } from '../src/tokens.js';

const { table, texts } = workerData as { table?: unknown; texts: readonly string[] };
const adopted = useTokenTable(table);
const counts = texts.map(countTokens);
parentPort!.postMessage({ adopted, counts, sameTable: sharedTokenTable() === table });
