import { Handle, type RestoreStore, UnknownHandleError } from '@distil/contract';

/**
 * Checks the shape of a handle that came from outside (a model's tool call, a command line) before any
 * lookup: a malformed one is answered as unknown without ever reaching the store, so no input can steer
 * a backend (a path, a key pattern) beyond the handle alphabet.
 */
export function parseHandle(handle: unknown): Handle {
  const parsed = Handle.safeParse(handle);
  if (!parsed.success) {
    throw new UnknownHandleError(
      typeof handle === 'string' ? handle : String(handle),
      'not a well-formed handle',
    );
  }
  return parsed.data;
}

/**
 * The original bytes behind `handle`, byte for byte. A malformed, unknown, forged, evicted or corrupt
 * handle raises UnknownHandleError — never a plausible answer.
 */
export async function expand(store: RestoreStore, handle: string): Promise<Uint8Array> {
  return store.get(parseHandle(handle));
}
