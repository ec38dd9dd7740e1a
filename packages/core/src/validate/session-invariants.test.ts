import { SalienceKeepModel } from '@distil/codec';
import { type Block, DECISION_MARKER, handleFor, TierConfig } from '@distil/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressBlock } from '../pipeline/compress-block.js';
import { restoreSentBlock } from '../session/references.js';
import { Session } from '../session/session.js';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { restoreLineNumbers, stripLineNumbers } from '../tier0/line-numbers.js';
import { formatStub } from '../tier1/stub.js';
import { asCodexExec, asReadOutput } from './agent-outputs.js';
import { handlesIn, readForwarded } from './forwarded-text.js';

// The whole pipeline across turns: compressBlock behind the session layer (dedup, cache-delta, sticky),
// where compress-block.test.ts checks one block at a time. Small tiers so small inputs fold.
const tiers = TierConfig.parse({ minLines: 10, headLines: 2, tailLines: 2 });
const keepModel = new SalienceKeepModel();

const line = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom('', 'ok', '[INFO] Building', 'PASS src/a.test.ts', '    at run (a.js:1)'),
  },
  { weight: 8, arbitrary: fc.nat(999).map((n) => `[INFO] Downloading lib${n}-1.${n}.jar (${n} kB)`) },
  { weight: 2, arbitrary: fc.nat(999).map((n) => `ERROR: shard ${n} failed to connect`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('Tests: 1 failed, 9 passed', `${DECISION_MARKER} retry the shard`),
  },
  { weight: 1, arbitrary: fc.nat(0xffff).map((n) => `see handle=dh_${n.toString(16).padStart(12, '0')}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);
// Now and then a tool prints stub syntax, which sends its whole block through unchanged.
const printedStub = fc.nat(0xffff).map((n) => formatStub(3, `dh_${n.toString(16).padStart(12, '0')}`));
const text = fc
  .tuple(
    fc.array(line, { minLength: 4, maxLength: 40, size: 'medium' }),
    fc.oneof(
      { weight: 9, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.tuple(printedStub, fc.nat()) },
    ),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.boolean(),
    // as the agents deliver it: plain, a numbered Read (with its reminder), a Codex exec output
    fc.constantFrom('plain', 'plain', 'read', 'codex'),
  )
  .map(([lines, stub, end, trailing, how]) => {
    const all = stub ? lines.toSpliced(stub[1] % lines.length, 0, stub[0]) : lines;
    const joined = all.join(end) + (trailing ? end : '');
    if (how === 'read') return asReadOutput(joined);
    if (how === 'codex') return asCodexExec(joined, { exitCode: 1 });
    return joined;
  });

/**
 * A new block: fresh text, an exact re-send of an earlier one, an earlier one with one line edited, a
 * line inserted (a numbered read renumbered after it) or a run of its lines (a partial re-read).
 */
const step = fc.oneof(
  { weight: 3, arbitrary: text.map((t) => ({ type: 'new' as const, text: t })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ type: 'resend' as const, pick })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.nat(), fc.nat(), line)
      .map(([pick, at, edit]) => ({ type: 'edit' as const, pick, at, edit })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.nat(), fc.nat(), line)
      .map(([pick, at, edit]) => ({ type: 'insert' as const, pick, at, edit })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), fc.nat(), fc.nat()).map(([pick, at, length]) => ({
      type: 'partial' as const,
      pick,
      at,
      length,
    })),
  },
);
const turns = fc.array(fc.array(step, { maxLength: 3 }), { minLength: 1, maxLength: 4 });

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function textOf(s: Step, earlier: readonly string[]): string {
  if (s.type === 'new' || earlier.length === 0) return s.type === 'new' ? s.text : 'nothing yet';
  const base = earlier[s.pick % earlier.length]!;
  if (s.type === 'resend') return base;
  const lines = base.split('\n');
  if (s.type === 'partial') {
    const from = s.at % lines.length;
    return lines.slice(from, from + 3 + (s.length % lines.length)).join('\n');
  }
  if (s.type === 'edit') {
    lines[s.at % lines.length] = s.edit;
    return lines.join('\n');
  }
  const numbered = stripLineNumbers(base);
  if (numbered === null) return lines.toSpliced(s.at % lines.length, 0, s.edit).join('\n');
  const plain = numbered.text.split('\n');
  const at = s.at % Math.min(plain.length, numbered.numbers.count);
  const count = numbered.numbers.count + 1;
  return restoreLineNumbers(plain.toSpliced(at, 0, s.edit).join('\n'), { ...numbered.numbers, count });
}

describe('pipeline invariants across turns (properties, through the session layer)', () => {
  it('reversible, announced, prefix-stable, per-block independent; forged handles never resolve', async () => {
    let ids = 0;
    await fc.assert(
      fc.asyncProperty(turns, fc.boolean(), async (plan, expandSome) => {
        const store = new MemoryRestoreStore();
        const session = new Session({
          store,
          compress: (b) => compressBlock(b, { keepModel, store, tiers }),
        });
        const texts: string[] = [];
        let previous: string[] = [];
        for (const turn of plan) {
          const blocks = turn.map((s): Block => {
            const t = textOf(s, texts);
            texts.push(t);
            return { id: `b${ids++}`, role: 'tool', kind: 'log', text: t, trusted: false };
          });
          const sent = await session.addTurn(blocks);
          const now = sent.context.map((b) => b.text);
          // prefix stability: every block already sent keeps its bytes
          expect(now.slice(0, previous.length)).toEqual(previous);
          previous = now;
          // sticky expansion mid-conversation must not disturb any of it
          if (expandSome && sent.added[0]?.handles[0]) session.markExpanded(sent.added[0].handles[0]);
        }
        const issued = new Set<string>();
        for (const sent of session.context) {
          for (const h of sent.handles) issued.add(h);
          issued.add(sent.original);
          const original = sent.block.text;
          expect(await restoreSentBlock(sent, store)).toBe(original);
          const read = await readForwarded(original, sent.text, store);
          expect(read.reversible).toBe(true);
          expect(read.announced).toBe(true);
          if (sent.encoding === 'full' || sent.encoding === 'compressed') {
            // per-block independence: the same bytes as compressing the block alone, in an empty store
            const alone = await compressBlock(sent.block, {
              keepModel,
              store: new MemoryRestoreStore(),
              tiers,
            });
            if (!session.isSticky(handleFor(original)) && !alone.handles.some((h) => session.isSticky(h)))
              expect(alone.tier === 'none' ? original : alone.text).toBe(sent.text);
          }
        }
        for (const forged of new Set(texts.flatMap(handlesIn))) {
          if (!issued.has(forged)) expect(await store.has(forged)).toBe(false);
        }
      }),
      { numRuns: 10_000 },
    );
  }, 120_000);
});
