import { loadKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { compressBlock, countTokens, detectKind, MemoryRestoreStore } from '@distil/core';

/** What `distil compress` makes of a text with the default config. */
export interface CompressReference {
  readonly tokens: number;
  readonly text: string;
  readonly tier: string;
}

/**
 * Compresses `text` as `distil compress` does with no config file: kind detected, the default keep model
 * (salience rules), default tiers, digest depth. Folds go to an in-memory store: only the size matters here.
 */
export async function compressReference(text: string): Promise<CompressReference> {
  const config = DistilConfig.parse({});
  const keepModel = await loadKeepModel({ ...config.keepModel, fallback: 'salience' }, () => {});
  const store = new MemoryRestoreStore();
  const block = { id: 'ci-log', role: 'tool' as const, kind: detectKind(text), text, trusted: false };
  const result = await compressBlock(block, { keepModel, store, tiers: config.tiers, depth: 'digest' });
  return { tokens: countTokens(result.text), text: result.text, tier: result.tier };
}
