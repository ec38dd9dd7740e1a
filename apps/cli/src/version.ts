import { readFileSync } from 'node:fs';

/**
 * The CLI's version, from its package.json. Read from this file's folder (src/ when run from source,
 * dist/ when installed), which is one level under the package either way: keep this module at that depth.
 */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
