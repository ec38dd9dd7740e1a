import { SalienceKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryRestoreStore } from '../store/index.js';
import { findStubs } from '../tier1/stub.js';
import { asCodexJson, ciLog } from '../validate/agent-outputs.js';
import { compressBlock } from './compress-block.js';
import { joinJsonEnvelope, splitJsonEnvelope } from './json-envelope.js';
import { restoreBlock } from './restore-block.js';

const tiers = DistilConfig.parse({}).tiers;
const keepModel = new SalienceKeepModel();

describe('splitJsonEnvelope', () => {
  it("finds Codex's output field, leaving every other byte outside it", () => {
    const output = 'line one\nline "two"\n\ttab \\ back\n'.repeat(4);
    const text = asCodexJson(output, { exitCode: 2 });
    const json = splitJsonEnvelope(text)!;
    expect(json.body).toBe(output);
    expect(json.prefix).toBe('{"output":');
    expect(json.suffix).toBe(',"metadata":{"exit_code":2,"duration_seconds":0.4}}');
    expect(joinJsonEnvelope(json, json.body)).toBe(text);
  });

  it('refuses data, single lines, invalid JSON and strings JSON.stringify would write differently', () => {
    const long = Array.from({ length: 30 }, (_, i) => `row ${i}`).join('\n');
    expect(
      splitJsonEnvelope(JSON.stringify({ rows: Array(40).fill({ id: 1, name: 'x' }), note: 'a\nb' })),
    ).toBeNull();
    expect(splitJsonEnvelope(JSON.stringify({ output: 'x'.repeat(500) }))).toBeNull();
    expect(splitJsonEnvelope(`${JSON.stringify({ output: long }).slice(0, -1)}`)).toBeNull();
    expect(splitJsonEnvelope(JSON.stringify({ output: long }).replace('row 1', 'r\\u006fw 1'))).toBeNull();
    expect(splitJsonEnvelope(JSON.stringify({ nested: { output: long } }))).toBeNull();
    expect(splitJsonEnvelope(JSON.stringify([long]))).toBeNull();
  });
});

describe('a tool output sent as JSON around its text', () => {
  it('folds the text inside the field, keeps the key lines and the JSON valid, and restores exactly', async () => {
    const log = ciLog();
    const text = asCodexJson(log.text, { exitCode: 1 });
    const store = new MemoryRestoreStore();
    const out = await compressBlock(
      { id: 'b', role: 'tool', kind: 'json', text, trusted: false },
      { keepModel, store, tiers },
    );
    expect(out.tier).toBe('digest');
    expect(out.text.length).toBeLessThan(text.length * 0.3);
    const parsed = JSON.parse(out.text) as { output: string; metadata: unknown };
    expect(parsed.metadata).toEqual({ exit_code: 1, duration_seconds: 0.4 });
    for (const line of log.keyLines) expect(parsed.output).toContain(line);
    // each stub, as the model sees it inside the string, expands to lines of the original
    for (const stub of findStubs(out.text)) expect(out.handles).toContain(stub.handle);
    expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  });

  it('restores byte for byte whatever the text holds (quotes, backslashes, control and non-ASCII characters)', async () => {
    const line = fc.oneof(
      fc.constantFrom('INFO step compiled module ok', 'ERROR test_widget failed: expected 3, got 4', ''),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({
        unit: fc.constantFrom('"', '\\', '\t', '\r', '\u0001', 'é', '😀', 'a', ' '),
        maxLength: 20,
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 40, maxLength: 160 }),
        fc.integer({ min: 0, max: 255 }),
        async (lines, code) => {
          const text = asCodexJson(lines.join('\n'), { exitCode: code });
          const store = new MemoryRestoreStore();
          const out = await compressBlock(
            { id: 'b', role: 'tool', kind: 'json', text, trusted: false },
            { keepModel, store, tiers },
          );
          expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
          if (out.tier === 'digest')
            expect((JSON.parse(out.text) as { metadata: unknown }).metadata).toEqual({
              exit_code: code,
              duration_seconds: 0.4,
            });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('leaves a Markdown document the agent read unfolded: any line of it may be the one it follows', async () => {
    const sections = Array.from({ length: 12 }, (_, i) => [
      `## Phase ${i}: deliver the part of the plan numbered ${i}`,
      `- [ ] T${i}01 Add the configuration defaults for stage ${i} to the settings module`,
      `- [ ] T${i}02 Write the integration test that covers stage ${i} end to end`,
      `The stage is done when its tests pass and the reviewer has signed off on it.`,
      '',
    ]);
    const doc = ['# Tasks: Orchestrator Implementation', '', ...sections.flat()].join('\r\n');
    const text = asCodexJson(doc);
    const store = new MemoryRestoreStore();
    const out = await compressBlock(
      { id: 'b', role: 'tool', kind: 'json', text, trusted: false },
      { keepModel, store, tiers },
    );
    expect(out.tier).not.toBe('digest');
    expect(await restoreBlock(out.text, out.handles, store)).toBe(text);
  });
});
