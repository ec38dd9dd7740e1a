/**
 * A worker thread of bench/tokens.ts: counts a text with one counter (or none, for the baseline), says
 * so, and stays alive until terminated, so the process's RSS holds what the thread loaded. The new counter
 * is handed the main thread's table; gpt-tokenizer loads its own tables, as each compress worker did.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { countTokens, useTokenTable } from '../packages/core/src/tokens.js';

const { counter, text, table } = workerData as { counter: string; text: string; table?: SharedArrayBuffer };
if (counter === 'distil') {
  if (!useTokenTable(table)) throw new Error('the table was not handed over');
  countTokens(text);
} else if (counter === 'gpt-tokenizer') {
  const load = createRequire(new URL('../packages/core/package.json', import.meta.url));
  const library = load('gpt-tokenizer/encoding/o200k_base') as {
    countTokens: (text: string, options: { disallowedSpecial: ReadonlySet<string> }) => number;
  };
  library.countTokens(text, { disallowedSpecial: new Set() });
}
parentPort!.postMessage('counted');
setInterval(() => {}, 60_000);
