import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockTokens,
  fitTokenNeed,
  lineNeedOdds,
  TOKEN_FEATURE_COUNT,
  TOKEN_FEATURE_NAMES,
  tokenNeeds,
  writtenFromLabels,
} from './token-need.js';

const line = fc.array(fc.constantFrom('src/app.ts', 'ERROR', 'timeout', '1234', 'a', '--', 'de4db33f'), {
  maxLength: 6,
});

describe('token need', () => {
  it('scores every token with finite features, and a line as the noisy-OR of its tokens', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.string(), (words, task) => {
        const lines = words.map((w) => w.join(' '));
        const block = blockTokens(lines, { task, recent: ['fix src/app.ts'] });
        expect(block.features).toHaveLength(block.tokens.length * TOKEN_FEATURE_COUNT);
        expect(block.features.every(Number.isFinite)).toBe(true);
        const weights = TOKEN_FEATURE_NAMES.map((_, i) => (i % 3) - 1);
        const p = tokenNeeds(block, weights);
        const odds = lineNeedOdds(block, weights);
        block.lineTokens.forEach((list, i) => {
          if (list.length === 0) {
            expect(odds[i]).toBe(-20);
            return;
          }
          // any one token needed makes the line at least that needed
          const q = 1 / (1 + Math.exp(-odds[i]!));
          for (const t of list) expect(q).toBeGreaterThanOrEqual(Math.min(p[t]!, 1 - 1e-9) - 1e-9);
        });
      }),
    );
  });

  it('learns that a token the task names is the one the agent writes', () => {
    const blocks = Array.from({ length: 12 }, (_, b) => {
      const lines = Array.from({ length: 20 }, (_, i) => `module_${b}_${i}.ts compiled in ${i * 7}ms`);
      const wanted = `module_${b}_${b % 20}.ts`;
      return {
        tokens: blockTokens(lines, { task: `fix ${wanted}` }),
        written: (t: string) => t === wanted,
      };
    });
    const weights = fitTokenNeed(blocks);
    const held = blockTokens(
      Array.from({ length: 20 }, (_, i) => `module_x_${i}.ts compiled in ${i * 7}ms`),
      { task: 'fix module_x_3.ts' },
    );
    const odds = lineNeedOdds(held, weights);
    expect(odds.indexOf(Math.max(...odds))).toBe(3);
  });

  it('infers the written tokens from line labels when the sessions do not say', () => {
    const written = writtenFromLabels(['ERROR in src/app.ts', 'done in 12ms', 'ERROR again'], [1, 0, 1]);
    expect(written('src/app.ts')).toBe(true);
    expect(written('ERROR')).toBe(true);
    expect(written('done')).toBe(false);
  });
});
