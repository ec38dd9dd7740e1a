import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SalienceKeepModel } from '@distil/codec';
import { TierConfig } from '@distil/contract';
import { expect, it } from 'vitest';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { pipelineCompressor } from './block-compressor.js';
import { Session } from './session.js';

// A full collection on demand: the flag makes `gc` a global of every context made after it.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Lets the current job end: a WeakRef's target stays alive until then, whatever else holds it. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

it('holds no turn it answered once the caller lets go of it', async () => {
  const store = new MemoryRestoreStore();
  const compress = pipelineCompressor({
    keepModel: new SalienceKeepModel(),
    store,
    tiers: TierConfig.parse({}),
  });
  const session = new Session({ compress, store });
  const text = Array.from({ length: 200 }, (_, i) => `step ${i}: compiled module_${i}`).join('\n');
  let turn: WeakRef<object> | undefined;
  await (async () => {
    turn = new WeakRef(await session.addTurn([{ id: 'b', role: 'tool', kind: 'log', text, trusted: false }]));
  })();
  await nextTask();
  collect();
  // the turn's texts are the session's business only through the blocks it keeps, not the turn itself
  expect(turn!.deref()).toBeUndefined();
  // and the queue still serialises the next turn
  await expect(session.addTurn([])).resolves.toMatchObject({ turn: 1 });
});
