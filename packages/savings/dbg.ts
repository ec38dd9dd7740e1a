import {
  entriesOfBody,
  importClaudeCodeLog,
  readJsonLines,
  replaySession,
  shippedProfile,
  toolResultsOf,
} from './src/index.js';

const file = process.argv[2]!;
const { records, skipped } = readJsonLines(file);
const s = importClaudeCodeLog(records, file, skipped.length);
const r = await replaySession(s, { profile: shippedProfile('messages') });
const ex = new Map<number, number>();
for (const c of r.distil.calls) ex.set(c.exchange ?? -1, (ex.get(c.exchange ?? -1) ?? 0) + 1);
for (const [k, n] of ex)
  if (n > 1) {
    const calls = r.distil.calls.filter((c) => c.exchange === k);
    for (const c of calls) {
      console.log('exchange', k, 'reply', JSON.stringify(c.reply).slice(0, 200));
      console.log(
        ' distil calls in view',
        c.view?.calls.filter((x) => x.distil).map((x) => [x.id, x.output?.slice(0, 100)]),
      );
      const b = JSON.parse(c.body.toString());
      const m = b.messages.at(-1);
      console.log(' last msg', JSON.stringify(m).slice(0, 300));
      console.log(' prev msg', JSON.stringify(b.messages.at(-2)).slice(0, 300));
    }
  }
console.log(r.proxyLog.slice(0, 5));
