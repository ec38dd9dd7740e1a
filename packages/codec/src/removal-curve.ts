/**
 * Share of a set's cost (tokens or characters) removed when lines are removed least likely needed first
 * while `recall` of the needed lines stays. Lines of equal score go together: a threshold cannot split
 * them. The figure `pnpm bench:keep` and `distil train` report for keep models on recorded sessions.
 */
export function removedAtRecall(
  scores: ArrayLike<number>,
  needed: ArrayLike<number>,
  cost: ArrayLike<number>,
  recall: number,
  picked: readonly number[] = Array.from({ length: scores.length }, (_, i) => i),
): number {
  const order = [...picked].sort((a, b) => scores[a]! - scores[b]!);
  let neededCount = 0;
  let total = 0;
  for (const r of picked) {
    neededCount += needed[r]!;
    total += cost[r]!;
  }
  const mayLose = Math.floor(neededCount * (1 - recall));
  let lost = 0;
  let removed = 0;
  let best = 0;
  for (let i = 0; i < order.length; i++) {
    const r = order[i]!;
    lost += needed[r]!;
    if (lost > mayLose) break;
    removed += cost[r]!;
    if (i + 1 === order.length || scores[order[i + 1]!] !== scores[r]) best = removed;
  }
  return total === 0 ? 0 : best / total;
}

/** ROC-AUC of `scores` for the needed lines: the chance a needed line outscores an unneeded one. */
export function rocAuc(scores: ArrayLike<number>, needed: ArrayLike<number>): number {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let positives = 0;
  let rankSum = 0;
  // average ranks over ties, 1-based
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && scores[order[j + 1]!] === scores[order[i]!]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (needed[order[k]!]) {
        positives++;
        rankSum += rank;
      }
    }
    i = j + 1;
  }
  const negatives = order.length - positives;
  if (positives === 0 || negatives === 0) return 0.5;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
