import type { ContentKind, Handle, RestoreStore } from '@distil/contract';
import { toolKind } from '../session/tool-kind.js';

/** Which originals the model read back, by content class; listeners see each read (content-free). */
export type ExpandListener = (kind: ContentKind) => void;

// Classifying reads only the start of an original: enough for the content detector, and bounded.
const CLASSIFY_CHARS = 64 * 1024;
const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * The store the proxy answers `distil_expand` / `distil_search` from, counting every original it serves
 * by content class (the same detector the proxy compresses with). The proxy uses this store for its
 * expand loop only — the session layer holds the plain one — so every `get` here is an original read back
 * for the model. A repeated search of one handle is answered from the search index cache without a read
 * and is not counted again.
 */
export function countingStore(store: RestoreStore, onExpand: ExpandListener): RestoreStore {
  return {
    put: (original: Uint8Array): Promise<Handle> => store.put(original),
    has: (handle: Handle): Promise<boolean> => store.has(handle),
    get: async (handle: Handle): Promise<Uint8Array> => {
      const bytes = await store.get(handle);
      onExpand(toolKind(decoder.decode(bytes.subarray(0, CLASSIFY_CHARS))));
      return bytes;
    },
  };
}
