import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { type Block, HandleCollisionError, type KeepModelConfig, type TierConfig } from '@distil/contract';
import {
  type CompressedBlock,
  type CompressOptions,
  compressBlock,
  type DiskRestoreStoreOptions,
  sharedTokenTable,
  takesPacked,
} from '@distil/core';
import { Piscina } from 'piscina';
import { errorLabel, PartFailure } from '../fail-open/part-failure.js';
import { rememberBlockTokens } from './block-tokens.js';
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
import { SharedTexts } from './shared-text.js';
import type { SyncsOwed } from './syncs-owed.js';
import { compressWorkerScript, type WorkerScript } from './worker-script.js';

/**
 * Blocks shorter than this many characters are compressed in the proxy's own thread: below it the round
 * trip to a worker (structured clone both ways, the queue, the originals put back) costs more than the
 * compression (`pnpm bench:proxy --concurrency` and the measurement in the README).
 */
export const IN_THREAD_BELOW_CHARS = 16 * 1024;

/**
 * Compress workers when the config names none: one fewer than the cores, so the proxy's own thread
 * keeps a core for the requests it relays (on one core: none, compression stays in-thread).
 */
export function defaultCompressWorkers(): number {
  return Math.max(0, availableParallelism() - 1);
}

/**
 * How long a worker may go without a block before it exits. Each worker holds its own heap and code
 * (~35 MB resident, `pnpm bench:proxy --concurrency`'s idle line, given back when it exits), so a proxy
 * on a 16-core machine kept 15 of them, half a gigabyte, for blocks that mostly come one at a time, and
 * an idle one kept its worker however long it idled. Not much shorter: a worker started afresh digests
 * its first real logs about a third slower than one that has compressed for a while (its warm-up log
 * compiles the pipeline, not every path real logs take), so an agent's pauses should not restart it.
 */
export const IDLE_WORKER_MS = 5 * 60_000;

/** How to start a compress pool. */
export interface CompressPoolOptions {
  /**
   * Most worker threads (0: none, every block is compressed in-thread). One starts with the pool; more
   * are added while blocks wait for a worker. Each exits after `idleWorkerMs` without a block, and once
   * none is left the next large block is compressed in-thread while it starts one again.
   */
  readonly size: number;
  /** How long a worker stays without a block (default IDLE_WORKER_MS). */
  readonly idleWorkerMs?: number;
  /** The keep model the workers rebuild: the one the proxy's thread loaded, by its config. */
  readonly keepModel: KeepModelConfig;
  readonly tiers: TierConfig;
  /** Blocks shorter than this stay in-thread (default IN_THREAD_BELOW_CHARS). */
  readonly inThreadBelowChars?: number;
  /** The worker's file (default: found beside this module, see compressWorkerScript). */
  readonly script?: WorkerScript;
  /** The disk store the proxy opened from its config, for the workers to put originals in themselves. */
  readonly diskStore?: DiskRestoreStoreOptions;
  /**
   * Where the syncs of records a worker staged in that disk store are owed (then a worker answers once
   * its records are in place, before they are fsynced). Without it a worker's puts are whole.
   */
  readonly syncs?: SyncsOwed;
  /** Where the one line saying why the pool is not used goes. */
  readonly log: (line: string) => void;
}

/**
 * The o200k table the workers count with: this thread's, built now if no count built it yet (one table
 * per process, shared by reference, instead of one per thread). None when it cannot be built here: each
 * worker then tries its own, as this thread will on its first count.
 */
function tokenTableForWorkers(): { readonly tokenTable?: SharedArrayBuffer } {
  try {
    return { tokenTable: sharedTokenTable() };
  } catch {
    return {};
  }
}

/** The pool's workers: what they are asked (compress-worker.ts) and what they answer. */
type WorkerPool = Piscina<
  CompressTask | PutTask | typeof READY_CHECK,
  CompressAnswer | ReadyAnswer | PutAnswer
>;

/** A rebuilt error for what compression raised in a worker: the same part, class and code. */
function errorOf(failure: WorkerFailure): unknown {
  const inner = failure.name === 'RangeError' ? new RangeError(failure.message) : new Error(failure.message);
  if (inner.name !== failure.name) Object.defineProperty(inner, 'name', { value: failure.name });
  if (failure.code !== undefined) Object.assign(inner, { code: failure.code });
  return failure.reason ? new PartFailure(failure.reason, inner) : inner;
}

/**
 * What the worker posts on `port` after its answer, or null when the port closes first (the worker
 * died) or it says nothing for SYNC_WAIT_MS.
 */
function afterOn(port: MessagePort): Promise<AfterMessage | null> {
  return new Promise<AfterMessage | null>((resolve) => {
    // a reply is never held longer than this for a worker that stopped answering
    const late = setTimeout(() => {
      resolve(null);
      port.close();
    }, SYNC_WAIT_MS);
    late.unref();
    port.once('message', (message: AfterMessage) => {
      clearTimeout(late);
      resolve(message);
      port.close();
    });
    port.once('close', () => {
      clearTimeout(late);
      resolve(null);
    });
  });
}

/** The longest a reply waits for a worker to say what it did after its answer (milliseconds, normally). */
const SYNC_WAIT_MS = 10_000;

/**
 * Compression of new blocks off the event loop, in a pool of worker threads (piscina: a kept-up pool
 * with a task queue, worker restarts and clean shutdown; nothing here needs more than `run`).
 *
 * A disk store the proxy opened from its config is opened by each worker too, and a worker puts its
 * originals there itself (the folder is safe to share: every put is atomic and checks collisions on
 * disk). Any other store stays in this thread: a worker compresses against a recording store and answers
 * the compressed block with every original it stored (for the memory store, already hashed and deflated
 * as that store holds them, so this thread only files them); handles are content-addressed (a hash of the
 * original), so the handles in the worker's text are the ones the real store gives, and the originals
 * are put into the real store here, in the order compression stored them, before the block is used. The
 * one case such a worker cannot see — a short-handle collision with an original already in the real
 * store — sends the block back to be compressed here, where the store refuses it as it always did.
 * Either way a store that fails fails the block exactly as compressing in-thread does (`PartFailure`
 * 'store': the request goes upstream untouched), and the result is byte-identical to `compressBlock` in
 * this thread: the same function on the same block, anchors, context, tiers and keep model (rebuilt from
 * its config).
 *
 * Until the first worker answers, while a worker fails, and for short blocks, blocks are
 * compressed in-thread; when the pool cannot start, or a worker dies, one line says why and the proxy
 * compresses in-thread from then on.
 */
export class CompressPool {
  readonly #pool: WorkerPool | null;
  readonly #below: number;
  readonly #log: (line: string) => void;
  readonly #syncs: SyncsOwed | null;
  #state: 'starting' | 'ready' | 'in-thread' = 'starting';
  /** Workers ready to take a block (piscina's `workerCreate` until its `workerDestroy`). */
  readonly #live = new Set<unknown>();
  /** The ready check that starts a worker when none is left, while it runs. */
  #waking: Promise<unknown> | null = null;
  /** Settles `ready` when the pool is given up on before its first worker answered. */
  #settleReady: () => void = () => {};
  /** The workers' shutdown, once the pool is given up on or closed. */
  #stopped: Promise<void> | null = null;
  /**
   * Whether the first worker opened the proxy's disk store (then putInDiskStore goes to the workers; a
   * worker added later that could not answers an error, and the caller puts the originals itself).
   */
  #workersWriteDisk = false;
  /** Where block texts go to the workers (see shared-text.ts). */
  readonly #texts = new SharedTexts();
  /** Resolves once the pool is ready or given up on (for startup and tests; compress never waits). */
  ready: Promise<void> = Promise.resolve();

  constructor(options: CompressPoolOptions) {
    this.#below = options.inThreadBelowChars ?? IN_THREAD_BELOW_CHARS;
    this.#log = options.log;
    this.#syncs = options.syncs ?? null;
    this.#pool = options.size > 0 ? this.#start(options) : null;
    if (!this.#pool) this.#state = 'in-thread';
  }

  /** `ready` once the first worker answered, `in-thread` when there are none (or they could not start). */
  get state(): 'starting' | 'ready' | 'in-thread' {
    return this.#state;
  }

  #start(options: CompressPoolOptions): WorkerPool | null {
    const script = options.script ?? compressWorkerScript();
    if (!script) {
      this.#giveUp('the compress worker script is not beside the proxy code');
      return null;
    }
    let pool: WorkerPool;
    try {
      const workerData: CompressWorkerData = {
        keepModel: options.keepModel,
        tiers: options.tiers,
        ...tokenTableForWorkers(),
        ...(options.diskStore && { diskStore: options.diskStore }),
      };
      pool = new Piscina({
        filename: script.filename,
        ...(script.execArgv && { execArgv: [...script.execArgv] }),
        // Workers are started by the blocks that need them (the first by the ready check below, more
        // while blocks wait) and leave after idleTimeout without one; each loads its keep model and warms
        // up before it takes a block (compress-worker.ts).
        minThreads: 0,
        maxThreads: options.size,
        idleTimeout: options.idleWorkerMs ?? IDLE_WORKER_MS,
        recordTiming: false,
        // A worker's event loop runs between tasks: the syncs of the records it staged finish after it
        // answered (piscina's default parks an idle worker in Atomics.wait, which stops them until the
        // next task). The message round trip this costs is microseconds against a block's milliseconds.
        atomics: 'disabled',
        // A worker's garbage is short-lived buffers of one block; a small young generation holds less
        // of it resident (measured ~25 MB less after twenty 200 KB blocks, at the same speed).
        resourceLimits: { maxYoungGenerationSizeMb: 8 },
        workerData,
      });
    } catch (error) {
      this.#giveUp(`the compress workers did not start (${errorLabel(error)})`);
      return null;
    }
    pool.on('error', (error: unknown) =>
      this.#giveUp(
        this.#state === 'starting'
          ? `the compress workers did not start (${errorLabel(error)})`
          : `a compress worker failed (${errorLabel(error)})`,
      ),
    );
    pool.on('workerCreate', (worker: unknown) => this.#live.add(worker));
    pool.on('workerDestroy', (worker: unknown) => this.#live.delete(worker));
    // The first worker answers the ready check once it has loaded its keep model and warmed up; a
    // worker that fails as it loads answers nothing (piscina reports the failure and keeps the check
    // queued), so giving up settles `ready` too.
    const gaveUp = new Promise<void>((resolve) => {
      this.#settleReady = resolve;
    });
    const checked = pool.run(READY_CHECK).then(
      (answer) => {
        if (this.#state !== 'starting' || !('ready' in answer)) return;
        this.#state = 'ready';
        this.#log(
          options.size === 1
            ? '1 compress worker ready'
            : `1 compress worker ready (up to ${options.size} while blocks wait)`,
        );
        if (!answer.sharedTokenTable)
          this.#log('the compress workers count tokens with tables of their own (none was shared)');
        if (answer.storeUnopened)
          this.#log(
            `the disk store did not open in a compress worker (${answer.storeUnopened}): its originals are put from the proxy's thread`,
          );
        this.#workersWriteDisk = options.diskStore !== undefined && !answer.storeUnopened;
      },
      (error: unknown) => this.#giveUp(`the compress workers did not start (${errorLabel(error)})`),
    );
    this.ready = Promise.race([checked, gaveUp]);
    return pool;
  }

  /** From now on every block is compressed in-thread; the workers are stopped (their memory freed). */
  #giveUp(why: string): void {
    if (this.#state === 'in-thread') return;
    this.#state = 'in-thread';
    this.#log(`${why}: compressing in the proxy's thread`);
    this.#settleReady();
    // tasks still queued (a ready check no worker will answer) are refused, and fall back in-thread
    this.#stopped ??= this.#pool?.destroy().catch(() => {}) ?? null;
  }

  /**
   * `compressBlock(block, options)`, in a worker when the pool is ready and the block is large. The
   * worker uses the keep model and tiers the pool was started with: the ones `options` names.
   */
  async compress(block: Block, options: CompressOptions): Promise<CompressedBlock> {
    const pool = this.#pool;
    if (!pool || this.#state !== 'ready' || block.text.length < this.#below || options.depth === 'lossless')
      return compressBlock(block, options);
    if (this.#live.size === 0) {
      // every worker left while the proxy idled: this block here, and one started for the next
      this.#wake(pool);
      return compressBlock(block, options);
    }
    const store = options.store;
    // the worker answers with the compressed block, and says on this port what it did after (see `after`)
    const channel = new MessageChannel();
    const text = this.#texts.lend(block.text);
    let answer: CompressAnswer | ReadyAnswer | PutAnswer;
    try {
      answer = await pool.run(
        {
          block: { ...block, text: '' },
          text,
          ...(options.anchors ? { anchors: options.anchors } : {}),
          ...(options.context ? { context: options.context } : {}),
          ...(takesPacked(store) && { pack: true }),
          after: channel.port2,
          ...(this.#workersWriteDisk && this.#syncs && { stage: true }),
        },
        { transferList: [channel.port2] },
      );
    } catch (error) {
      channel.port1.close();
      this.#giveUp(`a compress worker failed (${errorLabel(error)})`);
      return compressBlock(block, options);
    } finally {
      this.#texts.giveBack(text);
    }
    if ('compressed' in answer) this.#after(block, answer.compressed, answer.staged ?? [], channel.port1);
    else channel.port1.close();
    if ('ready' in answer) return compressBlock(block, options);
    if (!answer.ok) throw errorOf(answer.failure);
    // (a compress task is answered with a compressed block; this only narrows the type)
    if (!('compressed' in answer)) return compressBlock(block, options);
    const { puts, packed } = answer;
    // All at once, as compression itself stores a block's folds (started in the order it stored them).
    let handles: string[];
    try {
      handles = await Promise.all(
        packed && takesPacked(store)
          ? packed.map((original) => store.putPacked(original))
          : puts.map((put) => store.put(put.original)),
      );
    } catch (error) {
      if (error instanceof HandleCollisionError) return compressBlock(block, options);
      throw error;
    }
    if (!packed && handles.some((handle, k) => handle !== puts[k]!.handle)) {
      this.#giveUp('the restore store does not address originals by their hash');
      return compressBlock(block, options);
    }
    return answer.compressed;
  }

  /**
   * What the worker does after its answer: the block's token counts (the savings wait for them, this
   * thread does not count the block again) and the syncs of the records it staged (owed in `syncs`).
   */
  #after(block: Block, compressed: CompressedBlock, staged: readonly string[], port: MessagePort): void {
    const after = afterOn(port);
    if (compressed.tier !== 'none')
      rememberBlockTokens(
        block,
        after.then((message) =>
          message?.tokens
            ? {
                original: message.tokens.original,
                compressedText: compressed.text,
                compressed: message.tokens.compressed,
              }
            : null,
        ),
      );
    if (staged.length > 0 && this.#syncs) {
      const synced = after.then((message) => {
        if (message === null)
          throw Object.assign(new Error('the compress worker did not say its syncs were done'), {
            code: 'ERR_WORKER_SILENT',
          });
        if (message.failed !== null)
          throw Object.assign(new Error('a sync failed in a compress worker'), { code: message.failed });
      });
      for (const handle of staged) this.#syncs.owe(handle, synced);
    }
  }

  /**
   * Puts `originals` into the proxy's disk store from a worker, off this thread, where each would cost
   * ~0.5 ms of it (a temp file, fsyncs, a link): a request's handle grants, a record per new handle. Null
   * when the workers do not write that store (none, not ready, or it did not open in them): the caller
   * puts the originals itself, as it does while blocks wait for a worker (the puts would wait behind
   * them). A worker that fails answers the put's error; one that dies, its own.
   */
  putInDiskStore(originals: readonly Uint8Array[]): Promise<void> | null {
    const pool = this.#pool;
    if (
      !pool ||
      this.#state !== 'ready' ||
      !this.#workersWriteDisk ||
      pool.queueSize > 0 ||
      this.#live.size === 0
    )
      return null;
    return pool.run({ originals }).then((answer) => {
      if ('ok' in answer && !answer.ok) throw errorOf(answer.failure);
    });
  }

  /** Starts a worker with a ready check, unless one is starting already. */
  #wake(pool: WorkerPool): void {
    this.#waking ??= pool.run(READY_CHECK).then(
      () => {
        this.#waking = null;
      },
      (error: unknown) => this.#giveUp(`a compress worker did not start (${errorLabel(error)})`),
    );
  }

  /** Worker threads running or starting now (none once idle, up to the pool's size under load). */
  get threads(): number {
    return this.#pool?.threads.length ?? 0;
  }

  /** Stops the workers (tasks in flight are answered first). */
  async close(): Promise<void> {
    this.#state = 'in-thread';
    this.#settleReady();
    this.#stopped ??= this.#pool?.close().catch(() => {}) ?? null;
    await this.#stopped;
  }
}
