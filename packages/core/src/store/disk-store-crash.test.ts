import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HANDLE_PATTERN, handleFor } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { DiskRestoreStore } from './disk-store.js';
import { crashOriginal } from './disk-store-crash-writer.js';
import { TEMP_PREFIX } from './disk-sweep.js';

const WRITER = fileURLToPath(new URL('./disk-store-crash-writer.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface Acknowledged {
  readonly seed: number;
  readonly index: number;
  readonly handle: string;
}

/**
 * Starts the writer, waits until it has acknowledged `killAfterAcks` puts plus a random few milliseconds
 * (so the kill lands anywhere: mid-write, between fsync and link, mid-sweep), SIGKILLs it, and returns
 * every put it acknowledged with a complete line.
 */
function runAndKill(
  path: string,
  seed: number,
  killAfterAcks: number,
  extraMs: number,
): Promise<Acknowledged[]> {
  const child = spawn(process.execPath, ['--import', TSX, WRITER, path, String(seed)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked: Acknowledged[] = [];
  let pending = '';
  let stderr = '';
  let scheduled = false;
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    child.stdout.on('data', (data: Buffer) => {
      pending += data.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const [, index, handle] = line.split(' ');
        acked.push({ seed, index: Number(index), handle: handle as string });
      }
      if (!scheduled && acked.length >= killAfterAcks) {
        scheduled = true;
        setTimeout(() => child.kill('SIGKILL'), extraMs);
      }
    });
    child.once('exit', (_code, signal) => {
      if (signal !== 'SIGKILL')
        reject(new Error(`writer exited on its own (${signal ?? _code}):\n${stderr}`));
      else resolve(acked);
    });
  });
}

/** Every handle-named file in the store, found by walking the fan-out folders. */
function storedHandles(path: string): { handles: string[]; temps: string[] } {
  const handles: string[] = [];
  const temps: string[] = [];
  for (const folder of readdirSync(path)) {
    for (const name of readdirSync(join(path, folder))) {
      if (HANDLE_PATTERN.test(name)) handles.push(name);
      else if (name.startsWith(TEMP_PREFIX)) temps.push(name);
    }
  }
  return { handles, temps };
}

describe('DiskRestoreStore crash safety', () => {
  it('serves every acknowledged handle byte-exactly after SIGKILLs, and never a partial record', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'distil-crash-')), 'store');
    const acknowledged: Acknowledged[] = [];
    // Fixed kill points (acks before the kill, then extra ms) spread from early to late in a run.
    const plan = [
      [1, 0],
      [30, 3],
      [90, 1],
      [10, 17],
      [60, 7],
      [5, 11],
      [45, 2],
      [20, 5],
    ] as const;
    for (const [seed, [afterAcks, extraMs]] of plan.entries()) {
      acknowledged.push(...(await runAndKill(path, seed, afterAcks, extraMs)));

      // Restart: the sweep opening the store starts cleans up after the dead writer.
      const store = await DiskRestoreStore.open({ path });
      await store.swept();
      expect(storedHandles(path).temps).toEqual([]);
      for (const { seed: s, index, handle } of acknowledged) {
        // Buffer#equals rather than toEqual: a deep equality walk over 100 KB arrays is needlessly slow.
        const exact = Buffer.from(await store.get(handle)).equals(crashOriginal(s, index));
        expect(exact, `seed ${s} put ${index} (${handle})`).toBe(true);
      }
      // Every record on disk is whole, the unacknowledged put in flight at the kill included: a record
      // takes its name only once its bytes are written, so none may fail verification (which would
      // refuse it with UnknownHandleError — safe, but a sign of a non-atomic write).
      for (const handle of storedHandles(path).handles) {
        expect(handleFor(await store.get(handle))).toBe(handle);
      }
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(plan.reduce((sum, [acks]) => sum + acks, 0));
  }, 60_000);
});
