import {
  addressOf,
  type Handle,
  HandleCollisionError,
  type RestoreStore,
  UnknownHandleError,
} from '@distil/contract';

/** One original a compression stored, in the order it was stored, with the handle the store gave it. */
export interface RecordedPut {
  readonly handle: Handle;
  readonly original: Uint8Array;
}

/**
 * The restore store a compress worker hands to `compressBlock`: it answers every `put` as a content-
 * addressed store does (the handle is a hash of the bytes, so it is the handle the proxy's real store
 * will give) and records the originals, for the proxy's thread to put into the real store in the same
 * order. Like the memory store it refuses two originals under one short handle; a collision with what
 * the real store already holds only the real store can see (the proxy's thread then compresses the block
 * itself). Compression never reads the store back, so `get` and `has` answer only what was recorded.
 */
export class RecordingStore implements RestoreStore {
  readonly puts: RecordedPut[] = [];
  readonly #digests = new Map<Handle, { digest: string; original: Uint8Array }>();

  async put(original: Uint8Array): Promise<Handle> {
    const { handle, digest } = addressOf(original);
    const known = this.#digests.get(handle);
    if (known) {
      if (known.digest !== digest) throw new HandleCollisionError(handle);
    } else this.#digests.set(handle, { digest, original });
    // every put is recorded, repeats included: the real store sees the calls compression made
    this.puts.push({ handle, original });
    return handle;
  }

  /** Each original recorded once, in the order first stored. */
  distinct(): Uint8Array[] {
    return [...this.#digests.values()].map((known) => known.original);
  }

  async get(handle: Handle): Promise<Uint8Array> {
    const known = this.#digests.get(handle);
    if (!known) throw new UnknownHandleError(handle, 'not stored by this compression');
    return known.original;
  }

  async has(handle: Handle): Promise<boolean> {
    return this.#digests.has(handle);
  }
}
