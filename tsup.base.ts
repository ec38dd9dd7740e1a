import { defineConfig, type Options } from 'tsup';

/**
 * How every package is built for npm: ESM for Node 20, type declarations beside each entry, and every
 * dependency (the other `@distil/*` packages included) left external, so each installs on its own.
 * Entries are named by their path under `dist/`, matching `publishConfig.exports` in package.json.
 */
export function packageBuild(
  entry: Record<string, string>,
  extra: Options = {},
): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: true,
    sourcemap: true,
    clean: true,
    // Shared code goes to chunks at the top of dist/, so files read relative to a module
    // (`../weights/logistic.json`, `../package.json`) resolve from dist/ as they do from src/.
    splitting: true,
    ...extra,
  });
}
