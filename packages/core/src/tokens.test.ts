import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { countTokens, sharedTokenTable, useTokenTable } from './tokens.js';

describe('countTokens', () => {
  it('counts a special-token string as the plain text it is', () => {
    const text = 'eos_token = "<|endoftext|>"';
    expect(() => countTokens(text)).not.toThrow();
    // the same characters with the special token's spelling broken count within a token or two of it
    const broken = countTokens('eos_token = "<|endof text|>"');
    expect(Math.abs(countTokens(text) - broken)).toBeLessThanOrEqual(2);
    expect(countTokens(text)).toBeGreaterThan(countTokens('eos_token = ""'));
  });

  it('counts every special token of o200k that way', () => {
    for (const special of ['<|endoftext|>', '<|endofprompt|>', '<|im_start|>', '<|im_end|>'])
      expect(countTokens(`a ${special} b`)).toBeGreaterThan(2);
  });
});

interface WorkerCounts {
  readonly adopted: boolean;
  readonly counts: readonly number[];
  readonly sameTable: boolean;
}

/** Counts `texts` in a new worker thread started with `table` (its sources through tsx's loader). */
function countInWorker(table: unknown, texts: readonly string[]): Promise<WorkerCounts> {
  const worker = new Worker(new URL('../test/count-in-worker.cjs', import.meta.url), {
    workerData: { table, texts },
    execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href],
  });
  return new Promise<WorkerCounts>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => worker.terminate());
}

describe('the shared token table', { timeout: 20_000 }, () => {
  const texts = ['hello world', 'ERROR step 41 failed: 日本語 😀', 'x'.repeat(500)];

  it('is counted with in a worker thread it is handed to, which builds none of its own', async () => {
    const table = sharedTokenTable();
    const answer = await countInWorker(table, texts);
    expect(answer).toEqual({ adopted: true, counts: texts.map(countTokens), sameTable: true });
  });

  it('is built by a worker thread that was handed none, or something else', async () => {
    const answer = await countInWorker(new SharedArrayBuffer(64), texts);
    expect(answer).toEqual({ adopted: false, counts: texts.map(countTokens), sameTable: false });
  });

  it('is refused when it is not a table, and the thread keeps counting with its own', () => {
    const own = sharedTokenTable();
    for (const notTable of [undefined, null, 7, new ArrayBuffer(64), new SharedArrayBuffer(0)])
      expect(useTokenTable(notTable)).toBe(false);
    expect(sharedTokenTable()).toBe(own);
    expect(useTokenTable(own)).toBe(true);
    expect(countTokens('hello world')).toBe(2);
  });
});
