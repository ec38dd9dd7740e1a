#!/usr/bin/env node
// `pnpm distil` in the monorepo: the CLI from its TypeScript sources, with no build step and without the
// `$ tsx …` line a package script would print first. The published package runs dist/bin.js instead
// (publishConfig.bin).
import { register } from 'tsx/esm/api';

register();
await import('../src/bin.ts');
