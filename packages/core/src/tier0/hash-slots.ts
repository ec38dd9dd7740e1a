/**
 * The growth step of the open-addressing tables the template miner keeps (skeletons, line memo, token
 * ids, sequences): two parallel arrays, `ids` (an entry's id + 1; 0 marks an empty slot) and `hashes`,
 * probed linearly with a power-of-two mask. Each table probes inline on its hot path; only doubling,
 * which is rare and identical everywhere, lives here.
 */
export interface HashSlots {
  readonly ids: Int32Array<ArrayBuffer>;
  readonly hashes: Int32Array<ArrayBuffer>;
}

/** The slots in arrays twice as long, each entry re-placed by its hash. */
export function doubledSlots(ids: Int32Array, hashes: Int32Array): HashSlots {
  const grownIds = new Int32Array(ids.length * 2);
  const grownHashes = new Int32Array(ids.length * 2);
  const mask = grownIds.length - 1;
  for (let s = 0; s < ids.length; s++) {
    if (ids[s] === 0) continue;
    let to = hashes[s]! & mask;
    while (grownIds[to] !== 0) to = (to + 1) & mask;
    grownIds[to] = ids[s]!;
    grownHashes[to] = hashes[s]!;
  }
  return { ids: grownIds, hashes: grownHashes };
}

/** Slots a table starts with. */
const FIRST_SLOTS = 1024;
/** Slots kept for the next call at most (a table grown past this by one huge input is let go). */
const MAX_KEPT_SLOTS = 1 << 16;

/**
 * Slots handed from one call of the miner to the next. Made afresh, each table's two arrays were
 * off-heap allocations of a few kilobytes, which cost more than clearing them, and were regrown by
 * doubling on every call; taken back, they come cleared and at the size the last call grew them to.
 */
export class SpareSlots {
  private ids: Int32Array | null = null;
  private hashes: Int32Array | null = null;

  /** Empty slots, owned by the caller until {@link give} hands them back. */
  take(): { ids: Int32Array; hashes: Int32Array } {
    const { ids, hashes } = this;
    this.ids = this.hashes = null;
    if (ids === null || hashes === null) {
      return { ids: new Int32Array(FIRST_SLOTS), hashes: new Int32Array(FIRST_SLOTS) };
    }
    // Only `ids` needs clearing: a slot's hash is read only where its id is set.
    ids.fill(0);
    return { ids, hashes };
  }

  /** Keeps the slots for the next {@link take} (the caller must not use them after). */
  give(ids: Int32Array, hashes: Int32Array): void {
    if (ids.length > MAX_KEPT_SLOTS) return;
    this.ids = ids;
    this.hashes = hashes;
  }
}
