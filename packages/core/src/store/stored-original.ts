import { createHash, timingSafeEqual } from 'node:crypto';
import { type ContentAddress, Handle, UnknownHandleError } from '@distil/contract';

/**
 * How one original is kept by the disk and Redis stores: a one-line text header, then the bytes.
 *
 *   distil-original/1 sha256=<64 hex> bytes=<decimal length>\n<bytes>
 *
 * The header carries the FULL digest because a handle holds only 48 bits of it: `get` re-hashes the bytes
 * and compares with the header (a corrupt, truncated or tampered record is never served), and checks that
 * the header belongs to the handle asked for; `put` compares the header with the digest of the new bytes to
 * tell an idempotent re-put from a short-handle collision. The length makes a truncation explicit in the
 * reason. A text header keeps a stored file inspectable with `head -1`.
 */
const MAGIC = 'distil-original/1';
const HEADER_PATTERN = /^distil-original\/1 sha256=([0-9a-f]{64}) bytes=(0|[1-9][0-9]{0,15})$/;
/** A header is never longer than this; a record whose first line is longer is not a record. */
const MAX_HEADER_BYTES = 128;
const NEWLINE = 0x0a;

/** A stored record's header: whose digest it claims and how many bytes follow. */
export interface RecordHeader {
  readonly digest: string;
  readonly length: number;
  /** Where the original's bytes start inside the record. */
  readonly bodyOffset: number;
}

/** Serializes an original and its content address into one record (header + bytes). */
export function encodeRecord(address: ContentAddress, original: Uint8Array): Buffer {
  const header = Buffer.from(`${MAGIC} sha256=${address.digest} bytes=${original.byteLength}\n`, 'latin1');
  return Buffer.concat([header, original]);
}

/** Parses a record's header, or returns a reason why these bytes are not a record. */
export function readRecordHeader(record: Uint8Array): RecordHeader | string {
  const window = record.subarray(0, MAX_HEADER_BYTES);
  const end = window.indexOf(NEWLINE);
  if (end < 0) return 'the stored record has no valid header (truncated or not written by Distil)';
  const match = HEADER_PATTERN.exec(Buffer.from(window.subarray(0, end)).toString('latin1'));
  if (!match) return 'the stored record has a malformed header';
  return { digest: match[1] as string, length: Number(match[2]), bodyOffset: end + 1 };
}

/**
 * Returns the original held by `record` after checking, in order: the header parses, it belongs to
 * `handle`, the body has the declared length, and the SHA-256 of the body equals the full digest in the
 * header. Any failure raises UnknownHandleError with the reason: a bad record is never served.
 */
export function decodeRecord(handle: Handle, record: Uint8Array): Uint8Array {
  const header = readRecordHeader(record);
  if (typeof header === 'string') throw new UnknownHandleError(handle, header);
  if (`dh_${header.digest.slice(0, 12)}` !== handle) {
    throw new UnknownHandleError(handle, 'the stored record belongs to a different digest');
  }
  const body = record.subarray(header.bodyOffset);
  if (body.byteLength !== header.length) {
    throw new UnknownHandleError(
      handle,
      `the stored record is ${body.byteLength < header.length ? 'truncated' : 'overlong'} (${body.byteLength} of ${header.length} bytes)`,
    );
  }
  const actual = createHash('sha256').update(body).digest();
  if (!timingSafeEqual(actual, Buffer.from(header.digest, 'hex'))) {
    throw new UnknownHandleError(handle, 'the stored bytes fail SHA-256 verification (corrupt or tampered)');
  }
  // A plain Uint8Array view (not a Buffer), so every backend returns the same type.
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}

/** What a `put` finds when a record already sits under the handle of the bytes it is storing. */
export type ExistingRecord =
  | { readonly kind: 'same' }
  | { readonly kind: 'collision' }
  | { readonly kind: 'damaged'; readonly reason: string };

/**
 * Classifies the record found under the handle of `original`: the same original (idempotent put), a
 * different original whose full digest shares the short handle (a collision: never overwrite), or a
 * damaged or misplaced record (safe to replace with the good bytes the caller holds).
 */
export function compareExisting(
  address: ContentAddress,
  original: Uint8Array,
  record: Uint8Array,
): ExistingRecord {
  const header = readRecordHeader(record);
  if (typeof header === 'string') return { kind: 'damaged', reason: header };
  if (header.digest !== address.digest) {
    return header.digest.startsWith(address.handle.slice(3))
      ? { kind: 'collision' }
      : { kind: 'damaged', reason: 'the stored record belongs to a different digest' };
  }
  // Same digest: the record is ours if its body is exactly the bytes being stored (no need to re-hash).
  const body = Buffer.from(
    record.buffer,
    record.byteOffset + header.bodyOffset,
    record.byteLength - header.bodyOffset,
  );
  return body.equals(original)
    ? { kind: 'same' }
    : { kind: 'damaged', reason: 'the stored bytes differ from the original of this digest (corrupt)' };
}

/** Whether `value` is a well-formed handle; the shape check every lookup makes before touching storage. */
export function isWellFormedHandle(value: unknown): value is Handle {
  return Handle.safeParse(value).success;
}
