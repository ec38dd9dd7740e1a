import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@distil/cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Every test here runs the real `distil` binary in a child process (node + tsx + the command's
    // modules, 0.6–2 s on a quiet machine): on a loaded 2-core machine that alone can pass 5 s.
    testTimeout: 60_000,
  },
});
