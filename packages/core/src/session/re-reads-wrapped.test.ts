import { SalienceKeepModel } from '@distil/codec';
import { type Block, TierConfig } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { detectKind } from '../pipeline/detect-kind.js';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { findStubs } from '../tier1/stub.js';
import { asCodexExec, asReadOutput, READ_REMINDER } from '../validate/agent-outputs.js';
import { readForwarded } from '../validate/forwarded-text.js';
import { pipelineCompressor } from './block-compressor.js';
import { restoreSentBlock } from './references.js';
import { Session } from './session.js';

const keepModel = new SalienceKeepModel();

function newSession(): { session: Session; store: MemoryRestoreStore } {
  const store = new MemoryRestoreStore();
  const compress = pipelineCompressor({ keepModel, store, tiers: TierConfig.parse({}) });
  return { session: new Session({ compress, store, skeleton: { minLines: 80 } }), store };
}

let ids = 0;
const block = (text: string): Block => ({
  id: `r${ids++}`,
  role: 'tool',
  kind: detectKind(text),
  text,
  trusted: false,
});

/** A source file of `n` functions, as an agent reads, edits and re-reads it. */
function sourceFile(n: number): string[] {
  const lines: string[] = ["import { clamp } from './math.js';", ''];
  for (let i = 0; i < n; i++) {
    lines.push(
      `/** Scales reading ${i} into the unit range. */`,
      `export function scale${i}(value: number, limit: number): number {`,
      `  const bounded = clamp(value, 0, limit * ${i + 2});`,
      `  const ratio = bounded / (limit * ${i + 2});`,
      `  if (ratio > 0.${i + 1}) console.debug('reading ${i} past its mark');`,
      `  return Math.round(ratio * ${1000 + i}) / ${1000 + i};`,
      '}',
      '',
    );
  }
  return lines;
}

async function sendAll(session: Session, store: MemoryRestoreStore, texts: readonly string[]) {
  const out = [];
  let previous: string[] = [];
  for (const text of texts) {
    const turn = await session.addTurn([block(text)]);
    const now = turn.context.map((s) => s.text);
    expect(now.slice(0, previous.length)).toEqual(previous); // prefix stability
    previous = now;
    const sent = turn.added[0]!;
    expect(await restoreSentBlock(sent, store)).toBe(text);
    const read = await readForwarded(text, sent.text, store);
    expect(read.reversible && read.announced).toBe(true);
    out.push(sent);
  }
  return out;
}

describe('re-reads of what the agents really send', () => {
  it('sends a Read after an edit as a diff whose hunks name the file lines, though every later number moved', async () => {
    const { session, store } = newSession();
    const before = sourceFile(40);
    const after = [...before];
    after.splice(10, 0, '  // inserted by the edit');
    const [, edited] = await sendAll(session, store, [
      asReadOutput(before.join('\n'), { reminder: READ_REMINDER }),
      asReadOutput(after.join('\n'), { reminder: READ_REMINDER }),
    ]);
    expect(edited!.encoding).toBe('diff');
    expect(edited!.text).toContain('(line numbers as in the file)');
    expect(edited!.text).toMatch(/^@@ -10,\d+ \+10,\d+ @@$/m);
    expect(edited!.text).toContain('+  // inserted by the edit');
    expect(edited!.text.endsWith(`\n${READ_REMINDER}`)).toBe(true);
    expect(edited!.text.length).toBeLessThan(asReadOutput(after.join('\n')).length / 10);
  });

  it('numbers the hunks of a partial read from its offset', async () => {
    const { session, store } = newSession();
    const file = sourceFile(60);
    const changed = [...file];
    changed[120] = '  return 0;';
    const [, edited] = await sendAll(session, store, [
      asReadOutput(file.join('\n'), { offset: 101, limit: 150 }),
      asReadOutput(changed.join('\n'), { offset: 101, limit: 150 }),
    ]);
    expect(edited!.encoding).toBe('diff');
    expect(edited!.text).toMatch(/^@@ -120,3 \+120,3 @@$/m);
  });

  it('turns a partial re-read of lines a Read showed into a reference to them', async () => {
    const { session, store } = newSession();
    const file = sourceFile(8).join('\n');
    const [, partial] = await sendAll(session, store, [
      asReadOutput(file, { padded: true }),
      asReadOutput(file, { offset: 20, limit: 30, padded: true, reminder: READ_REMINDER }),
    ]);
    expect(partial!.encoding).toBe('reference');
    expect(partial!.refersTo).toBe(0);
    expect(partial!.text).toBe(
      `<< lines 20–49 as in #1 (turn 1): unchanged, handle=${partial!.original} >>\n\n${READ_REMINDER}`,
    );
  });

  it('sends a partial re-read of lines the earlier read folded away, not a reference to them', async () => {
    const { session, store } = newSession();
    const log = Array.from(
      { length: 400 },
      (_, i) => `[INFO] worker ${i % 7} fetched shard ${i} in ${i % 13} ms`,
    );
    const [first, partial] = await sendAll(session, store, [
      asReadOutput(log.join('\n'), {}),
      asReadOutput(log.join('\n'), { offset: 200, limit: 40 }),
    ]);
    expect(first!.encoding).toBe('compressed');
    expect(findStubs(first!.text).length).toBeGreaterThan(0);
    expect(partial!.encoding).not.toBe('reference');
    expect(partial!.text.startsWith('200\t[INFO] worker 3 fetched shard 199 in 4 ms\n')).toBe(true);
  });

  it('references a command Codex ran again, keeping the new header (its wall time differs) verbatim', async () => {
    const { session, store } = newSession();
    const output = sourceFile(8).join('\n');
    const again = asCodexExec(output, { wallSeconds: 0.31 });
    const [, second] = await sendAll(session, store, [asCodexExec(output, { wallSeconds: 0.12 }), again]);
    expect(second!.encoding).toBe('reference');
    expect(second!.text).toMatch(
      /^Exit code: 0\nWall time: 0\.3100 seconds\nOutput:\n<< same as #1 \(turn 1\): \d+ lines unchanged, handle=dh_[0-9a-f]{12} >>$/,
    );
  });

  it('outlines a numbered source read: bodies folded after their numbers, signatures kept with theirs', async () => {
    const { session, store } = newSession();
    const read = asReadOutput(sourceFile(30).join('\n'), { reminder: READ_REMINDER });
    const [sent] = await sendAll(session, store, [read]);
    expect(sent!.encoding).toBe('skeleton');
    expect(sent!.text).toContain('\n4\texport function scale0(value: number, limit: number): number {\n');
    expect(sent!.text).toMatch(/^5\t {2}<< \+4 lines, handle=dh_[0-9a-f]{12} >>$/m);
    expect(sent!.text.endsWith(`\n\n${READ_REMINDER}`)).toBe(true);
    expect(sent!.text.length).toBeLessThan(read.length * 0.75);
  });
});
