import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDataset, DATASET_SEED, writeDataset } from './src/write-dataset.js';

/**
 * Regenerates `datasets/generated/` (or `--out DIR`) from the fixed seed (or `--seed N`).
 * Usage: `pnpm datasets [--out DIR] [--seed N]`.
 */
function main(argv: readonly string[]): void {
  let out = resolve(fileURLToPath(new URL('.', import.meta.url)), 'generated');
  let seed = DATASET_SEED;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--out' && value) {
      out = resolve(value);
      i++;
    } else if (arg === '--seed' && value && /^\d+$/.test(value)) {
      seed = Number(value);
      i++;
    } else {
      throw new Error(
        `unknown or incomplete argument ${JSON.stringify(arg)}; usage: generate.ts [--out DIR] [--seed N]`,
      );
    }
  }
  const files = buildDataset(seed);
  writeDataset(out, files);
  let bytes = 0;
  for (const text of files.values()) bytes += Buffer.byteLength(text);
  console.log(`wrote ${files.size} files, ${(bytes / 1e6).toFixed(2)} MB, seed ${seed}, to ${out}`);
}

main(process.argv.slice(2));
