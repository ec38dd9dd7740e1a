import {
  HandleCollisionError,
  type KeepModel,
  type RestoreStore,
  UnknownHandleError,
} from '@distil/contract';
import { type PackedPuts, takesPacked } from '@distil/core';

/**
 * Why the proxy stood aside for a request, as the `x-distil-bypass` header and the
 * `distil_bypass_total` metric name it: `store` (the restore store failed: down, read-only, I/O error),
 * `store-full` (an original larger than the store takes), `keep-model` (the keep model threw),
 * `deep-json` (a body too deeply nested to walk), `transform` (any other failure in Distil's own code).
 */
export type BypassReason = 'store' | 'store-full' | 'keep-model' | 'deep-json' | 'transform';

/** A failure of one of Distil's own parts, tagged with the part, the original error kept as `cause`. */
export class PartFailure extends Error {
  constructor(
    readonly reason: BypassReason,
    cause: unknown,
  ) {
    super(`${reason} failed`, { cause });
    this.name = 'PartFailure';
  }
}

/** The reason to report for an error raised inside Distil's handling of a request. */
export function bypassReasonOf(error: unknown): BypassReason {
  if (error instanceof PartFailure) return error.reason;
  if (error instanceof RangeError && /call stack/i.test(error.message)) return 'deep-json';
  return 'transform';
}

/**
 * A content-free description of an error for the log: its class and system code, never its message
 * (a message can quote request text, a store path or a connection string).
 */
export function errorLabel(error: unknown): string {
  const inner = error instanceof PartFailure ? error.cause : error;
  if (!(inner instanceof Error)) return typeof inner;
  const code = (inner as { code?: unknown }).code;
  return typeof code === 'string' ? `${inner.name} ${code}` : inner.name;
}

/** Errors a store raises as answers (a handle it never issued, a short-handle collision): not failures. */
function isStoreAnswer(error: unknown): boolean {
  return error instanceof UnknownHandleError || error instanceof HandleCollisionError;
}

function storeFailure(error: unknown): unknown {
  if (isStoreAnswer(error)) return error;
  // Stores refuse an original larger than they may hold with a RangeError (disk and memory stores).
  return new PartFailure(error instanceof RangeError ? 'store-full' : 'store', error);
}

/**
 * The store with every failure tagged as the store's, so the request path can tell "the store is down
 * or full" from a bug and stand aside for the right reason. Unknown handles and collisions pass as they
 * are. After a failure (not a refused large original) the store is not asked again for `retryMs`: every
 * call fails at once with the same cause, so a Redis outage costs each request nothing rather than the
 * client's reconnect delays, and the first call after the pause finds out whether it is back.
 */
export function guardStore(store: RestoreStore, retryMs = 0): RestoreStore & Partial<PackedPuts> {
  let down: { until: number; cause: unknown } | null = null;
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    if (down && performance.now() < down.until) throw new PartFailure('store', down.cause);
    try {
      const result = await run();
      down = null;
      return result;
    } catch (error) {
      const failure = storeFailure(error);
      if (failure instanceof PartFailure && failure.reason === 'store' && retryMs > 0)
        down = { until: performance.now() + retryMs, cause: error };
      throw failure;
    }
  };
  return {
    put: (original) => call(() => store.put(original)),
    get: (handle) => call(() => store.get(handle)),
    has: (handle) => call(() => store.has(handle)),
    // the memory store also files originals a compress worker packed (see CompressPool)
    ...(takesPacked(store) && { putPacked: (packed) => call(() => store.putPacked(packed)) }),
  };
}

/** The keep model with every failure (thrown or rejected) tagged as the keep model's. */
export function guardKeepModel(model: KeepModel): KeepModel {
  return {
    id: model.id,
    ...(model.wholeBlock ? { wholeBlock: true } : {}),
    scoreLines: async (lines, kind, context) => {
      try {
        return await model.scoreLines(lines, kind, context);
      } catch (error) {
        throw new PartFailure('keep-model', error);
      }
    },
  };
}
