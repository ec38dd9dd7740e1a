import { defineConfig } from 'tsup';

// Two entries, one per published subpath: the transformer (and with it onnxruntime) stays out of the main
// entry's bundle; the main entry reaches it only through a dynamic import, which becomes its own chunk.
export default defineConfig({
  entry: { index: 'src/index.ts', 'transformer/index': 'src/transformer/index.ts' },
  format: 'esm',
  dts: true,
  splitting: true,
  clean: true,
  external: ['onnxruntime-node'],
});
