import { createHash, type Hash } from 'node:crypto';
import { z } from 'zod';

/**
 * A handle is the content address of folded bytes: `dh_` and the first 12 hex digits (48 bits) of their
 * SHA-256. Twelve digits cost a few tokens in a stub; the full digest travels with every stored original
 * so a store can tell a true hit from a short-handle collision.
 */
export const HANDLE_PATTERN = /^dh_[0-9a-f]{12}$/;
/** The same pattern, unanchored, for finding handles inside text. */
export const HANDLE_IN_TEXT = /\bdh_[0-9a-f]{12}\b/g;

export const Handle = z.string().regex(HANDLE_PATTERN, 'a handle looks like dh_ followed by 12 hex digits');
export type Handle = z.infer<typeof Handle>;

/** The address of some bytes: the short handle and the full SHA-256 digest (hex). */
export interface ContentAddress {
  readonly handle: Handle;
  readonly digest: string;
}

/** Derives the content address of `bytes`. Same bytes give the same handle in every process. */
export function addressOf(bytes: Uint8Array | string): ContentAddress {
  const digest = (typeof bytes === 'string' ? hashText(bytes) : createHash('sha256').update(bytes)).digest(
    'hex',
  );
  return { handle: `dh_${digest.slice(0, 12)}`, digest };
}

/** Shorthand for `addressOf(bytes).handle`. */
export function handleFor(bytes: Uint8Array | string): Handle {
  return addressOf(bytes).handle;
}

/** Whether a string has the shape of a handle (says nothing about whether any store holds it). */
export function isHandle(value: string): value is Handle {
  return HANDLE_PATTERN.test(value);
}

/** Raised for a handle no store issued: unknown, forged, evicted, or failing digest verification. */
export class UnknownHandleError extends Error {
  override readonly name = 'UnknownHandleError';
  constructor(
    readonly handle: string,
    reason = 'no original is stored under this handle',
  ) {
    super(`unknown handle ${JSON.stringify(handle)}: ${reason}`);
  }
}

/** Raised when two different originals share a short handle: never answered with the wrong bytes. */
export class HandleCollisionError extends Error {
  override readonly name = 'HandleCollisionError';
  constructor(readonly handle: string) {
    super(`handle ${handle} already holds different bytes (short-handle collision); refusing to overwrite`);
  }
}

/** Code units of a text hashed per update (see hashText). */
const TEXT_CHUNK = 16 * 1024;

/**
 * SHA-256 of a text's UTF-8 bytes, fed in pieces: Node encodes a string argument into a buffer of its
 * own before hashing it, and for a 200 KB tool output that was fresh memory on every call (~50 pages,
 * ~15 µs each on a VM), where a 16 K piece's buffer comes back from the allocator's free list. A piece
 * never ends between the two halves of a surrogate pair, so the bytes hashed are the whole text's.
 */
function hashText(text: string): Hash {
  const hash = createHash('sha256');
  if (text.length <= TEXT_CHUNK) return hash.update(text);
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + TEXT_CHUNK);
    // (NaN past the end: the last piece is never moved)
    if (isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end--;
    hash.update(text.slice(at, end));
    at = end;
  }
  return hash;
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;
