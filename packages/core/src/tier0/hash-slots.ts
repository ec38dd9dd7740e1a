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
