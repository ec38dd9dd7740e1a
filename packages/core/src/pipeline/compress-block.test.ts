import { SalienceKeepModel } from '@distil/codec';
import { type Block, DistilConfig } from '@distil/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryRestoreStore } from '../store/index.js';
import { findStubs } from '../tier1/stub.js';
import { compressBlock } from './compress-block.js';
import { LOSSLESS_TRAILER } from './lossless-block.js';
import { restoreBlock } from './restore-block.js';

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();
const block = (text: string, id = 'b'): Block => ({ id, role: 'tool', kind: 'log', text, trusted: false });

/** A noisy build log with one failure and its traceback in the middle. */
function buildLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 150; i++)
    lines.push(
      `[INFO] Downloading from central: https://repo.example.org/org/lib${i}/lib${i}-1.${i}.jar (${i * 3} kB at 1.2 MB/s)`,
    );
  lines.push(
    '[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0',
    'testParse(com.acme.ParserTest)  Time elapsed: 0.02 sec  <<< FAILURE!',
  );
  lines.push(
    'java.lang.AssertionError: expected:<42> but was:<41>',
    '\tat org.junit.Assert.fail(Assert.java:88)',
    '\tat com.acme.ParserTest.testParse(ParserTest.java:61)',
  );
  for (let i = 0; i < 150; i++) lines.push(`[INFO] Compiling module-${i} (${i} source files) in ${i * 7} ms`);
  return `${lines.join('\n')}\n`;
}

describe('compressBlock', () => {
  it('keeps the failure and its frames, folds the noise, and restores byte for byte', async () => {
    const store = new MemoryRestoreStore();
    const text = buildLog();
    const out = await compressBlock(block(text), { keepModel, store, tiers });
    expect(out.tier).toBe('digest');
    expect(out.text.length).toBeLessThan(text.length / 3);
    for (const line of [
      'java.lang.AssertionError: expected:<42> but was:<41>',
      'at com.acme.ParserTest.testParse(ParserTest.java:61)',
      'Tests run: 12, Failures: 1',
    ]) {
      expect(out.text).toContain(line);
    }
    expect(findStubs(out.text).map((s) => s.handle)).toEqual(out.handles);
    expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  });

  it('announces every elided line in a stub', async () => {
    const store = new MemoryRestoreStore();
    const text = buildLog();
    const out = await compressBlock(block(text), { keepModel, store, tiers });
    const inputLines = text.split('\n').length;
    const stubs = findStubs(out.text);
    const keptLines = out.text.split('\n').length - stubs.length;
    expect(keptLines + stubs.reduce((n, s) => n + s.lineCount, 0)).toBe(inputLines);
  });

  it('digests a log with a few replacement characters in it, and restores it exactly', async () => {
    const store = new MemoryRestoreStore();
    const text = buildLog().replace('\n', ' \uFFFD broken glyph\n');
    const out = await compressBlock(block(text), { keepModel, store, tiers });
    expect(out.tier).toBe('digest');
    expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  });

  it('passes binary, empty, lone-surrogate and stub-printing input through untouched', async () => {
    const store = new MemoryRestoreStore();
    for (const text of [
      '',
      'a\u0000b\n'.repeat(100),
      'x\uFFFDy\n'.repeat(100),
      '\uD800 lone\n'.repeat(100),
      `${buildLog()}<< +3 lines, handle=dh_0123456789ab >>\n`,
    ]) {
      const out = await compressBlock(block(text), { keepModel, store, tiers });
      expect(out.text).toBe(text);
      expect(out.tier).toBe('none');
    }
  });
});

// Lines an agent's tool outputs are made of: noise, errors, ids, verdicts, blanks, odd line endings.
const logLine = fc.oneof(
  fc.constantFrom(
    '',
    '   ',
    'ok',
    '[INFO] Building',
    'DEBUG cache hit',
    'PASS src/a.test.ts',
    'Tests: 1 failed, 9 passed',
  ),
  fc.nat(999).map((n) => `[INFO] Downloading lib${n}-1.${n}.jar (${n} kB)`),
  fc.nat(999).map((n) => `ERROR: shard ${n} failed to connect`),
  fc.nat(999).map((n) => `    at com.acme.Foo.bar(Foo.java:${n})`),
  fc.uuid().map((u) => `request ${u} served`),
  fc.string({ maxLength: 40 }),
);
const logText = fc
  .tuple(
    fc.array(logLine, { maxLength: 120 }),
    fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 1, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([lines, ends, trailing]) =>
    lines.map((l, i) => l + (i < lines.length - 1 || trailing ? ends[i % ends.length] : '')).join(''),
  );

describe('compressBlock invariants (properties)', () => {
  const small = { ...tiers, minLines: 10, headLines: 2, tailLines: 2 };

  it('restores every input byte for byte from its handles', async () => {
    const store = new MemoryRestoreStore();
    await fc.assert(
      fc.asyncProperty(logText, async (text) => {
        const out = await compressBlock(block(text), { keepModel, store, tiers: small });
        expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
        // every handle issued is announced: by a stub (digest) or by the trailer (lossless re-encoding)
        const announced =
          out.tier === 'lossless'
            ? [LOSSLESS_TRAILER.exec(out.text)?.[1]]
            : findStubs(out.text).map((stub) => stub.handle);
        expect(announced).toEqual(out.handles);
      }),
      { numRuns: 2_000 },
    );
  }, 30_000);

  it('compresses a block to the same bytes whatever other blocks exist, in any order', async () => {
    await fc.assert(
      fc.asyncProperty(logText, fc.array(logText, { maxLength: 3 }), async (text, others) => {
        const alone = await compressBlock(block(text), {
          keepModel,
          store: new MemoryRestoreStore(),
          tiers: small,
        });
        const shared = new MemoryRestoreStore();
        for (const other of others)
          await compressBlock(block(other, 'other'), { keepModel, store: shared, tiers: small });
        const beside = await compressBlock(block(text), { keepModel, store: shared, tiers: small });
        expect(beside).toEqual(alone);
      }),
      // 2,000 runs take about a second on a quiet core; the bound leaves room for a loaded machine
      { numRuns: 2_000 },
    );
  }, 30_000);
});
