/**
 * A block's text handed to a compress worker through shared memory rather than in the task's message.
 * Posting a 200 KB string structured-clones it: V8 serialises it into a buffer it grows as it writes,
 * fresh memory every time, which cost the proxy's event loop ~0.6 ms per new 200 KB result here (a page
 * fault per 4 KB on a VM). Written as UTF-16 into a shared buffer the pool keeps, the same text costs
 * ~5–15 µs, and the worker makes its own string from it (off the event loop). UTF-16 code units are
 * copied as they are, lone surrogates too, so the worker's text is the block's exactly.
 */
export interface SharedText {
  readonly buffer: SharedArrayBuffer;
  /** The text's length in UTF-16 code units (its first `2 × units` bytes, little-endian). */
  readonly units: number;
}

/** A new buffer is at least this big (and a power of two), so that one serves many results. */
const MIN_BYTES = 256 * 1024;
/**
 * Buffers kept for reuse (at most 4 MB in all): a result rarely comes while another is with a worker,
 * and a buffer past the few kept is simply made anew.
 */
const MAX_KEPT = 2;
/** A buffer bigger than this (a text over 1 M units) is used once and left to the GC. */
const MAX_KEPT_BYTES = 2 * 1024 * 1024;

/** The shared buffers of one pool: lent out with a text, given back once the worker answered. */
export class SharedTexts {
  readonly #free: SharedArrayBuffer[] = [];

  /** `text` written into a free buffer that holds it, or a new one. */
  lend(text: string): SharedText {
    const bytes = text.length * 2;
    let buffer: SharedArrayBuffer | undefined;
    let pick = -1;
    for (let k = 0; k < this.#free.length; k++) {
      const free = this.#free[k]!;
      if (free.byteLength >= bytes && (pick < 0 || free.byteLength < this.#free[pick]!.byteLength)) pick = k;
    }
    if (pick >= 0) buffer = this.#free.splice(pick, 1)[0]!;
    else buffer = new SharedArrayBuffer(Math.max(MIN_BYTES, 2 ** Math.ceil(Math.log2(Math.max(1, bytes)))));
    Buffer.from(buffer, 0, bytes).write(text, 0, 'utf16le');
    return { buffer, units: text.length };
  }

  /** Takes a lent buffer back: its worker has read it (it reads before it answers, see readSharedText). */
  giveBack(shared: SharedText): void {
    if (this.#free.length < MAX_KEPT && shared.buffer.byteLength <= MAX_KEPT_BYTES)
      this.#free.push(shared.buffer);
  }
}

/** The text a SharedText holds, as a string of its own (the worker reads it before anything else). */
export function readSharedText(shared: SharedText): string {
  return Buffer.from(shared.buffer, 0, shared.units * 2).toString('utf16le');
}
