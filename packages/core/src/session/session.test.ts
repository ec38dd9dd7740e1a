import { SalienceKeepModel } from '@distil/codec';
import { addressOf, type Block, DECISION_MARKER, TierConfig } from '@distil/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { pipelineCompressor } from './block-compressor.js';
import { deltaOf, restoreSentBlock } from './references.js';
import { Session } from './session.js';
import { applyTextDelta } from './text-delta.js';

const keepModel = new SalienceKeepModel();

function newSession(store = new MemoryRestoreStore()): { session: Session; store: MemoryRestoreStore } {
  const compress = pipelineCompressor({ keepModel, store, tiers: TierConfig.parse({}) });
  return { session: new Session({ compress, store }), store };
}

let ids = 0;
function block(text: string, kind: Block['kind'] = 'tool_output'): Block {
  return { id: `b${ids++}`, role: 'tool', kind, text, trusted: false };
}

/** A file of `n` distinct lines, as a tool that reads files would print it. */
function file(n: number, edit?: { line: number; text: string }): string {
  const lines = Array.from(
    { length: n },
    (_, i) => `    value_${i} = compute_${i}(alpha, beta)  # step ${i}`,
  );
  if (edit) lines[edit.line] = edit.text;
  return `${lines.join('\n')}\n`;
}

describe('Session', () => {
  it('keeps every earlier block byte-identical, whatever the turns (prefix stability)', async () => {
    const base = file(30);
    const texts = [
      base,
      file(30, { line: 7, text: '    value_7 = changed()' }),
      `${DECISION_MARKER} rollback the deploy\n${base}`,
      'short',
      'ERROR: disk full on /var\n'.repeat(50),
      file(60),
    ];
    const turnArb = fc.array(fc.array(fc.integer({ min: 0, max: texts.length - 1 }), { maxLength: 4 }), {
      minLength: 1,
      maxLength: 6,
    });
    await fc.assert(
      fc.asyncProperty(turnArb, async (turns) => {
        const { session, store } = newSession();
        let previous: string[] = [];
        for (const turn of turns) {
          const sent = await session.addTurn(turn.map((i) => block(texts[i]!)));
          const now = sent.context.map((b) => b.text);
          expect(now.slice(0, previous.length)).toEqual(previous);
          previous = now;
        }
        for (const sent of session.context) expect(await restoreSentBlock(sent, store)).toBe(sent.block.text);
      }),
      { numRuns: 150 },
    );
  });

  it('resumes a history, whole or cut at any turn, and goes on exactly as the session that sent it', async () => {
    const base = file(30);
    const log = Array.from({ length: 120 }, (_, i) => `2026-01-01T00:00:00Z worker ${i % 7} ok`).join('\n');
    const texts = [
      base,
      file(30, { line: 7, text: '    value_7 = changed()' }),
      `${DECISION_MARKER} rollback the deploy\n${base}`,
      'short',
      log,
      file(60),
    ];
    const kinds: Block['kind'][] = [
      'tool_output',
      'tool_output',
      'tool_output',
      'tool_output',
      'log',
      'source',
    ];
    const arb = fc.record({
      // no empty turn: a history does not say where one was, so a cut after one resumes a turn early
      turns: fc.array(
        fc.array(fc.integer({ min: 0, max: texts.length - 1 }), { minLength: 1, maxLength: 4 }),
        {
          minLength: 2,
          maxLength: 6,
        },
      ),
      cut: fc.nat(),
      expandAt: fc.option(fc.nat()),
    });
    const encoded = (sent: readonly { text: string; encoding: string; turn: number }[]) =>
      sent.map(({ text, encoding, turn }) => ({ text, encoding, turn }));
    await fc.assert(
      fc.asyncProperty(arb, async ({ turns, cut: rawCut, expandAt }) => {
        const cut = 1 + (rawCut % (turns.length - 1));
        const store = new MemoryRestoreStore();
        const compress = pipelineCompressor({ keepModel, store, tiers: TierConfig.parse({}) });
        const blocksOf = (turn: readonly number[]) => turn.map((i) => block(texts[i]!, kinds[i]));
        // the session that sends every turn, expanding the handles of one turn's blocks after it
        const whole = new Session({ compress, store });
        let lengthAtCut = 0;
        for (const [t, turn] of turns.entries()) {
          if (t === cut) lengthAtCut = whole.context.length;
          const { added } = await whole.addTurn(blocksOf(turn));
          if (expandAt !== null && t === expandAt % turns.length)
            for (const sent of added) for (const h of sent.handles) whole.markExpanded(h);
        }
        // a session that sends the first turns, then a resumed copy of it that sends the rest
        const first = new Session({ compress, store });
        for (const [t, turn] of turns.slice(0, cut).entries()) {
          const { added } = await first.addTurn(blocksOf(turn));
          if (expandAt !== null && t === expandAt % turns.length)
            for (const sent of added) for (const h of sent.handles) first.markExpanded(h);
        }
        const resumed = Session.resume({ compress, store }, first.history());
        // the whole history cut back to the same turns (a fork), every later expansion still sticky
        const forked = Session.resume({ compress, store }, whole.history(), lengthAtCut);
        // the addresses a history carries are the ones hashing its texts gives
        const addresses = (s: Session) => s.history().addresses!.map((a) => a.digest);
        const hashed = (s: Session) => s.context.map((sent) => addressOf(sent.block.text).digest);
        const { addresses: _, ...unaddressed } = first.history();
        expect(addresses(resumed)).toEqual(hashed(resumed));
        expect(addresses(Session.resume({ compress, store }, unaddressed))).toEqual(addresses(resumed));
        expect(addresses(forked)).toEqual(hashed(forked));
        for (const [t, turn] of turns.slice(cut).entries()) {
          const { added } = await resumed.addTurn(blocksOf(turn));
          if (expandAt !== null && cut + t === expandAt % turns.length)
            for (const sent of added) for (const h of sent.handles) resumed.markExpanded(h);
        }
        expect(encoded(resumed.context)).toEqual(encoded(whole.context));
        expect(forked.history().turns).toBe(cut);
        expect(encoded(forked.context)).toEqual(encoded(whole.context.slice(0, lengthAtCut)));
        for (const handle of whole.history().sticky) expect(forked.isSticky(handle)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('turns an exact re-send into a back-reference that resolves to the original', async () => {
    const { session, store } = newSession();
    const text = file(40);
    await session.addTurn([block(text)]);
    const { added } = await session.addTurn([block(text)]);
    const sent = added[0]!;
    expect(sent.encoding).toBe('reference');
    expect(sent.refersTo).toBe(0);
    expect(sent.text).toMatch(/^<< same as #1 \(turn 1\): 41 lines unchanged, handle=dh_[0-9a-f]{12} >>$/);
    expect(await restoreSentBlock(sent, store)).toBe(text);
  });

  it('never references a block that carries a decision marker, nor references to one', async () => {
    const { session } = newSession();
    const marked = `${file(40)}${DECISION_MARKER} scale the pool to 12\n`;
    await session.addTurn([block(marked)]);
    const again = await session.addTurn([block(marked)]);
    expect(again.added[0]!.encoding).not.toBe('reference');
    expect(again.added[0]!.text).toContain(DECISION_MARKER);
    const nearby = await session.addTurn([block(marked.replace('step 3', 'step three'))]);
    expect(['reference', 'diff', 'ast-delta', 'ast-unchanged']).not.toContain(nearby.added[0]!.encoding);
    for (const sent of nearby.context) expect(sent.refersTo).toBeUndefined();
  });

  it('sends a near-duplicate re-read as a diff that rebuilds the new file from the earlier one', async () => {
    const { session, store } = newSession();
    const before = file(80);
    const after = file(80, { line: 41, text: '    value_41 = compute_41(alpha, gamma)  # fixed' });
    await session.addTurn([block(before)]);
    const { added } = await session.addTurn([block(after)]);
    const sent = added[0]!;
    expect(sent.encoding).toBe('diff');
    expect(sent.text.length).toBeLessThan(after.length / 5);
    expect(applyTextDelta(before, deltaOf(sent))).toBe(after);
    expect(await restoreSentBlock(sent, store)).toBe(after);
  });

  it('keeps expanded content full from then on (sticky expansion)', async () => {
    const { session, store } = newSession();
    const log = Array.from(
      { length: 120 },
      (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z worker ${i} ok`,
    ).join('\n');
    const first = await session.addTurn([block(log, 'log')]);
    expect(first.added[0]!.encoding).toBe('compressed');
    for (const handle of first.added[0]!.handles) session.markExpanded(handle);
    const again = await session.addTurn([block(log, 'log')]);
    expect(again.added[0]!.encoding).toBe('full');
    expect(again.added[0]!.text).toBe(log);
    expect(await restoreSentBlock(first.added[0]!, store)).toBe(log);
  });

  it('sends the blocks `sendWhole` names byte-exact: no fold, reference or delta', async () => {
    const store = new MemoryRestoreStore();
    const compress = pipelineCompressor({ keepModel, store, tiers: TierConfig.parse({}) });
    const log = (tag: string) =>
      Array.from({ length: 120 }, (_, i) => `2026-01-01T00:00:00Z ${tag} worker ${i} ok`).join('\n');
    const whole = log('kept');
    const session = new Session({ compress, store, sendWhole: (b) => b.text === whole });
    const { added } = await session.addTurn([
      block(whole, 'log'),
      block(whole, 'log'),
      block(log('x'), 'log'),
    ]);
    expect(added.map((b) => b.encoding)).toEqual(['full', 'full', 'compressed']);
    expect(added[0]!.text).toBe(whole);
    expect(added[1]!.text).toBe(whole);
  });

  it('serialises concurrent turns in call order', async () => {
    const { session } = newSession();
    const [a, b] = await Promise.all([session.addTurn([block('one')]), session.addTurn([block('two')])]);
    expect(a.turn).toBe(0);
    expect(b.turn).toBe(1);
    expect(b.context.map((s) => s.text)).toEqual(['one', 'two']);
  });
});
