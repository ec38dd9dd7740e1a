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
});
