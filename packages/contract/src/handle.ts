import { createHash } from 'node:crypto';
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
  const digest = createHash('sha256').update(bytes).digest('hex');
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
