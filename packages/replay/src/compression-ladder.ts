import type { Block } from '@distil/contract';
import { type CompressOptions, compressBlock, countTokens } from '@distil/core';

/** How deep a context is compressed: the reversible digest, the lossless tier only, or not at all. */
export type CompressionLevel = 'digest' | 'lossless' | 'none';

/** Every level, deepest first: the order certified fallback tries them in. */
export const LEVELS: readonly CompressionLevel[] = Object.freeze(['digest', 'lossless', 'none']);

/** Compresses one block's text at one level (never called with `none`). */
export type BlockTransform = (block: Block, level: Exclude<CompressionLevel, 'none'>) => Promise<string>;

/** The pipeline's compressBlock as a BlockTransform: `digest` folds behind handles, `lossless` is tier 0. */
export function pipelineTransform(options: Omit<CompressOptions, 'depth'>): BlockTransform {
  return async (block, level) => (await compressBlock(block, { ...options, depth: level })).text;
}

/**
 * Contexts of a trajectory at each compression level. Each block is compressed once per level (blocks
 * compress independently of their neighbours, so one result serves every turn that holds the block), and
 * the compressed block is one object reused in every context, which lets runners memoise per block. A
 * block a level leaves unchanged stays the very same object.
 */
export class CompressionLadder {
  private readonly compressed = new Map<CompressionLevel, WeakMap<Block, Block>>();
  private readonly tokenCounts = new WeakMap<Block, number>();

  constructor(private readonly transform: BlockTransform) {}

  /** `block` at `level`. */
  async block(block: Block, level: CompressionLevel): Promise<Block> {
    if (level === 'none') return block;
    let cache = this.compressed.get(level);
    if (cache === undefined) {
      cache = new WeakMap();
      this.compressed.set(level, cache);
    }
    let out = cache.get(block);
    if (out === undefined) {
      const text = await this.transform(block, level);
      out = text === block.text ? block : { ...block, text };
      cache.set(block, out);
    }
    return out;
  }

  /** A whole context at `level`. */
  async context(context: readonly Block[], level: CompressionLevel): Promise<Block[]> {
    const out: Block[] = [];
    for (const block of context) out.push(await this.block(block, level));
    return out;
  }

  /** Tokens of a context (o200k_base; memoised per block). */
  tokens(context: readonly Block[]): number {
    let sum = 0;
    for (const block of context) {
      let n = this.tokenCounts.get(block);
      if (n === undefined) {
        n = countTokens(block.text);
        this.tokenCounts.set(block, n);
      }
      sum += n;
    }
    return sum;
  }
}
