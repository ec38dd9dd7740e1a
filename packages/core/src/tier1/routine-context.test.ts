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
});
