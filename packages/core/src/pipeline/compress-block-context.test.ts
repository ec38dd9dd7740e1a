import type { ContentKind, KeepContext, KeepModel } from '@distil/contract';
import { DistilConfig } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { MemoryRestoreStore } from '../store/index.js';
import { compressBlock } from './compress-block.js';

const tiers = DistilConfig.parse({}).tiers;

/** A context-conditioned model: a line scores 1 when it names a word of the task, else 0. */
class TaskWordModel implements KeepModel {
  readonly id = 'task-words';
  readonly seen: (KeepContext | undefined)[] = [];
  scoreLines(lines: readonly string[], _kind: ContentKind, context?: KeepContext): Promise<Float32Array> {
    this.seen.push(context);
    const words = new Set((context?.task ?? '').split(/\W+/).filter((w) => w.length >= 4));
    return Promise.resolve(
      Float32Array.from(lines, (line) => (line.split(/\W+/).some((w) => words.has(w)) ? 1 : 0)),
    );
  }
}

const log = (): string => {
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) lines.push(`[INFO] Compiling module${i} (${i} source files) in ${i * 7} ms`);
  return `${lines.join('\n')}\n`;
};

describe('compressBlock with a keep context', () => {
  it('hands the context to the keep model, which decides among the undecided lines', async () => {
    const model = new TaskWordModel();
    const block = { id: 'b', role: 'tool' as const, kind: 'log' as const, text: log(), trusted: false };
    const context = { task: 'why does module57 build so slowly?', recent: ['ls build/'] };
    const plain = await compressBlock(block, { keepModel: model, store: new MemoryRestoreStore(), tiers });
    const told = await compressBlock(block, {
      keepModel: model,
      store: new MemoryRestoreStore(),
      tiers,
      context,
    });
    expect(model.seen).toContainEqual(context);
    expect(plain.text).not.toContain('Compiling module57 ');
    expect(told.text).toContain('Compiling module57 (57 source files)');
  });
});
