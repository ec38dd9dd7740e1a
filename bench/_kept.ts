import { readFileSync } from 'node:fs';
import { loadKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { compressBlock, MemoryRestoreStore } from '@distil/core';
const config = DistilConfig.parse({});
const keepModel = await loadKeepModel(config.keepModel);
const text = new TextDecoder().decode(readFileSync(process.argv[2]!));
const out = await compressBlock({ id: 'x', role: 'tool', kind: 'log', text, trusted: false }, { keepModel, store: new MemoryRestoreStore(), tiers: config.tiers });
process.stdout.write(out.text);
