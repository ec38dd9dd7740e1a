import { countTokens } from '@distil/core';
import {
  entriesOfBody,
  importClaudeCodeLog,
  readJsonLines,
  replaySession,
  shippedProfile,
  toolResultsOf,
} from './src/index.js';

const files = process.argv.slice(2);
const byTool = new Map<string, { n: number; orig: number; fwd: number }>();
for (const file of files) {
  const { records, skipped } = readJsonLines(file);
  const s = importClaudeCodeLog(records, file, skipped.length);
  const names = new Map<string, string>();
  for (const e of s.entries)
    for (const p of (Array.isArray(e.content) ? e.content : []) as any[])
      if (p.type === 'tool_use')
        names.set(p.id, p.name + (p.name === 'Bash' ? ':' + String(p.input.command).split(' ')[0] : ''));
  const r = await replaySession(s, { profile: shippedProfile('messages') });
  const orig = new Map(toolResultsOf(s.entries).map((t) => [t.id, t.text]));
  const seen = new Set<string>();
  for (const c of r.distil.calls) {
    if (!c.body) continue;
    const body = JSON.parse(c.body.toString());
    for (const t of toolResultsOf(entriesOfBody(body))) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      const o = orig.get(t.id) ?? '';
      const name = names.get(t.id) ?? '?';
      const b = byTool.get(name) ?? { n: 0, orig: 0, fwd: 0 };
      b.n++;
      b.orig += countTokens(o);
      b.fwd += countTokens(t.text);
      byTool.set(name, b);
      if (process.env.SHOW && countTokens(o) > 1500)
        console.log(
          '----',
          name,
          countTokens(o),
          '->',
          countTokens(t.text),
          '\n',
          o.slice(0, 600),
          '\n>>>\n',
          t.text.slice(0, 600),
        );
    }
  }
}
for (const [k, v] of [...byTool].sort((a, b) => b[1].orig - a[1].orig))
  console.log(k.padEnd(30), v.n, v.orig, '->', v.fwd, ((1 - v.fwd / v.orig) * 100).toFixed(1) + '%');
