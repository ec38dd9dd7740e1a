import { SalienceKeepModel } from '@distil/codec';
import { type Block, DistilConfig } from '@distil/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectAnchors, mentionsAnchor } from '../guard/anchors.js';
import { MemoryRestoreStore } from '../store/index.js';
import { countTokens } from '../tokens.js';
import {
  asCodexExec,
  asCodexJson,
  asPersistedOutput,
  asReadOutput,
  ciLog,
  READ_REMINDER,
} from '../validate/agent-outputs.js';
import { type CompressOptions, compressBlock } from './compress-block.js';
import { detectKind } from './detect-kind.js';
import { restoreBlock } from './restore-block.js';

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();
const block = (text: string): Block => ({
  id: 'b',
  role: 'tool',
  kind: detectKind(text),
  text,
  trusted: false,
});
const log = ciLog();

/**
 * 1,400 anchors of the kind a client's system prompt and tool definitions yield: every word of four
 * letters or more the log's generic lines use (cache, directory, public, objects, runner…) and filler.
 */
function genericAnchors(): Set<string> {
  const words = [...collectAnchors([log.text])].filter((w) => !/^\d+$/.test(w));
  const filler = Array.from({ length: 1400 }, (_, i) => `wording${i}`);
  return new Set([...words, ...filler].slice(0, 1400));
}

async function compressed(text: string, extra: Partial<CompressOptions> = {}) {
  const store = new MemoryRestoreStore();
  const out = await compressBlock(block(text), { keepModel, store, tiers, ...extra });
  expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  const saved = 1 - countTokens(out.text) / countTokens(text);
  return { out, saved };
}

describe('compressing what the agents really send', () => {
  it('saves as much on the CI log read, numbered, or run by Codex as on the plain log', async () => {
    const plain = await compressed(log.text);
    expect(plain.out.tier).toBe('digest');
    expect(plain.saved).toBeGreaterThan(0.8);
    for (const text of [
      asReadOutput(log.text),
      asReadOutput(log.text, { padded: true }),
      asCodexExec(log.text, { exitCode: 2 }),
      asCodexExec(log.text, { style: 'unified' }),
      asCodexJson(log.text, { exitCode: 1 }),
      asCodexJson(asCodexExec(log.text)),
    ]) {
      const wrapped = await compressed(text);
      expect(wrapped.out.tier).toBe('digest');
      expect(wrapped.saved).toBeGreaterThan(plain.saved - 0.03);
      const shown = text.startsWith('{')
        ? (JSON.parse(wrapped.out.text) as { output: string }).output
        : wrapped.out.text;
      for (const line of log.keyLines) expect(shown).toContain(line);
    }
  });

  it('folds the log whatever 1,400 generic anchors it is given, keeping the key lines', async () => {
    const anchors = genericAnchors();
    const lines = log.text.split('\n');
    // the shape measured with Claude Code's system prompt: most lines name an anchor
    expect(lines.filter((l) => mentionsAnchor(l, anchors)).length).toBeGreaterThan(lines.length * 0.7);
    const plain = await compressed(log.text);
    const anchored = await compressed(log.text, { anchors });
    expect(anchored.out.tier).toBe('digest');
    expect(anchored.saved).toBeGreaterThan(plain.saved - 0.03);
    for (const line of log.keyLines) expect(anchored.out.text).toContain(line);
  });

  it("keeps Codex's header and truncation marker and Claude Code's saved path and reminder verbatim", async () => {
    const capped = asCodexExec(log.text, { exitCode: 2, maxChars: 40_000 });
    const codex = await compressed(capped);
    const marker = /^.*…\d+ tokens truncated….*$/m.exec(capped)![0];
    expect(codex.out.text.startsWith(capped.slice(0, capped.indexOf('Output:\n') + 8))).toBe(true);
    expect(codex.out.text).toContain(marker);

    const read = asReadOutput(log.text, { reminder: READ_REMINDER });
    const readOut = await compressed(read);
    expect(readOut.out.text.endsWith(read.slice(read.lastIndexOf('\n\n<system-reminder>')))).toBe(true);
    // kept lines keep their numbers: the agent can still Read around them
    expect(readOut.out.text).toMatch(new RegExp(`^\\d+\\t.* ${escapeRegExp(log.keyLines[1]!)}$`, 'm'));

    const preview = asPersistedOutput(log.text, '/home/u/.claude/projects/p/s/tool-results/b1.txt');
    const previewOut = await compressed(preview, { depth: 'lossless' });
    expect(previewOut.out.text).toContain(
      'Full output saved to: /home/u/.claude/projects/p/s/tool-results/b1.txt\n',
    );
  });

  it('re-encodes a numbered read losslessly with one note for the gutter', async () => {
    const read = asReadOutput(log.text, { padded: true });
    const { out, saved } = await compressed(read, { depth: 'lossless' });
    expect(out.tier).toBe('lossless');
    expect(out.text.split('\n')[0]).toBe('<< line numbers 1–1837 ("%6d\\t") removed from the lines below >>');
    const plain = await compressed(log.text, { depth: 'lossless' });
    expect(countTokens(out.text)).toBeLessThan(countTokens(plain.out.text) * 1.05);
    expect(saved).toBeGreaterThan(plain.saved);
  });
});

const wrapped = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.nat(999).map((n) => `[INFO] Downloading lib${n}-1.${n}.jar (${n} kB)`),
        fc.nat(999).map((n) => `ERROR: shard ${n} failed`),
        fc.constantFrom('', 'ok', 'PASS a.test.ts', 'x…12 tokens truncated…y'),
        fc.string({ maxLength: 30 }),
      ),
      { maxLength: 80 },
    ),
    fc.constantFrom('plain', 'read', 'codex', 'unified', 'persisted'),
  )
  .map(([lines, how]) => {
    const text = lines.join('\n');
    if (how === 'read') return asReadOutput(text, { reminder: READ_REMINDER });
    if (how === 'codex') return asCodexExec(text, { exitCode: 1, maxChars: 600 });
    if (how === 'unified') return asCodexExec(text, { style: 'unified' });
    if (how === 'persisted') return asPersistedOutput(text, '/tmp/out.txt');
    return text;
  });

describe('wrapped outputs keep the invariants (properties)', () => {
  const small = { ...tiers, minLines: 10, headLines: 2, tailLines: 2 };

  it('restores byte for byte and compresses the same alone or beside other blocks', async () => {
    await fc.assert(
      fc.asyncProperty(wrapped, wrapped, async (text, other) => {
        const store = new MemoryRestoreStore();
        const alone = await compressBlock(block(text), { keepModel, store, tiers: small });
        expect(await restoreBlock(alone.text, alone.handles, store)).toBe(text);
        const shared = new MemoryRestoreStore();
        await compressBlock(block(other), { keepModel, store: shared, tiers: small });
        expect(await compressBlock(block(text), { keepModel, store: shared, tiers: small })).toEqual(alone);
      }),
      { numRuns: 400 },
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
