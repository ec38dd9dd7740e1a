import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { compressBlock, countTokens, MemoryRestoreStore, guardLines, GuardReason } from '@distil/core';
const config = DistilConfig.parse({});
const keepModel = await loadKeepModel(config.keepModel);
const files = process.argv.slice(2);
const rows: [number, number, number, string][] = [];
for (const f of files) {
  const text = new TextDecoder().decode(readFileSync(f));
  if (text.split('\n').length < 200) continue;
  const out = await compressBlock({ id: 'x', role: 'tool', kind: 'log', text, trusted: false }, { keepModel, store: new MemoryRestoreStore(), tiers: config.tiers });
  rows.push([countTokens(text), countTokens(out.text), out.text.split('\n').length, f.split('/').slice(-2).join('/')]);
}
rows.sort((a, b) => (b[1]) - (a[1]));
let B = 0, A = 0;
for (const r of rows) { B += r[0]; A += r[1]; }
console.log('total', B, A, (1 - A / B).toFixed(3));
for (const r of rows.slice(0, 25)) console.log(r[0], r[1], (1 - r[1] / r[0]).toFixed(2), r[2], r[3]);
