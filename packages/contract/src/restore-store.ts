import type { Handle } from './handle.js';

/**
 * Where folded originals live. Content-addressed: `put` of the same bytes always returns the same handle,
 * in any process. `get` is byte-exact and verifies the full digest; an unknown or forged handle raises
 * UnknownHandleError, never a plausible answer.
 */
export interface RestoreStore {
  /** Stores `original` (idempotent) and returns its handle. */
  put(original: Uint8Array): Promise<Handle>;
  /** The original bytes; UnknownHandleError when the handle was never issued by this store. */
  get(handle: Handle): Promise<Uint8Array>;
  /** Whether `get` would succeed. */
  has(handle: Handle): Promise<boolean>;
}
