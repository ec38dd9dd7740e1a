/**
 * The dataset's only source of randomness: a seeded sfc32 generator.
 *
 * Why not a library: the generator must give the same bytes on every machine and every Node release for
 * as long as the committed corpus lives, so it is pinned here in a few lines rather than behind a version
 * range. sfc32 is Chris Doty-Humphrey's "Small Fast Counting" generator from PractRand (32-bit variant);
 * its 128-bit state is filled from a string key with FNV-1a followed by the splitmix32 finaliser, so every
 * file draws from its own stream and adding a file never changes the bytes of another.
 */

/** FNV-1a, 32-bit (Fowler–Noll–Vo), over the UTF-16 code units of a key. */
function fnv1a32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** splitmix32 finaliser: spreads one 32-bit seed into well-mixed state words. */
function splitmix32(state: number): [next: number, out: number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [next, (z ^ (z >>> 16)) >>> 0];
}

const HEX = '0123456789abcdef';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A deterministic random stream with the draws the generators need. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private readonly seed: number;
  private readonly key: string;

  private constructor(seed: number, key: string, a: number, b: number, c: number, d: number) {
    this.seed = seed;
    this.key = key;
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    // Discard the first outputs: sfc32's authors advise a short warm-up so nearby seeds decorrelate.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A stream named by `seed` and a key such as `pytest/3`; the same pair always gives the same stream. */
  static fromKey(seed: number, key: string): Rng {
    let s = (fnv1a32(`${seed}:${key}`) ^ seed) | 0;
    const words: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [next, out] = splitmix32(s);
      s = next;
      words.push(out);
    }
    return new Rng(seed, key, words[0]!, words[1]!, words[2]!, words[3]!);
  }

  /** A child stream for a sub-part, independent of how many draws the parent has made. */
  fork(key: string): Rng {
    return Rng.fromKey(this.seed, `${this.key}/${key}`);
  }

  /** The next 32-bit unsigned integer (sfc32 step). */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One element, chosen with the given relative weights. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  /** `n` distinct elements in random order (all of them when n exceeds the list). */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.min(n, items.length));
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i]!;
      out[i] = out[j]!;
      out[j] = tmp;
    }
    return out;
  }

  /** A log-normal draw around `median` (spread 0 gives the median): durations, sizes, counts. */
  logNormal(median: number, spread: number): number {
    // Box–Muller transform; 1 - next() keeps the log argument away from zero.
    const u = 1 - this.next();
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(z * spread);
  }

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[this.nextUint32() & 15];
    return s;
  }

  /** `n` characters of [a-z0-9], as in Kubernetes pod-name suffixes. */
  alnum(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += ALNUM[this.nextUint32() % ALNUM.length];
    return s;
  }

  /** A version-4 UUID. */
  uuid(): string {
    const variant = HEX[8 + (this.nextUint32() & 3)];
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }
}
