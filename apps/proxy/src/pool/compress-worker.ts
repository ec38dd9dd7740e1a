/**
 * The compress worker: a worker thread of the proxy's compress pool (compress-pool.ts) that runs
 * `compressBlock` on one block at a time, off the proxy's event loop. It rebuilds the proxy's keep model
 * from its description, and puts originals in the proxy's disk store itself, or, for any other store,
 * compresses against a recording store (recording-store.ts) and answers the compressed block with the
 * originals for the proxy's thread to put. Built as its own entry (`dist/compress-worker.js`), so it
 * runs from the published package as from the sources.
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import { loadKeepModel } from '@distil/codec';
import type { Block, KeepModel, RestoreStore } from '@distil/contract';
import {
  type CompressedBlock,
  compressBlock,
  countTokens,
  DiskRestoreStore,
  packOriginal,
  useTokenTable,
} from '@distil/core';
import { errorLabel, guardKeepModel, guardStore, PartFailure } from '../fail-open/part-failure.js';
import {
  type AfterMessage,
  type CompressAnswer,
  type CompressTask,
  type CompressWorkerData,
  type PutAnswer,
  type PutTask,
  READY_CHECK,
  type ReadyAnswer,
  type WorkerFailure,
} from './compress-task.js';
import { RecordingStore } from './recording-store.js';
import { readSharedText } from './shared-text.js';
import { stagingStore } from './syncs-owed.js';

const { keepModel: description, tiers, tokenTable, diskStore } = workerData as CompressWorkerData;

// Counts with the proxy thread's token table, shared memory: a table of its own would be a second copy in
// every worker. Without one (the proxy's thread could not build it), the first count builds one here.
const sharedTokenTable = useTokenTable(tokenTable);

// The proxy's disk store, opened here too (its folder is already checked and swept): originals go to
// disk from this thread, so the proxy's event loop neither receives them nor runs their file operations
// (a new 200 KB result folds ~60 originals). This thread does nothing else while it puts them, so it puts
// with blocking calls, a third of the CPU of the promise API's round trips (see record-files.ts); the
// syncs still run behind. A store that will not open here leaves the originals to the proxy's thread,
// as for a memory store.
/**
 * This worker's side of the store: the disk store it opened (guarded, and as opened, for staged puts), or
 * why it did not (then it records).
 */
type WorkerStore =
  | { readonly disk: RestoreStore; readonly opened: DiskRestoreStore }
  | { readonly disk: null; readonly unopened?: string };

function openWorkerStore(): Promise<WorkerStore> {
  if (!diskStore) return Promise.resolve({ disk: null });
  return DiskRestoreStore.open({ ...diskStore, sweepOnOpen: false, blockingWrites: true }).then(
    (store) => ({ disk: guardStore(store), opened: store }),
    (error: unknown) => ({ disk: null, unopened: errorLabel(error) }),
  );
}

function failureOf(error: unknown): { readonly ok: false; readonly failure: WorkerFailure } {
  const reason = error instanceof PartFailure ? error.reason : undefined;
  const inner = error instanceof PartFailure ? error.cause : error;
  const name = inner instanceof Error ? inner.name : typeof inner;
  const message = inner instanceof Error ? inner.message : String(inner);
  const code = (inner as { code?: unknown } | null)?.code;
  return {
    ok: false,
    failure: { ...(reason ? { reason } : {}), name, message, ...(typeof code === 'string' ? { code } : {}) },
  };
}

/**
 * Before its first block, a worker compresses a generated log a few times and counts its tokens: the
 * pipeline's and the counter's hot functions are compiled by the optimising tier, as they are in the
 * proxy's thread after its first requests. A worker that met real blocks cold took about
 * twice as long on its first dozen 200 KB results.
 */
async function warmUp(model: KeepModel): Promise<void> {
  const lines = Array.from({ length: 1500 }, (_, i) =>
    i % 97 === 41
      ? `ERROR step ${i}: module_${i} failed: cannot resolve ./dep_${(i * 31) % 977}`
      : `INFO step ${i}: compiled src/module_${i}.ts in ${(i * 13) % 211} ms (${(i * 7919) % 100000} bytes)`,
  );
  const block = { id: 'warm-up', role: 'tool', kind: 'log', text: lines.join('\n'), trusted: false } as const;
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    const compressed = await compressBlock(block, { keepModel: model, store: new RecordingStore(), tiers });
    countTokens(block.text);
    countTokens(compressed.text);
  }
}

const WARM_UP_ROUNDS = 4;

/** Puts originals into the proxy's disk store (a PutTask: the pool sends it only when the store opened). */
async function putAll(task: PutTask, disk: RestoreStore | null): Promise<PutAnswer> {
  if (!disk) return failureOf(new Error('the disk store is not open in this worker'));
  try {
    await Promise.all(task.originals.map((original) => disk.put(original)));
    return { ok: true };
  } catch (error) {
    return failureOf(error);
  }
}

/**
 * Compresses one block (or, for the ready check, says that this worker is ready and how; for a PutTask,
 * puts its originals into the disk store).
 */
async function compress(
  keepModel: KeepModel,
  store: WorkerStore,
  task: CompressTask | PutTask | typeof READY_CHECK,
): Promise<CompressAnswer | ReadyAnswer | PutAnswer> {
  if (task !== READY_CHECK && 'originals' in task) return putAll(task, store.disk);
  if (task === READY_CHECK) {
    const unopened = 'unopened' in store ? store.unopened : undefined;
    return { ready: true, sharedTokenTable, ...(unopened !== undefined && { storeUnopened: unopened }) };
  }
  // first of all: the pool lends the text's buffer out again once this task is answered
  const block = task.text ? { ...task.block, text: readSharedText(task.text) } : task.block;
  const recording = store.disk ? null : new RecordingStore();
  const staging = task.stage && store.disk ? new StagedPuts(store.opened) : null;
  let compressed: CompressedBlock | null = null;
  try {
    compressed = await compressBlock(block, {
      keepModel,
      store: staging?.store ?? store.disk ?? recording!,
      tiers,
      ...(task.anchors ? { anchors: task.anchors } : {}),
      ...(task.context ? { context: task.context } : {}),
    });
    const puts = recording?.puts ?? [];
    if (task.pack && puts.length > 0) {
      const packed = await Promise.all(recording!.distinct().map(packOriginal));
      return { ok: true, compressed, puts: [], packed };
    }
    return { ok: true, compressed, puts, ...(staging && { staged: staging.handles }) };
  } catch (error) {
    compressed = null;
    return failureOf(error);
  } finally {
    // after the answer: the token counts and the syncs its staged records owe, said once on the port
    if (task.after) reportAfter(task.after, block, compressed, staging);
  }
}

/** Puts staged into the disk store for one task: the handles, and the syncs they owe. */
class StagedPuts {
  readonly handles: string[] = [];
  readonly #durable: Promise<void>[] = [];
  readonly store: RestoreStore;

  constructor(disk: DiskRestoreStore) {
    this.store = guardStore(
      stagingStore(disk, (handle, durable) => {
        this.handles.push(handle);
        this.#durable.push(durable);
      }),
    );
  }

  /** Settles with the first failed sync's code, or null once every sync is done. */
  synced(): Promise<string | null> {
    return Promise.all(this.#durable).then(
      () => null,
      (error: unknown) => errorLabel(error),
    );
  }
}

/**
 * Once the answer is posted (a later turn of the event loop), counts the block's tokens and its
 * compressed text's, which the savings read but the request upstream does not need (a 200 KB output
 * takes the tokenizer ~5 ms, a quarter of this thread's time for it), then waits for the staged records'
 * syncs, and posts both on `port` (an AfterMessage). A block sent as it was needs no count.
 */
function reportAfter(
  port: MessagePort,
  block: Block,
  compressed: CompressedBlock | null,
  staging: StagedPuts | null,
): void {
  setImmediate(() => {
    const tokens =
      compressed && compressed.tier !== 'none'
        ? { original: countTokens(block.text), compressed: countTokens(compressed.text) }
        : undefined;
    void (staging?.synced() ?? Promise.resolve(null)).then((failed) => {
      port.postMessage({ failed, ...(tokens && { tokens }) } satisfies AfterMessage);
      port.close();
    });
  });
}

/**
 * The worker's task handler, once the worker is prepared: its keep model loaded, with no fallback (the
 * proxy's thread already resolved its fallback, and a worker that cannot build the same model must not
 * compress with another one), its store opened and the warm-up run. Exported as a promise of the
 * handler, which piscina awaits before it says the worker is ready: a worker the pool adds under load
 * takes its first block warm, and until then a queued block goes to a warm worker once one is free.
 */
async function prepare(): Promise<(task: CompressTask | PutTask | typeof READY_CHECK) => Promise<unknown>> {
  const keepModel = await loadKeepModel(description).then(guardKeepModel);
  const store = await openWorkerStore();
  await warmUp(keepModel);
  return (task) => compress(keepModel, store, task);
}

export default prepare();
