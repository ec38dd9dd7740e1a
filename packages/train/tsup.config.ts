import { defineConfig } from 'tsup';

// The gradient worker is its own entry: worker threads start it by file (dist/gradient-worker.js), beside
// the main entry that spawns them.
export default defineConfig({
  entry: { index: 'src/index.ts', 'gradient-worker': 'src/gradient-worker.ts' },
  format: 'esm',
  dts: { entry: { index: 'src/index.ts' } },
  splitting: true,
  clean: true,
});
