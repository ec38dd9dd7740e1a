import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AnthropicPromptCache,
  anthropicPrompt,
  MessagesRequest,
  messagesView,
  ResponsesRequest,
  responsesView,
  sharedBlocks,
} from '@distil/savings';
import { describe, expect, it } from 'vitest';

// Request bodies recorded from the real CLIs by `pnpm bench:agents --capture` (see agents/README.md).
const dir = join(import.meta.dirname, '..', 'fixtures');
const load = (prefix: string): { path: string; headers: Record<string, string>; body: unknown }[] =>
  readdirSync(dir)
    .filter((f) => new RegExp(`^${prefix}-\\d+\\.json$`).test(f))
    .sort((a, b) => Number(a.match(/(\d+)\.json$/)![1]) - Number(b.match(/(\d+)\.json$/)![1]))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));

describe('what Claude Code sends (fixtures)', () => {
  const requests = load('claude-code').map((r) => MessagesRequest.parse(r.body));

  it('sends a role "system" message after the first user message on its default model', () => {
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const body of requests) {
      expect(body.messages[0]!.role).toBe('user');
      expect(body.messages[1]!.role).toBe('system');
    }
  });

  it('sends a long Bash output as a <persisted-output> preview, then Read output with N\\t line numbers', () => {
    const calls = messagesView(requests.at(-1)!).calls;
    const bash = calls.find((c) => c.name === 'Bash');
    expect(bash?.output).toMatch(
      /^<persisted-output>\nOutput too large \([\d.]+KB\)\. Full output saved to: \S+/,
    );
    const read = calls.find((c) => c.name === 'Read');
    expect(
      read?.output
        ?.split('\n')
        .slice(0, 3)
        .every((line) => /^\d+\t/.test(line)),
    ).toBe(true);
  });

  it('keeps its own prefix stable turn to turn, as the billing model reads it', () => {
    const cache = new AnthropicPromptCache();
    let previous: ReturnType<typeof anthropicPrompt> | null = null;
    for (const body of requests) {
      const prompt = anthropicPrompt(body);
      const usage = cache.bill(body.model, prompt, 4096);
      if (previous) {
        // everything the previous request had is re-sent unchanged and read back from the cache
        expect(sharedBlocks(previous, prompt)).toBe(previous.blocks.length);
        expect(usage.cacheRead).toBeGreaterThan(0);
      }
      previous = prompt;
    }
  });
});

describe('what Codex sends (fixtures)', () => {
  it('returns exec_command output as function_call_output, cut to 10k tokens with a banner by default', () => {
    const last = ResponsesRequest.parse(load('codex').at(-1)!.body);
    const cat = responsesView(last).calls.find((c) => c.name === 'exec_command');
    expect(cat?.output).toMatch(/^Chunk ID: \w+\nWall time: [\d.]+ seconds\nProcess exited with code 0\n/);
    expect(cat?.output).toContain('Warning: truncated output');
    expect(cat?.output).toMatch(/…\d+ tokens truncated…/);
  });

  it('returns the whole output when the limit is raised and the call asks for it', () => {
    const last = ResponsesRequest.parse(load('codex-full-output').at(-1)!.body);
    const cat = responsesView(last).calls.find((c) => c.name === 'exec_command');
    expect(cat?.output).not.toContain('truncated');
    expect(cat?.output?.length).toBeGreaterThan(100_000);
  });

  it('sends developer instructions as input messages and offers apply_patch as a custom tool', () => {
    const first = ResponsesRequest.parse(load('codex')[0]!.body);
    const items = typeof first.input === 'string' ? [] : first.input;
    expect(items[0]).toMatchObject({ type: 'message', role: 'developer' });
    expect(first.tools?.some((t) => t.type === 'custom' && t.name === 'apply_patch')).toBe(true);
  });
});
