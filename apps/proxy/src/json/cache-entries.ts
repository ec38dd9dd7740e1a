/** What the request scan's caches (LiteralCache, SubtreeMemo) share: how they copy bytes and evict. */

/** An entry of a cache evicted by second chance: set on every hit, cleared when eviction passes it. */
export interface Recalled {
  used: boolean;
}

/**
 * Removes and returns the oldest entry of `order` (a Map in insertion order) not hit since eviction last
 * passed it; a hit one it passes goes to the back, cleared. This is the "clock" approximation of least
 * recently used: a hit only sets a flag, where moving each of a warm turn's ~120 hits to the back of its
 * map cost more than the lookups. A full turn clears every flag, so it always ends; undefined when `order`
 * is empty.
 */
export function evictOldest<K, E extends Recalled>(order: Map<K, E>): [K, E] | undefined {
  for (;;) {
    const oldest = order.entries().next().value;
    if (!oldest) return undefined;
    const [key, entry] = oldest;
    order.delete(key);
    if (!entry.used) return oldest;
    entry.used = false;
    order.set(key, entry);
  }
}

/**
 * Ranges at least this long that make up at least half of their body's memory are kept as views of it
 * rather than copied: a new conversation's request is mostly its one large tool result, and copying it
 * (once for the literal cache, once for the memo) touched fresh pages that cost ~15 µs each on a VM
 * (the proxy's event loop spent ~4 ms of a new 200 KB result on them). A view pins its whole body, at
 * most twice the bytes it counts; request bodies are never written after they are read.
 */
const VIEWED_BYTES = 64 * 1024;

/**
 * `raw[start, end)` in memory its entry may keep: a copy of its own, or for a range that is most of a
 * large body, a view of the body (see VIEWED_BYTES). `Buffer.from` would put a small copy in a slice of
 * Node's shared 8 KB pool, which a long-lived entry keeps alive whole, and zero-fills a large one first.
 */
export function ownBytes(raw: Buffer, start: number, end: number): Buffer {
  const length = end - start;
  if (length >= VIEWED_BYTES && length * 2 >= raw.buffer.byteLength) return raw.subarray(start, end);
  const bytes = Buffer.allocUnsafeSlow(length);
  raw.copy(bytes, 0, start, end);
  return bytes;
}
