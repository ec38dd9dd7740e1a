import { describe, expect, it } from 'vitest';
import { moduleFlags } from './worker-script.js';

describe('moduleFlags', () => {
  it('keeps how modules load, with their values, in order', () => {
    const loading = [
      '--import',
      'tsx',
      '--conditions=development',
      '-r',
      './setup.cjs',
      '--enable-source-maps',
      '--experimental-vm-modules',
    ];
    expect(moduleFlags(loading)).toEqual(loading);
  });

  it('leaves out V8 and process-wide flags, which Node refuses in a worker’s own list', () => {
    expect(
      moduleFlags([
        '--max-semi-space-size=4',
        '--max-old-space-size',
        '512',
        '--title=distil',
        '--cpu-prof',
        '--import=tsx',
      ]),
    ).toEqual(['--import=tsx']);
  });
});
