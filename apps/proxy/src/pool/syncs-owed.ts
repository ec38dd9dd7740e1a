import type { RestoreStore } from '@distil/contract';
import type { StagedPut } from '@distil/core';

/** A store whose puts come in two steps (the disk store: see DiskRestoreStore.stage). */
export interface StagingStore extends RestoreStore {
  stage(original: Uint8Array): Promise<StagedPut>;
}

/** Whether `store` can put in two steps. */
export function stagesPuts(store: RestoreStore): store is StagingStore {
  return typeof (store as Partial<StagingStore>).stage === 'function';
}

/**
 * The fsyncs the disk store still owes for records the proxy put, by handle. A handle is only of use to
 * someone who has read it, and nobody reads it before the reply to the request that carries it: the
 * expand loop, the agent and any other process see a handle once the upstream answered. So a new
 * original is put in place before its request goes upstream (its name taken, a collision refused, its
 * bytes readable), its syncs run while the model reads the request, and the reply waits for them
 * (`syncedFor`) before any of it is read. Against the disk store that took ~60 fsyncs off the request's
 * path for a 200 KB log folding 30 originals (`pnpm bench:proxy --concurrency`).
 *
 * A sync that fails (an I/O error under a full or failing disk) is logged and then owed no longer: the
 * record is in place and reads back while the machine runs, and the reply is not held for a durability
 * the disk cannot give.
 */
export class SyncsOwed {
  readonly #owed = new Map<string, Promise<void>>();
  /** Each owed promise, its failure logged. */
  readonly #settled = new WeakMap<Promise<void>, Promise<void>>();
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Records that `handle`'s record is durable once `durable` settles (one promise may cover several). */
  owe(handle: string, durable: Promise<void>): void {
    const earlier = this.#owed.get(handle);
    let settled = this.#settled.get(durable);
    if (!settled) {
      // logged once per promise: a worker's one promise covers the ~30 records of a block
      settled = durable.catch((error: unknown) => {
        this.#log(
          `a record's fsync was not confirmed (${errorCode(error)}): ${handle} and the records put with it read back until the machine restarts`,
        );
      });
      this.#settled.set(durable, settled);
    }
    const owed = earlier ? Promise.all([earlier, settled]).then(() => {}) : settled;
    this.#owed.set(handle, owed);
    void owed.then(() => {
      if (this.#owed.get(handle) === owed) this.#owed.delete(handle);
    });
  }

  /** Settles once every record named in `handles` is durable (at once when none is owed). Never rejects. */
  syncedFor(handles: Iterable<string>): Promise<void> {
    if (this.#owed.size === 0) return SETTLED;
    const waits: Promise<void>[] = [];
    for (const handle of handles) {
      const owed = this.#owed.get(handle);
      if (owed) waits.push(owed);
    }
    return waits.length > 0 ? Promise.all(waits).then(() => {}) : SETTLED;
  }

  /** Handles whose records are still owed a sync. */
  get size(): number {
    return this.#owed.size;
  }

  /** `store` with puts that return once the record is in place, its syncs owed here. */
  staging(store: StagingStore): RestoreStore {
    return stagingStore(store, (handle, durable) => this.owe(handle, durable));
  }
}

/**
 * `store` as a RestoreStore whose `put` returns once the record is in place, handing each record's
 * handle and syncs to `onStaged` (the proxy's thread owes them in SyncsOwed; a compress worker reports
 * them to it after its answer).
 */
export function stagingStore(
  store: StagingStore,
  onStaged: (handle: string, durable: Promise<void>) => void,
): RestoreStore {
  return {
    put: async (original) => {
      const { handle, durable } = await store.stage(original);
      onStaged(handle, durable);
      return handle;
    },
    get: (handle) => store.get(handle),
    has: (handle) => store.has(handle),
  };
}

const SETTLED: Promise<void> = Promise.resolve();

/**
 * A failed sync's system code (EIO, ENOSPC; a worker that stopped answering has one of its own), else
 * its class: never its message, which can name a store path.
 */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'error';
}
