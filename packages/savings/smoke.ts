import {
  importClaudeCodeLog,
  readJsonLines,
  replaySession,
  sessionSavings,
  shippedProfile,
} from './src/index.js';

const files = process.argv.slice(2);
const tot = { direct: 0, distil: 0, ceiling: 0, recorded: 0, needed: 0, hidden: 0, hiddenX: 0, expand: 0 };
for (const file of files) {
  const { records, skipped } = readJsonLines(file);
  const s = importClaudeCodeLog(records, file, skipped.length);
  const r = await replaySession(s, { profile: shippedProfile('messages') });
  const f = sessionSavings(r);
  const p = (a: number, b: number) => ((1 - a / b) * 100).toFixed(1).padStart(6) + '%';
  console.log(
    f.id.slice(-20).padEnd(20),
    String(f.calls).padStart(3),
    'direct',
    f.cacheOnly.toFixed(4),
    'rec',
    f.recorded?.toFixed(4),
    'saved',
    p(f.distil, f.cacheOnly),
    'ceil',
    p(f.ceiling, f.cacheOnly),
    'x',
    f.expandCalls,
    f.expandUsd.toFixed(4),
    'cw+',
    f.extraCacheWriteUsd.toFixed(4),
    'tools',
    f.toolTokens.original,
    '->',
    f.toolTokens.forwarded,
    'pt',
    `${f.passThrough.untouched}/${f.passThrough.requests}`,
    'need',
    f.fidelity.neededLines,
    'hid',
    f.fidelity.hiddenLines,
    f.fidelity.hiddenAfterExpands,
  );
  tot.direct += f.cacheOnly;
  tot.distil += f.distil;
  tot.ceiling += f.ceiling;
  tot.recorded += f.recorded ?? 0;
  tot.needed += f.fidelity.neededLines;
  tot.hidden += f.fidelity.hiddenLines;
  tot.hiddenX += f.fidelity.hiddenAfterExpands;
  tot.expand += f.expandUsd;
}
console.log(
  tot,
  'saved',
  (1 - tot.distil / tot.direct) * 100,
  'ceiling',
  (1 - tot.ceiling / tot.direct) * 100,
);
