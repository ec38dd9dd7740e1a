import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'datasets',
    include: ['generate.test.ts', 'src/**/*.test.ts'],
  },
});
