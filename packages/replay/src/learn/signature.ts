import { type Block, CONTENT_KINDS, type ContentKind } from '@distil/contract';
import { findStubs } from '@distil/core';
import { z } from 'zod';

/** Size classes of a block, by line count of its original text. */
export type SizeBucket = 's' | 'm' | 'l' | 'xl';

/**
 * Line-count bounds of the buckets: `s` is below the fold threshold (40 lines by default, nothing to
 * digest), `m` up to 200 lines, `l` up to 1,000, `xl` beyond. Lines rather than bytes because a recorded
 * compressed run still tells how many lines each fold hid (its stubs say `+N lines`), so the signature of
 * a digested block can be computed from what was sent as well as from the original.
 */
const BUCKETS: readonly { readonly bucket: SizeBucket; readonly below: number }[] = Object.freeze([
  { bucket: 's', below: 40 },
  { bucket: 'm', below: 200 },
  { bucket: 'l', below: 1000 },
  { bucket: 'xl', below: Number.POSITIVE_INFINITY },
]);

/**
 * A content-free signature: content class × size bucket, e.g. `json:l`. It names a kind of block, never
 * its content, so the learned statistics can be kept and shared without keeping anything an agent read.
 */
export const Signature = z
  .string()
  .regex(new RegExp(`^(${CONTENT_KINDS.join('|')}):(s|m|l|xl)$`), 'expected a signature like json:l');
export type Signature = z.infer<typeof Signature>;

/** The bucket of a block of `lines` lines. */
export function sizeBucket(lines: number): SizeBucket {
  return BUCKETS.find((b) => lines < b.below)!.bucket;
}

/** Lines of `text` (as `split('\n').length` counts them, 0 for none) without building the lines. */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** The signature of an original (uncompressed) block. */
export function signatureOf(block: Pick<Block, 'kind' | 'text'>): Signature {
  return `${block.kind}:${sizeBucket(lineCount(block.text))}`;
}

/** The signature of `kind` at `lines` lines. */
export function signatureFor(kind: ContentKind, lines: number): Signature {
  return `${kind}:${sizeBucket(lines)}`;
}

/**
 * The signature of a block as it was sent, when Distil digested it (its text carries fold stubs), else
 * null. The original's line count is the lines sent, less one per stub line, plus the lines each stub hid.
 */
export function digestedSignature(block: Pick<Block, 'kind' | 'text'>): Signature | null {
  const stubs = findStubs(block.text);
  if (stubs.length === 0) return null;
  const hidden = stubs.reduce((sum, s) => sum + s.lineCount, 0);
  return signatureFor(block.kind, lineCount(block.text) - stubs.length + hidden);
}
