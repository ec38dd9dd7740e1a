/**
 * Two different runs of log lines whose handles collide: the first 48 bits of their SHA-256 digests are
 * equal (both `dh_fc800302ad79`), the full digests are not. A handle holds only 48 bits, so a collision
 * costs about 2^24 hashes — an attacker who can predict what Distil will fold can afford one, and the
 * store must refuse it (HandleCollisionError) rather than ever answer an expand with the wrong bytes.
 *
 * The pair was found once, offline, with Pollard's rho and Brent's cycle detection (R. P. Brent, "An
 * improved Monte Carlo factorization algorithm", BIT 20, 1980) over the map x ↦ first 48 bits of
 * sha256(collidingRun(x)): about 10^8 SHA-256 evaluations, minutes of one core. The battery checks that
 * the pair still collides before it relies on it.
 */
export const COLLIDING_SEEDS: readonly [bigint, bigint] = Object.freeze([
  0xb3f2c91ef69bn,
  0xdfb9cd0fc4adn,
]) as readonly [bigint, bigint];

/** The short handle both colliding runs map to. */
export const COLLIDING_HANDLE = 'dh_fc800302ad79';

/**
 * The run of 24 heartbeat lines that seed `x` (48 bits, two per line) stands for. Lines like these are
 * plain noise to every keep policy, so between eight head and twelve tail lines the whole run — exactly
 * these bytes — is folded behind one stub.
 */
export function collidingRun(x: bigint): string {
  let run = '';
  for (let i = 0; i < 24; i++) {
    const depth = Number((x >> BigInt(2 * i)) & 3n);
    run += `[INFO] heartbeat ${i + 1}: queue depth ${depth}, all workers idle\n`;
  }
  return run;
}

/** A block whose only fold is `collidingRun(x)`: eight head lines, the run, twelve tail lines. */
export function collidingBlock(x: bigint, tag: string, error: string): string {
  const head = Array.from({ length: 8 }, (_, i) => `[INFO] ${tag} sync pass ${i} started\n`).join('');
  const tail = Array.from({ length: 11 }, (_, i) => `[INFO] ${tag} sync pass ${i} finished\n`).join('');
  return `${head}${collidingRun(x)}${tail}${error}\n`;
}
