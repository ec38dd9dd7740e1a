import { SalienceKeepModel } from '@distil/codec';
import { type Block, DistilConfig } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { compressBlock } from '../pipeline/compress-block.js';
import { restoreBlock } from '../pipeline/restore-block.js';
import { MemoryRestoreStore } from '../store/index.js';

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();
const block = (text: string): Block => ({ id: 'npm', role: 'tool', kind: 'log', text, trusted: false });

describe('context the block repeats', () => {
  it('folds a dependency tree printed under an error, keeping the error and the ends of the tree', async () => {
    const tree = Array.from(
      { length: 400 },
      (_, i) => `│ │ ├── package-${i}@${i % 9}.${i % 7}.${i % 5} deduped`,
    );
    const lines = [
      ...Array.from({ length: 10 }, (_, i) => `> install step ${i}`),
      'npm ERR! missing: hawk@3.1.3, required by node-pre-gyp@0.6.39',
      ...tree,
      ...Array.from({ length: 14 }, (_, i) => `> teardown step ${i}`),
    ];
    const text = `${lines.join('\n')}\n`;
    const store = new MemoryRestoreStore();
    const out = await compressBlock(block(text), { keepModel, store, tiers });
    expect(out.text).toContain('npm ERR! missing: hawk@3.1.3, required by node-pre-gyp@0.6.39');
    expect(out.text).toContain(tree[0]);
    expect(out.text).toContain(tree[tree.length - 1]);
    expect(tree.filter((l) => out.text.includes(l)).length).toBeLessThan(10);
    expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  });

  it('keeps a stack trace whole, however long', async () => {
    const frames = Array.from(
      { length: 120 },
      (_, i) => `    at com.acme.Handler${i}.run(Handler${i}.java:${i + 10})`,
    );
    const lines = [
      ...Array.from({ length: 10 }, (_, i) => `[INFO] step ${i}`),
      'java.lang.IllegalStateException: handler failed',
      ...frames,
      ...Array.from({ length: 14 }, (_, i) => `[INFO] closing ${i}`),
    ];
    const out = await compressBlock(block(`${lines.join('\n')}\n`), {
      keepModel,
      store: new MemoryRestoreStore(),
      tiers,
    });
    for (const frame of frames) expect(out.text).toContain(frame);
  });

  it('folds a coverage table, one row per file, above a failing summary, keeping its ends and the verdict', async () => {
    const rows = WORDS.flatMap((a) => WORDS.map((b) => `  ${a}-${b}.js  |  100 |  100 |  100 |  100 |  |`));
    const lines = [
      ...Array.from({ length: 10 }, (_, i) => `> test step ${i}`),
      'File  | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s |',
      ...rows,
      'Jest: "global" coverage threshold for lines (95%) not met: 93.1%',
      'Test Suites: 1 failed, 13 passed, 14 total',
      ...Array.from({ length: 14 }, (_, i) => `> teardown step ${i}`),
    ];
    const text = `${lines.join('\n')}\n`;
    const store = new MemoryRestoreStore();
    const out = await compressBlock(block(text), { keepModel, store, tiers });
    const shown = rows.filter((r) => out.text.includes(r));
    expect(shown.slice(0, 3)).toEqual(rows.slice(0, 3));
    expect(shown.slice(-2)).toEqual(rows.slice(-2));
    expect(shown.length).toBeLessThan(10);
    expect(out.text).toContain('Test Suites: 1 failed, 13 passed, 14 total');
    expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  });

  it('keeps an expectation printed line by line after a failure whole, however alike its lines', async () => {
    const expected = WORDS.flatMap((a) => WORDS.slice(0, 5).map((b) => `      ${a}-${b}: 5;`));
    const lines = [
      ...Array.from({ length: 40 }, (_, i) => `> test step ${i}`),
      '  ● keeps the declared order',
      '    Expected value to equal:',
      ...expected,
      '',
      ...Array.from({ length: 14 }, (_, i) => `> teardown step ${i}`),
    ];
    const out = await compressBlock(block(`${lines.join('\n')}\n`), {
      keepModel,
      store: new MemoryRestoreStore(),
      tiers,
    });
    expect(out.tier).toBe('digest');
    for (const line of expected) expect(out.text).toContain(line);
  });
});

/** Words without digits, so that no two lines made of them share a shape. */
const WORDS = ['align', 'border', 'color', 'display', 'flex', 'grid', 'mask', 'order', 'place', 'text'];
