import type { Block } from '@distil/contract';
import { type CompressedBlock, type CompressOptions, compressBlock } from '../pipeline/compress-block.js';

/**
 * Compresses one new block. The session layer only ever calls it on blocks not sent before, so a
 * deterministic, per-block compressor keeps every earlier block's bytes (and the cached prefix) intact.
 */
export type BlockCompressor = (block: Block) => Promise<CompressedBlock>;

/** The pipeline's compressBlock bound to its options, as a BlockCompressor. */
export function pipelineCompressor(options: CompressOptions): BlockCompressor {
  return (block) => compressBlock(block, options);
}
