import { readFileSync } from 'node:fs';
import { SalienceKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { guardLines } from '../packages/core/src/guard/guard-lines.js';
import { analysisView } from '../packages/core/src/guard/terminal-codes.js';
import { splitSegments } from '../packages/core/src/pipeline/lines.js';
import { selectLines } from '../packages/core/src/tier1/select-lines.js';
import { isVerdict } from '../packages/core/src/tier1/verdicts.js';
const config = DistilConfig.parse({});
const text = new TextDecoder().decode(readFileSync(process.argv[2]!));
const lines = splitSegments(text).lines.map(analysisView);
const guard = guardLines(lines, { kind: 'log' });
const scores = new SalienceKeepModel().scoreLinesSync(lines);
const keep = selectLines({ lines, guard, scores }, config.tiers);
const tally = new Map<string, number>();
for (let i = 0; i < lines.length; i++) {
  if (!keep[i]) continue;
  const why = [guard[i] ? `g${guard[i]}` : '', scores[i]! >= 0.6 ? 's' : '', isVerdict(lines[i]!) ? 'v' : ''].join('') || 'ctx';
  tally.set(why, (tally.get(why) ?? 0) + 1);
  if (process.argv[3] && why.includes(process.argv[3])) console.log(why.padEnd(6), lines[i]!.slice(0, 150));
}
console.log([...tally].sort((a, b) => b[1] - a[1]));
