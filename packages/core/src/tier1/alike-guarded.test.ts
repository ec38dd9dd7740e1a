import { SalienceKeepModel } from '@distil/codec';
import { type Block, DistilConfig } from '@distil/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressBlock } from '../pipeline/compress-block.js';
import { restoreBlock } from '../pipeline/restore-block.js';
import { MemoryRestoreStore } from '../store/index.js';
import { findStubs } from './stub.js';

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();
const block = (text: string): Block => ({ id: 'lint', role: 'tool', kind: 'log', text, trusted: false });

const FILES = ['env', 'trap', 'pipeline', 'quote', 'glob'];
const RULES = [
  'eqeqeq',
  'no-shadow',
  'prefer-const',
  'curly',
  'no-unused-vars',
  'no-useless-escape',
  'no-var',
];
const NAMES = ['slashes', 'file', 'stdin', 'tabs', 'pipe', 'lines', 'quote', 'glob', 'env', 'mode', 'args'];

/** One warning of a linter's unix format: a source location, no failure word. */
const warning = (i: number): string =>
  `/repo/src/${FILES[i % 5]}.js:${(i * 7) % 400}:${(i % 60) + 1}: '${NAMES[i % 11]}' is flagged by ${RULES[i % 7]}. [Warning/${RULES[Math.floor(i / 7) % 7]}]`;

/** A lint step: a header, the warnings, a summary and some closing lines past the block's tail. */
function lintLog(warnings: readonly string[]): string {
  const header = Array.from({ length: 12 }, (_, i) => `##[debug]step ${i} of the lint job`);
  const closing = Array.from({ length: 20 }, (_, i) => `Post job cleanup, stage ${i}`);
  return `${[...header, '$ eslint --format unix .', ...warnings, `${warnings.length} problems`, ...closing].join('\n')}\n`;
}

async function compress(text: string) {
  const store = new MemoryRestoreStore();
  const out = await compressBlock(block(text), { keepModel, store, tiers });
  return { out, store, restored: await restoreBlock(out.text, out.handles, store) };
}

describe('repeated guarded lines fold', () => {
  it('keeps the first three and last two of 300 alike warnings, folding the rest behind a stub that says so', async () => {
    const warnings = Array.from({ length: 300 }, (_, i) => warning(i));
    const text = lintLog(warnings);
    const { out, store, restored } = await compress(text);
    expect(restored).toBe(text);
    const shown = warnings.filter((w) => out.text.includes(w));
    expect(shown).toEqual([...warnings.slice(0, 3), ...warnings.slice(-2)]);
    const stub = findStubs(out.text).find((s) => s.lineCount === 295);
    expect(stub).toBeDefined();
    expect(out.text).toContain(`<< +295 lines like the line above, handle=${stub!.handle} >>`);
    const hidden = new TextDecoder().decode(await store.get(stub!.handle));
    expect(hidden).toBe(`${warnings.slice(3, -2).join('\n')}\n`);
  });

  it('keeps every one of a list of findings no longer than noise dedup allows', async () => {
    const warnings = Array.from({ length: 48 }, (_, i) => warning(i));
    const { out } = await compress(lintLog(warnings));
    for (const w of warnings) expect(out.text).toContain(w);
  });

  it('keeps alike findings that are spread out, each with its own excerpt, and a long stack trace', async () => {
    const spread = Array.from({ length: 120 }, (_, i) => [
      warning(i),
      `  const ${NAMES[i % 11]}${i} = x;`,
      '  ^^^^^',
    ]).flat();
    const { out } = await compress(lintLog(spread));
    for (let i = 0; i < 120; i++) expect(out.text).toContain(warning(i));
    const trace = [
      'java.lang.IllegalStateException: boom',
      ...Array.from({ length: 90 }, (_, i) => `\tat org.example.Layer${i}.call(Layer${i}.java:${i + 10})`),
    ];
    const traced = await compress(lintLog(trace));
    for (const frame of trace) expect(traced.out.text).toContain(frame);
  });

  it('never folds a located line that carries a strong failure word', async () => {
    const errors = Array.from(
      { length: 120 },
      (_, i) => `src/${FILES[i % 5]}.ts:${i + 1}:5 - error TS2304: Cannot find name '${NAMES[i % 5]}${i}'.`,
    );
    const { out, restored } = await compress(lintLog(errors));
    for (const e of errors) expect(out.text).toContain(e);
    expect(restored).toBe(lintLog(errors));
  });

  it('restores byte for byte and keeps strong-worded findings visible, whatever the mix', async () => {
    const line = fc.oneof(
      { arbitrary: fc.nat(999).map(warning), weight: 8 },
      { arbitrary: fc.nat(999).map((i) => `src/a.ts:${i}:1 - error TS2322: type mismatch`), weight: 1 },
      { arbitrary: fc.nat(99).map((i) => `compiling module ${i}`), weight: 2 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 40, maxLength: 160, size: 'max' }), async (lines) => {
        const text = lintLog(lines);
        const { out, restored } = await compress(text);
        expect(restored).toBe(text);
        // distinct errors are few (one per line number), far below any dedup threshold
        for (const l of lines) if (l.includes('error TS')) expect(out.text).toContain(l);
      }),
      { numRuns: 40 },
    );
  });

  it("folds the kinds a long report of interleaved findings repeats, keeping each kind's first three and last two", async () => {
    const kinds = [
      (i: number) =>
        `M V EI: org.example.Part${i}.getBytes() may expose internal representation by returning Part${i}.bytes  At Part${i}.java:[line ${i + 20}]`,
      (i: number) =>
        `M B THROWS: Method lists Throwable in its throws clause.  At Test${i}.java:[line ${i + 7}]`,
      (i: number) =>
        `M C RCN: Nullcheck of wb${i} at line ${i + 3} of value previously dereferenced in org.example.Sheet${i}.run()  At Sheet${i}.java:[line ${i + 3}]`,
    ];
    // a rare kind now and then, and a strong-worded one: both stay whatever the list holds
    const rare = (i: number) =>
      `H B Nm: The class name org.example.Shadow${i} shadows a simple name  At Shadow${i}.java:[line 1]`;
    const strong = (i: number) =>
      `M B THROWS: Method lists Exception in its throws clause.  At Io${i}.java:[line ${i + 1}]`;
    const findings: string[] = [];
    for (let i = 0; i < 100; i++) {
      findings.push(kinds[i % 3]!(i), kinds[(i + 1) % 3]!(i + 100));
      if (i % 25 === 0) findings.push(rare(i));
      if (i % 10 === 5) findings.push(strong(i));
    }
    const text = lintLog(findings);
    const { out, store, restored } = await compress(text);
    expect(restored).toBe(text);
    for (const kind of kinds) {
      const members = findings.filter((f) => f.startsWith(kind(0).slice(0, 8)) && !f.includes('Exception'));
      const shown = members.filter((m) => out.text.includes(m));
      expect(shown.slice(0, 3)).toEqual(members.slice(0, 3));
      expect(shown.slice(-2)).toEqual(members.slice(-2));
      // others show only as a strong-worded finding's context, or alone between kept lines (too short to fold)
      expect(shown.length).toBeLessThan(members.length / 2);
    }
    for (const f of findings)
      if (f.startsWith('H B') || f.includes('Exception')) expect(out.text).toContain(f);
    // every stub over hidden findings says they are like the findings above
    const stubs = findStubs(out.text);
    const announced = stubs.filter((s) =>
      out.text.slice(s.index, s.index + s.length).includes('like the findings above'),
    );
    expect(announced.length).toBeGreaterThan(0);
    for (const stub of stubs) {
      const hidden = new TextDecoder().decode(await store.get(stub.handle));
      const stubText = out.text.slice(stub.index, stub.index + stub.length);
      if (hidden.startsWith('M ')) expect(stubText).toMatch(/like the (?:findings|line|error) above/);
    }
  });

  it('keeps alike findings that stand next to no other finding, however many of a kind the block holds', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => [
      `M B THROWS: Method lists Throwable in its throws clause.  At Test${i}.java:[line ${i + 7}]`,
      `> Task :module${i}:check`,
    ]).flat();
    const { out } = await compress(lintLog(lines));
    for (const line of lines) if (line.startsWith('M ')) expect(out.text).toContain(line);
  });

  it("restores byte for byte and shows each kind's first three and every strong-worded finding, whatever the interleaving", async () => {
    const kinds = [
      (i: number) =>
        `M V EI: org.example.Part${i}.get() may expose internal representation  At Part${i}.java:[line ${i}]`,
      (i: number) => `M B THROWS: Method lists Throwable in its throws clause.  At Test${i}.java:[line ${i}]`,
      (i: number) => `M B THROWS: Method lists Exception in its throws clause.  At Io${i}.java:[line ${i}]`,
      (i: number) => `> Task :module${i}:spotbugsMain`,
    ];
    const line = fc.tuple(fc.constantFrom(0, 0, 0, 1, 1, 1, 2, 3), fc.nat(9999));
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 60, maxLength: 320, size: 'max' }), async (picks) => {
        const lines = picks.map(([k, i]) => kinds[k]!(i));
        const text = lintLog(lines);
        const { out, restored } = await compress(text);
        expect(restored).toBe(text);
        for (const l of lines) if (l.includes('Exception')) expect(out.text).toContain(l);
        for (const prefix of ['M V EI:', 'M B THROWS: Method lists Throwable']) {
          const members = lines.filter((l) => l.startsWith(prefix));
          for (const m of members.slice(0, 3)) expect(out.text).toContain(m);
        }
      }),
      { numRuns: 30 },
    );
  });
});
