import { SalienceKeepModel } from '@distil/codec';
import { type Block, DistilConfig } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { lineTable } from '../guard/line-table.js';
import { compressBlock } from '../pipeline/compress-block.js';
import { restoreBlock } from '../pipeline/restore-block.js';
import { MemoryRestoreStore } from '../store/index.js';
import { isPassingVerdict, routinePassingVerdicts } from './passing-verdicts.js';

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();
const block = (text: string): Block => ({ id: 'mvn', role: 'tool', kind: 'log', text, trusted: false });

describe('passing verdicts', () => {
  it('are told from failing ones by what they count, not by the names they carry', () => {
    expect(isPassingVerdict('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.3 sec')).toBe(
      true,
    );
    expect(
      isPassingVerdict(
        'Tests run: 4, Failures: 0, Errors: 0, Skipped: 0 - in org.assertj.core.error.ShouldBe',
      ),
    ).toBe(true);
    expect(isPassingVerdict('PASS packages/errors/src/index.test.js')).toBe(true);
    expect(isPassingVerdict('Tests run: 4, Failures: 1, Errors: 0, Skipped: 0')).toBe(false);
    expect(isPassingVerdict('Tests run: 4, Failures: 0, Errors: 2, Skipped: 0')).toBe(false);
    expect(isPassingVerdict('FAIL packages/core/src/index.test.js')).toBe(false);
    expect(isPassingVerdict('DECISION: ship it, 0 failed')).toBe(false);
  });

  it('of a shape the block repeats keep their first and last; failing ones all stay', () => {
    const lines = [
      'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 sec',
      'Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.2 sec',
      'Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.3 sec',
      'Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.4 sec',
      'Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.5 sec',
      'BUILD SUCCESS',
    ];
    expect([...routinePassingVerdicts(lines, lineTable(lines))]).toEqual([0, 1, 0, 1, 0, 0]);
    // a shape seen twice is not routine
    const two = [lines[0]!, lines[1]!, 'BUILD SUCCESS'];
    expect([...routinePassingVerdicts(two, lineTable(two))]).toEqual([0, 0, 0]);
  });

  it('fold in a surefire log, while the failing class and the total stay verbatim', async () => {
    const lines = ['[INFO] Scanning for projects...', '[INFO] T E S T S'];
    for (let i = 0; i < 200; i++) {
      lines.push(`Running org.example.error.Should${i}Test`);
      lines.push(
        i === 120
          ? `Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.0${i % 10} sec <<< FAILURE!`
          : `Tests run: ${(i % 5) + 1}, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.0${i % 10} sec`,
      );
    }
    lines.push('Results :', 'Tests run: 640, Failures: 1, Errors: 0, Skipped: 0', '[INFO] BUILD FAILURE');
    lines.push(...Array.from({ length: 12 }, (_, i) => `[INFO] cleanup ${i}`));
    const text = `${lines.join('\n')}\n`;
    const store = new MemoryRestoreStore();
    const out = await compressBlock(block(text), { keepModel, store, tiers });
    expect(out.text).toContain(
      'Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.00 sec <<< FAILURE!',
    );
    expect(out.text).toContain('Tests run: 640, Failures: 1, Errors: 0, Skipped: 0');
    const passing = out.text.split('\n').filter((l) => /^Tests run: \d, Failures: 0/.test(l));
    // the first and last of the shape, and the failure's neighbours: not the 199 passing classes
    expect(passing.length).toBeLessThan(15);
    expect(out.text.length).toBeLessThan(text.length / 3);
    expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  });
});
