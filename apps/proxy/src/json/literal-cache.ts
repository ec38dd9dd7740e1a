import { evictOldest, ownBytes, type Recalled } from './cache-entries.js';
import { type DecodedLiteral, decodeLiteral } from './json-literal.js';
import type { LiteralDecoder } from './json-scan.js';

interface Entry extends DecodedLiteral, Recalled {
  readonly bytes: Buffer;
}

interface Encoded extends Recalled {
  readonly bytes: Buffer;
}

/** Literals and texts shorter than this are cheap to redo and not remembered. */
const MIN_CACHED_BYTES = 256;

/**
 * The long strings of recent requests, both ways: literal bytes → decoded text, and text → its JSON
 * bytes. An agent resends its whole history every turn, so almost every tool result in a request is one
 * the proxy decoded a turn ago, and almost every rewritten text one it encoded: the steady state of a
 * 200 KB conversation spent ~0.1 ms decoding and ~0.08 ms encoding them again per request here, and made
 * as much garbage. A hit is found by length and a sample of bytes, then confirmed by comparing every byte
 * (a memcmp), so a hit is always exact. A hit also hands back the very string object the session holds,
 * so the session's history comparison becomes a pointer comparison. Past `maxBytes` (raw bytes plus text,
 * counted for both directions) the oldest entries go first, each hit one given a second chance
 * (`evictOldest`).
 */
export class LiteralCache implements LiteralDecoder {
  readonly #decoded = new Map<string, Entry>();
  readonly #encoded = new Map<string, Encoded>();
  readonly #maxBytes: number;
  #bytes = 0;

  /** `maxBytes`: the most the cache holds (default 8 MiB). */
  constructor(maxBytes = 8 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes held now. */
  get size(): number {
    return this.#bytes;
  }

  /** The literal at `[start, end)` of `raw` (quotes included), decoded. */
  decode(raw: Buffer, start: number, end: number): DecodedLiteral {
    const length = end - start;
    if (length < MIN_CACHED_BYTES) return decodeLiteral(raw, start, end);
    const key = literalKey(raw, start, end);
    const hit = this.#decoded.get(key);
    if (hit && hit.bytes.length === length && raw.compare(hit.bytes, 0, length, start, end) === 0) {
      hit.used = true;
      return hit;
    }
    const decoded = decodeLiteral(raw, start, end);
    if (hit) this.#forgetDecoded(key, hit);
    const entry: Entry = { ...decoded, bytes: ownBytes(raw, start, end), used: false };
    this.#decoded.set(key, entry);
    this.#bytes += length + decoded.text.length;
    this.#evict();
    return entry;
  }

  /** `JSON.stringify(text)` as UTF-8 bytes. */
  encode(text: string): Buffer {
    if (text.length < MIN_CACHED_BYTES) return Buffer.from(JSON.stringify(text));
    const hit = this.#encoded.get(text);
    if (hit) {
      hit.used = true;
      return hit.bytes;
    }
    const bytes = Buffer.from(JSON.stringify(text));
    this.#encoded.set(text, { bytes, used: false });
    this.#bytes += bytes.length + text.length;
    this.#evict();
    return bytes;
  }

  #forgetDecoded(key: string, entry: Entry): void {
    this.#decoded.delete(key);
    this.#bytes -= entry.bytes.length + entry.text.length;
  }

  #evict(): void {
    while (this.#bytes > this.#maxBytes) {
      // from whichever map holds more entries
      if (this.#decoded.size >= this.#encoded.size) {
        const oldest = evictOldest(this.#decoded);
        if (!oldest) break;
        this.#bytes -= oldest[1].bytes.length + oldest[1].text.length;
      } else {
        const oldest = evictOldest(this.#encoded);
        if (!oldest) break;
        this.#bytes -= oldest[1].bytes.length + oldest[0].length;
      }
    }
  }
}

/** Length plus an FNV-1a hash of 32 bytes sampled evenly across the literal: cheap, rarely shared. */
function literalKey(raw: Buffer, start: number, end: number): string {
  const length = end - start;
  const step = length / 32;
  let hash = 0x811c9dc5;
  for (let i = 0; i < 32; i++) {
    hash ^= raw[start + Math.floor(i * step)]!;
    hash = Math.imul(hash, 0x01000193);
  }
  return `${length}:${hash >>> 0}`;
}
