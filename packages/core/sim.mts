import { SalienceKeepModel } from '@distil/codec';
import { TierConfig } from '@distil/contract';
import { importTrajectories, MemoryRestoreStore, pipelineCompressor, resolvePrice, simulate } from './src/index.js';
const file = process.argv[2]!;
for (const t of importTrajectories(file)) {
  const store = new MemoryRestoreStore();
  const compress = pipelineCompressor({ keepModel: new SalienceKeepModel(), store, tiers: TierConfig.parse({}) });
  const t0 = performance.now();
  const r = await simulate(t, resolvePrice('claude-sonnet-4-5').price, ['cache-only', 'naive', 'distil'], { compress, store, keepModel: new SalienceKeepModel() });
  console.log(t.id, t.turns.length, (performance.now() - t0).toFixed(0) + 'ms');
  for (const s of r.strategies) console.log('  ', s.label.padEnd(36), s.totals.usd.toFixed(5), (s.vsBaseline * 100).toFixed(1) + '%', s.totals.cacheRead, s.totals.requestTokens);
}
