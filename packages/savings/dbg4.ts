import {
  entriesOfBody,
  importFile,
  referenceTokens,
  replaySession,
  sharesToken,
  shippedProfile,
  toolResultsOf,
  writtenText,
} from './src/index.js';

const file = process.argv[2]!;
const [s] = importFile(file);
const r = await replaySession(s!, { profile: shippedProfile(s!.api) });
const names = new Map<string, string>();
for (const e of s!.entries) {
  for (const p of (Array.isArray(e['content']) ? e['content'] : []) as any[])
    if (p.type === 'tool_use') names.set(p.id, p.name + ' ' + JSON.stringify(p.input).slice(0, 80));
  if (e['type'] === 'function_call') names.set(e['call_id'] as string, String(e['arguments']).slice(0, 100));
}
const later = new Set<string>();
for (const e of s!.entries) for (const t of referenceTokens(writtenText(e))) later.add(t);
const first = new Map<number, any>();
for (const c of r.distil.calls) if (!first.has(c.exchange!)) first.set(c.exchange!, c);
const seen = new Set<string>();
const orig = new Map(toolResultsOf(s!.entries).map((t) => [t.id, t.text]));
for (const [k, c] of [...first].sort((a, b) => a[0] - b[0])) {
  for (const t of toolResultsOf(entriesOfBody(JSON.parse(c.body.toString())))) {
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    const o = orig.get(t.id) ?? '';
    if (o === t.text) continue;
    const lines = o
      .split('\n')
      .map((l) => l.replace(/^\s*\d+(→|\t)/, '').trim())
      .filter((l) => l && sharesToken(l, later));
    const hidden = lines.filter((l) => !t.text.includes(l));
    console.log(
      `== ${k} ${names.get(t.id)} orig ${o.length} fwd ${t.text.length} needed ${lines.length} hidden ${hidden.length}`,
    );
    if (process.env.SHOW) {
      console.log(hidden.slice(0, 5).join('\n'));
      console.log('--- fwd:\n' + t.text.slice(0, Number(process.env.SHOW)));
    }
  }
}
