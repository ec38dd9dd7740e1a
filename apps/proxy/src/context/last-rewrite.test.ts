import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestBytes, type StringEdit } from '../json/body-edits.js';
import { PathPatterns, scanJson } from '../json/json-scan.js';
import { LiteralCache } from '../json/literal-cache.js';
import { SubtreeMemo } from '../json/subtree-memo.js';
import type { ProxySession } from '../session/proxy-session.js';
import { commonPrefix, firstRewrite, type LastRewrite, readThrough, rewriteThrough } from './last-rewrite.js';

const PATTERNS = new PathPatterns([['m', '*', 'text'], ['tools']]);
const SESSION = {} as ProxySession;

/** The last rewrite of `json`, its texts at `rewrites` written over (the way the proxy's full path does). */
function rewriteOf(json: string, rewrites: readonly StringEdit[]): LastRewrite {
  const raw = Buffer.from(json);
  const literals = new LiteralCache();
  const scanned = scanJson(raw, PATTERNS, literals, new SubtreeMemo())!;
  const items = scanned.itemsOf('m')!.values()!;
  const request = JSON.parse(json) as Record<string, unknown>;
  // the full path's writers edit the request in place
  for (const { path, text } of rewrites) {
    const [key, item, field] = path as [string, number, string];
    (request[key] as Record<string, unknown>[])[item]![field] = text;
  }
  const { body, edits } = requestBytes(
    raw,
    scanned,
    request,
    { rewrites, tools: null, spliced: false },
    literals,
  );
  return firstRewrite({
    session: SESSION,
    raw,
    body,
    history: 'm',
    top: { ...request, m: items },
    items,
    sent: request,
    sentItems: request.m as unknown[],
    rewrites,
    wanted: false,
    offered: false,
    scanned,
    edits,
  })!;
}

describe('commonPrefix', () => {
  it('is the length of the longest common prefix', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 70_000 }),
        fc.uint8Array({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 200 }),
        (shared, a, b) => {
          const left = Buffer.concat([shared, a]);
          const right = Buffer.concat([shared, b]);
          const limit = Math.min(left.length, right.length);
          let naive = 0;
          while (naive < limit && left[naive] === right[naive]) naive++;
          expect(commonPrefix(left, right, limit)).toBe(naive);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readThrough', () => {
  it('keeps only the items whose every byte repeats', () => {
    const base = rewriteOf('{"m":[{"role":"user","text":"x"},{"a":1}],"t":0}', []);
    const read = readThrough(
      Buffer.from('{"m":[{"role":"user","text":"x"},{"a":12},{"b":2}],"t":0}'),
      base,
      PATTERNS,
      new LiteralCache(),
    )!;
    expect(read.kept).toBe(1);
    expect(read.request).toEqual({ m: [{ role: 'user', text: 'x' }, { a: 12 }, { b: 2 }], t: 0 });
  });

  it('reads a changed tail anew, and nothing through a tail of other keys, a changed first item, or new items that are not compact', () => {
    const base = rewriteOf('{"m":[{"role":"user","text":"x"},{"a":1}],"t":0}', []);
    const through = (json: string) => readThrough(Buffer.from(json), base, PATTERNS, new LiteralCache());
    const changed = through('{"m":[{"role":"user","text":"x"},{"a":1},{"s":"]"}],"t":{"u":[1]}}')!;
    expect(changed.kept).toBe(2);
    expect(changed.tail?.members).toEqual({ t: { u: [1] } });
    expect(changed.request).toEqual({
      m: [{ role: 'user', text: 'x' }, { a: 1 }, { s: ']' }],
      t: { u: [1] },
    });
    // the next request reads through the rewrite made of it, whose members are the new ones
    const raw = Buffer.from('{"m":[{"role":"user","text":"x"},{"a":1},{"s":"]"}],"t":{"u":[1]}}');
    const next = rewriteThrough(changed, raw, [], new LiteralCache(), {
      sent: { t: { u: [1] } },
      edits: [],
    })!;
    expect(next.body).toBe(raw);
    expect(readThrough(raw, next.next, PATTERNS, new LiteralCache())?.request).toEqual(
      JSON.parse(raw.toString()),
    );
    expect(through('{"m":[{"role":"user","text":"x"},{"a":1}],"u":0}')).toBeNull();
    expect(through('{"m":[{"role":"user","text":"x"},{"a":1}],"t":0,"u":0}')).toBeNull();
    expect(through('{"m":[{"role":"user","text":"y"},{"a":1}],"t":0}')).toBeNull();
    expect(through('{"m":[{"role":"user","text":"x"},{"a":1}, {"b":2}],"t":0}')).toBeNull();
  });
});

describe('rewriteThrough', () => {
  const long = (tag: string) => `${tag} ${'line of a tool output\\n'.repeat(20)}`;
  const json = (items: readonly string[]) =>
    `{"m":[{"role":"user","text":"task"},${items.map((t) => `{"text":"${t}"}`).join(',')}],"t":0}`;

  it('gives the bytes the whole request would have, and nothing when a repeated text was rewritten otherwise', () => {
    const first = [{ path: ['m', 1, 'text'], text: 'short one' }];
    const base = rewriteOf(json([long('a')]), first);
    const raw = Buffer.from(json([long('a'), long('b')]));
    const read = readThrough(raw, base, PATTERNS, new LiteralCache())!;
    expect(read.kept).toBe(2);
    const both = [...first, { path: ['m', 2, 'text'], text: 'short two' }];
    const made = rewriteThrough(read, raw, both, new LiteralCache())!;
    const whole = rewriteOf(raw.toString(), both);
    expect(made.body.toString()).toBe(whole.body.toString());
    expect(made.sent).toEqual(JSON.parse(whole.body.toString()));
    expect(made.next.outEnds).toEqual(whole.outEnds);
    expect(made.next.outClose).toBe(whole.outClose);

    const changed = [{ path: ['m', 1, 'text'], text: 'short 1' }, both[1]!];
    expect(rewriteThrough(read, raw, changed, new LiteralCache())).toBeNull();
    expect(rewriteThrough(read, raw, both.slice(1), new LiteralCache())).toBeNull();
  });
});
