import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonPath, PathPatterns, type ScannedJson, scanJson } from './json-scan.js';
import { LiteralCache } from './literal-cache.js';
import { copyJson, SubtreeMemo } from './subtree-memo.js';

const PATTERNS = new PathPatterns([
  ['messages', '*', 'content'],
  ['messages', '*', 'content', '*', 'text'],
  ['system'],
  ['tools'],
]);

/** Texts with escapes, non-ASCII and now and then a long run (lifted strings are ≥ 256 bytes). */
const text = fc
  .array(fc.constantFrom('a', 'b', ' ', '"', '\\', '/', '\n', 'é', '😀', 'x'.repeat(90)), { maxLength: 8 })
  .map((parts) => parts.join(''));
const content = fc.oneof(
  text,
  fc.array(fc.record({ type: fc.constantFrom('text', 'image'), text }), { maxLength: 3 }),
);
const message = fc.record({ role: fc.constantFrom('user', 'assistant'), content });
const tool = fc.record({ name: fc.constantFrom('bash', 'read'), description: text });

/** The same JSON with whitespace here and there: other bytes, same value, not canonical. */
function spaced(json: string, seed: number): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString && c === '\\') {
      out += c + json[++i]!;
      continue;
    }
    if (c === '"') inString = !inString;
    out += !inString && c === ',' && (i * 31 + seed) % 5 === 0 ? ', ' : c;
  }
  return out;
}

/** Every watched path the body has, to compare ranges. */
function watchedPaths(value: { messages: { content: unknown }[] }): JsonPath[] {
  const paths: JsonPath[] = [['system'], ['tools']];
  value.messages.forEach((m, i) => {
    paths.push(['messages', i, 'content']);
    if (Array.isArray(m.content))
      m.content.forEach((_, p) => {
        paths.push(['messages', i, 'content', p, 'text']);
      });
  });
  return paths;
}

function expectSameScan(withMemo: ScannedJson | null, without: ScannedJson | null, raw: Buffer): void {
  expect(withMemo === null).toBe(without === null);
  if (!withMemo || !without) return;
  expect(withMemo.value).toEqual(JSON.parse(raw.toString('utf8')));
  expect(withMemo.canonical).toBe(without.canonical);
  for (const path of watchedPaths(without.value as { messages: { content: unknown }[] }))
    expect(withMemo.rangeOf(path)).toEqual(without.rangeOf(path));
}

describe('SubtreeMemo', () => {
  it('changes nothing a scan reads: values, canonical flags and ranges, turn after turn', () => {
    // A conversation grows by a few messages a turn; now and then a turn resends one message written
    // another way, or drops one, and the tools stay. Small memos evict as they go.
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 12 }),
        fc.array(tool, { maxLength: 3 }),
        fc.array(fc.nat(), { minLength: 2, maxLength: 6 }),
        fc.constantFrom(512, 4096, 1 << 20),
        (messages, tools, turns, maxBytes) => {
          const memo = new SubtreeMemo(maxBytes);
          const literals = new LiteralCache();
          let shown = 1;
          for (const roll of turns) {
            shown = Math.min(messages.length, shown + (roll % 3));
            const history = messages.slice(0, shown).filter((_, i) => roll % 7 !== 3 || i !== 0);
            const body = { model: 'm', messages: history, system: 'be brief', tools };
            let json = JSON.stringify(body);
            if (roll % 3 === 1) json = spaced(json, roll);
            const raw = Buffer.from(json);
            expectSameScan(scanJson(raw, PATTERNS, literals, memo), scanJson(raw, PATTERNS), raw);
            expect(memo.size).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never takes an object that differs from a remembered one in any byte', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 2, maxLength: 6 }), fc.nat(), (messages, pick) => {
        const memo = new SubtreeMemo();
        // long messages (each one remembered), the role last: the byte changed below is near the end
        const long = messages.map(({ role, content }) => ({ content, pad: 'p'.repeat(80), role }));
        scanJson(Buffer.from(JSON.stringify({ model: 'm', messages: long })), PATTERNS, undefined, memo);
        // one byte of one message's role changed: same length, same first bytes, same neighbours
        const i = pick % long.length;
        const edited = long.map((m, k) =>
          k === i ? { ...m, role: m.role === 'user' ? 'usex' : 'assistanx' } : m,
        );
        const raw = Buffer.from(JSON.stringify({ model: 'm', messages: edited }));
        expectSameScan(scanJson(raw, PATTERNS, undefined, memo), scanJson(raw, PATTERNS), raw);
      }),
      { numRuns: 300 },
    );
  });

  it('reads objects alike in their first bytes right, however many there are', () => {
    // one key for all of them (the first 128 bytes are equal), more than a bucket holds
    const prefix = 'same start '.repeat(15);
    const messages = Array.from({ length: 40 }, (_, i) => ({ role: 'user', content: `${prefix}${i}` }));
    const memo = new SubtreeMemo();
    for (const order of [
      messages,
      [...messages].reverse(),
      messages.map((m, i) => (i === 7 ? { ...m, content: `${prefix}x` } : m)),
    ]) {
      const raw = Buffer.from(JSON.stringify({ model: 'm', messages: order }));
      expectSameScan(scanJson(raw, PATTERNS, undefined, memo), scanJson(raw, PATTERNS), raw);
    }
  });

  it('serves a scan only what was remembered watching the same paths', () => {
    // one memo for every route: a message the same byte for byte in two dialects' bodies must still get
    // each dialect's own watched ranges
    const toolText = new PathPatterns([['messages', '*', 'content']]);
    const partText = new PathPatterns([['messages', '*', 'content', '*', 'text']]);
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'a long enough text '.repeat(5) }] },
      { role: 'tool', content: 'x'.repeat(100) },
    ];
    const raw = Buffer.from(JSON.stringify({ model: 'm', messages }));
    const memo = new SubtreeMemo();
    for (const patterns of [toolText, partText, toolText, partText]) {
      const scanned = scanJson(raw, patterns, undefined, memo)!;
      const plain = scanJson(raw, patterns)!;
      for (const path of [
        ['messages', 0, 'content'],
        ['messages', 1, 'content'],
        ['messages', 0, 'content', 0, 'text'],
      ])
        expect(scanned.rangeOf(path)).toEqual(plain.rangeOf(path));
    }
  });

  it('hands out copies: editing a scanned value changes no later scan', () => {
    const messages = Array.from({ length: 4 }, (_, i) => ({
      role: 'user',
      content: [{ type: 'tool_result', content: `result ${i} `.repeat(40) }],
    }));
    const raw = Buffer.from(JSON.stringify({ model: 'm', messages }));
    const memo = new SubtreeMemo();
    for (let turn = 0; turn < 3; turn++) {
      const scanned = scanJson(raw, PATTERNS, undefined, memo)!;
      expect(scanned.value).toEqual({ model: 'm', messages });
      const value = scanned.value as { messages: { content: { content: string }[] }[] };
      for (const m of value.messages) {
        m.content[0]!.content = 'edited';
        m.content.push({ content: 'added' });
      }
    }
    expect(memo.size).toBeGreaterThan(0);
  });

  it('finds each watched range inside a skipped object, top-level values and array items alike', () => {
    // two watched keys under each item and under a top-level object: a range is told apart by every step
    // of the path below the skipped object, the first one too
    const patterns = new PathPatterns([
      ['items', '*', 'a'],
      ['items', '*', 'b'],
      ['meta', 'a'],
      ['meta', 'b'],
    ]);
    const long = (tag: string) => `${tag} ${'x'.repeat(80)}`;
    const body = {
      meta: { a: long('meta a'), b: long('meta b') },
      items: [0, 1, 2].map((i) => ({ a: long(`a${i}`), b: long(`b${i}`) })),
    };
    const raw = Buffer.from(JSON.stringify(body));
    const memo = new SubtreeMemo();
    const plain = scanJson(raw, patterns)!;
    const paths: JsonPath[] = [
      ['meta', 'a'],
      ['meta', 'b'],
      ...[0, 1, 2].flatMap((i): JsonPath[] => [
        ['items', i, 'a'],
        ['items', i, 'b'],
      ]),
    ];
    for (let turn = 0; turn < 3; turn++) {
      const scanned = scanJson(raw, patterns, undefined, memo)!;
      for (const path of paths) {
        const range = scanned.rangeOf(path)!;
        expect(range).toEqual(plain.rangeOf(path));
        expect(JSON.parse(raw.toString('utf8', range.start, range.end))).toBe(
          path[0] === 'meta' ? body.meta[path[1] as 'a'] : body.items[path[1] as number]![path[2] as 'a'],
        );
      }
      // an index written as its digits names the same range, as the range keys always read it
      expect(scanned.rangeOf(['items', '1', 'b'])).toEqual(plain.rangeOf(['items', 1, 'b']));
      expect(scanned.rangeOf(['items', 1, 'c'])).toBeUndefined();
      expect(scanned.rangeOf(['items', 1])).toEqual(plain.rangeOf(['items', 1]));
    }
    expect(memo.size).toBeGreaterThan(0);
  });

  it('copies JSON values without sharing an object or array', () => {
    // a `__proto__` key is never in a scanned value (a scan declines it), so not in what is copied
    const scannable = fc
      .jsonValue({ maxDepth: 4 })
      .filter((value) => !JSON.stringify(value).includes('"__proto__"'));
    fc.assert(
      fc.property(scannable, (value) => {
        const copy = copyJson(value);
        expect(copy).toEqual(value);
        if (typeof value === 'object' && value !== null) expect(copy).not.toBe(value);
      }),
      { numRuns: 300 },
    );
  });
});
