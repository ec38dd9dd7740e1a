import { pathToFileURL } from 'node:url';
import { DiskRestoreStore } from './disk-store.js';

/**
 * The writer side of the crash-safety test: puts deterministic originals into a disk store forever and
 * prints `ACK <index> <handle>` only after each put has resolved. The test SIGKILLs it at random points.
 * Run: `node --import tsx disk-store-crash-writer.ts <store path> <seed>`.
 */

/** The `index`-th original of a run: 0 to 1 MiB of seeded pseudo-random bytes (xorshift32). */
export function crashOriginal(seed: number, index: number): Uint8Array {
  let state = (Math.imul(seed + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  // Mostly small originals, and every fourth one large, so that kills often land in the middle of a write.
  const length = next() % 4 === 0 ? next() % 1_048_576 : next() % 2048;
  const words = new Uint32Array(Math.ceil(length / 4));
  for (let i = 0; i < words.length; i += 1) words[i] = next();
  return new Uint8Array(words.buffer, 0, length);
}

async function main(path: string, seed: number): Promise<void> {
  // A small sweep interval puts sweeps (and their unlinks) among the kill points too. Odd seeds put with
  // the blocking file calls (record-files.ts), so both flavours are killed mid-write.
  const store = await DiskRestoreStore.open({ path, sweepEveryPuts: 25, blockingWrites: seed % 2 === 1 });
  for (let index = 0; ; index += 1) {
    const handle = await store.put(crashOriginal(seed, index));
    process.stdout.write(`ACK ${index} ${handle}\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [path, seed] = process.argv.slice(2);
  if (!path || !seed) throw new Error('usage: disk-store-crash-writer.ts <store path> <seed>');
  void main(path, Number(seed));
}
