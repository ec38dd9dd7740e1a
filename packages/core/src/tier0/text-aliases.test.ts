import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aliasRepeats,
  formatAliasLegend,
  longRuns,
  parseAliasLegend,
  restoreAliases,
} from './text-aliases.js';

const url = 'https://api.github.com/repos/octokit-fixture-org/hello-world/';

/** Encodes `text` as the lossless tier does (legend in front) and decodes it again. */
function roundTrip(text: string, verbatimAt?: (offset: number) => boolean): string | null {
  const aliased = aliasRepeats(text, verbatimAt);
  if (aliased === null) return null;
  const parsed = parseAliasLegend(`${formatAliasLegend(aliased).join('\n')}\n${aliased.body}`);
  expect(parsed).not.toBeNull();
  return restoreAliases(parsed!.body, parsed!.sigil, parsed!.aliases);
}

describe('aliasRepeats', () => {
  it('names the prefixes an API response repeats in every url field', () => {
    const fields = ['issues', 'pulls', 'commits', 'branches', 'tags', 'labels', 'milestones', 'events'];
    const text = JSON.stringify(Object.fromEntries(fields.map((f) => [`${f}_url`, `${url}${f}{/number}`])));
    const aliased = aliasRepeats(text);
    expect(aliased?.aliases).toStrictEqual([url]);
    expect(aliased?.body).toContain('"issues_url":"§1issues{/number}"');
    expect(formatAliasLegend(aliased!)).toStrictEqual([
      '[§ shorthand: the 1 lines below define §1, used in the text after them]',
      `§1 = ${url}`,
    ]);
    expect(roundTrip(text)).toBe(text);
  });

  it('leaves short texts and rare repeats alone: a legend must pay for itself', () => {
    expect(aliasRepeats(`${url}a ${url}b`)).toBeNull();
    expect(aliasRepeats('src/a.ts src/a.ts src/a.ts')).toBeNull();
  });

  it('uses the next mark character when the text already holds §, and gives up when it holds them all', () => {
    const text = `§ ${Array.from({ length: 12 }, (_, i) => `${url}${i}`).join(' ')}`;
    expect(aliasRepeats(text)?.sigil).toBe('¤');
    expect(roundTrip(text)).toBe(text);
    expect(aliasRepeats(`§¤¶‡ ${text}`)).toBeNull();
  });

  it('stands for texts of at most 4096 characters, so a hostile megabyte token cannot blow up', () => {
    // every slash of `/ab/ab/…` starts a longer prefix: unbounded, counting them is quadratic and the
    // pattern of the chosen ones too large for the regular expression engine
    const text = `${'/ab'.repeat(300_000)}\n`.repeat(3);
    const aliased = aliasRepeats(text);
    expect(aliased).not.toBeNull();
    for (const a of aliased!.aliases) expect(a.length).toBeLessThanOrEqual(4096);
    expect(roundTrip(text)).toBe(text);
  });

  it('rejects a legend that does not match its header', () => {
    expect(
      parseAliasLegend(
        '[§ shorthand: the 2 lines below define §1 to §2, used in the text after them]\n§1 = a\n',
      ),
    ).toBeNull();
    expect(parseAliasLegend('plain text\n')).toBeNull();
    expect(() => restoreAliases('§Z', '§', ['a'])).toThrow(/unknown mark/);
  });

  it('round-trips any text and never rewrites a verbatim offset (property, 10,000 cases)', () => {
    const piece = fc.constantFrom(
      url,
      `${url}pulls/1`,
      '/home/runner/work/app/app/src/components/',
      'org.example.billing.InvoiceService',
      'x',
      '§',
      '§1',
      '¤',
      '9',
      '"',
    );
    const separator = fc.constantFrom(' ', '\n', '"', '');
    const text = fc
      .array(fc.tuple(piece, separator), { maxLength: 60, size: 'max' })
      .map((parts) => parts.map(([p, s]) => p + s).join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 3 }), (t, stride) => {
        // every `stride`-th line is verbatim (0: none)
        const lineAt = (offset: number): number => t.slice(0, offset).split('\n').length - 1;
        const verbatimAt = stride === 0 ? undefined : (offset: number) => lineAt(offset) % stride === 0;
        const aliased = aliasRepeats(t, verbatimAt);
        if (aliased === null) return;
        expect(roundTrip(t, verbatimAt)).toBe(t);
        if (verbatimAt !== undefined) {
          const lines = t.split('\n');
          const out = aliased.body.split('\n');
          for (let i = 0; i < lines.length; i++) if (i % stride === 0) expect(out[i]).toBe(lines[i]);
        }
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('longRuns', () => {
  // The patterns the scan replaces: it must find exactly their matches, in order.
  const TOKEN = /[^\s"'<>()[\]{},;|`]{16,}/g;
  const NAME = /[A-Za-z0-9_.@+=-]{16,}/g;
  const tokenChars = new Uint8Array(0x10000).map((_, c) =>
    /[\s"'<>()[\]{},;|`]/.test(String.fromCharCode(c)) ? 0 : 1,
  );
  const nameChars = new Uint8Array(0x10000).map((_, c) =>
    /[A-Za-z0-9_.@+=-]/.test(String.fromCharCode(c)) ? 1 : 0,
  );
  const runs = (text: string, chars: Uint8Array, from = 0, to = text.length): [number, number][] => {
    const out: [number, number][] = [];
    longRuns(text, chars, from, to, (s, e) => out.push([s, e]));
    return out;
  };
  const matches = (text: string, re: RegExp, base = 0): [number, number][] =>
    [...text.matchAll(re)].map((m) => [base + m.index, base + m.index + m[0].length]);
  const text = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          '/home/runner/work/',
          'org.example.Test',
          'a',
          ' ',
          '\n',
          '"',
          '\u00a0',
          '\u2028',
          '§',
          '😀',
          '[',
          '=',
          '-',
        ),
        fc.string({ maxLength: 20 }),
        fc.string({ unit: 'binary', maxLength: 8 }),
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));

  it('finds what the token and name patterns match', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(runs(t, tokenChars)).toEqual(matches(t, TOKEN));
        for (const [s, e] of runs(t, tokenChars))
          expect(runs(t, nameChars, s, e)).toEqual(matches(t.slice(s, e), NAME, s));
      }),
      { numRuns: 500 },
    );
  });
});
