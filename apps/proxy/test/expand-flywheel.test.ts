import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_EXPAND_THRESHOLDS, expandStatsPath } from '@distil/replay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../../cli/test/run-cli-async.js';
import { FakeUpstream, type ReceivedRequest } from './fake-upstream.js';
import { buildLog, startTestProxy, type TestProxy } from './fixtures.js';

// The expand flywheel end to end, through the real proxy: a scripted model expands the fold of one
// class of log in one conversation after another; once the expands cross the thresholds, the next
// conversation's log of that class is forwarded byte-exact, a log of another size is still folded, and
// `distil learn` (the real binary) reads the protection from the proxy's home.

/** Expands it takes to protect a signature: the thresholds as shipped, not a test's own. */
const N = DEFAULT_EXPAND_THRESHOLDS.minExpands;
const BIG = 'toolu_big'; // a 300-line log: log:l
const SMALL = 'toolu_small'; // a 120-line log: log:m, never expanded

interface ToolResult {
  readonly type: string;
  readonly tool_use_id?: string;
  readonly content?: unknown;
}

/** The text of a forwarded request's tool result `id`. */
function forwarded(request: ReceivedRequest, id: string): string {
  const messages = (request.json as { messages: { content: unknown }[] }).messages;
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    const part = (message.content as ToolResult[]).find(
      (p) => p.type === 'tool_result' && p.tool_use_id === id,
    );
    if (part) return typeof part.content === 'string' ? part.content : JSON.stringify(part.content);
  }
  throw new Error(`no tool result ${id} in the forwarded request`);
}

const handlesIn = (text: string): string[] =>
  [...text.matchAll(/handle=(dh_[0-9a-f]{12})/g)].map((m) => m[1]!);

/** A model that expands the first fold of the big log, then answers. */
function expandingModel(): Parameters<FakeUpstream['script']> {
  return [
    (request) => ({
      kind: 'anthropic',
      content: [
        { type: 'text', text: 'Reading the log.' },
        {
          type: 'tool_use',
          id: 'toolu_x',
          name: 'distil_expand',
          input: { handle: handlesIn(forwarded(request, BIG))[0] },
        },
      ],
    }),
    { kind: 'anthropic', content: [{ type: 'text', text: 'Fixed.' }] },
  ];
}

/** One conversation through the proxy, as its own session: a build that printed two logs. */
async function converse(proxy: TestProxy, id: string, big: string, small: string): Promise<string> {
  const response = await fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'x-distil-session': id },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [
        { role: 'user', content: `fix the build (${id})` },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: BIG, name: 'bash', input: { cmd: 'make' } },
            { type: 'tool_use', id: SMALL, name: 'bash', input: { cmd: 'make lint' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: BIG, content: big },
            { type: 'tool_result', tool_use_id: SMALL, content: small },
          ],
        },
      ],
    }),
  });
  expect(response.status).toBe(200);
  const reply = (await response.json()) as { content: { type: string; text?: string }[] };
  return reply.content.map((part) => part.text ?? '').join('');
}

interface LearnedJson {
  readonly protected: string[];
  readonly entries: { signature: string; digests: number; expands: number; protectedBy: string[] }[];
}

describe('the expand flywheel through the proxy', () => {
  let home: string;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'distil-flywheel-'));
    upstream = await new FakeUpstream().start();
  });
  afterAll(async () => {
    await upstream.close();
    rmSync(home, { recursive: true, force: true });
  });

  // Spawns the real `distil` binary (node + tsx, 1–3 s on a loaded machine) after the proxy work.
  it('protects a class agents keep expanding: the next request of that class is forwarded byte-exact', {
    timeout: 60_000,
  }, async () => {
    const proxy = await startTestProxy(upstream, { home });
    try {
      for (let i = 0; i < N; i++) {
        upstream.reset();
        upstream.script(...expandingModel());
        const big = buildLog(300, `job${i}`);
        const text = await converse(proxy, `flywheel-${i}`, big, buildLog(120, `lint${i}`));
        expect(text).toBe('Reading the log.Fixed.');
        // still folded: fewer than N expands so far
        const sent = forwarded(upstream.received[0]!, BIG);
        expect(sent).not.toBe(big);
        expect(handlesIn(sent).length).toBeGreaterThan(0);
        // the expand was answered with the folded lines themselves
        expect(upstream.received).toHaveLength(2);
        expect(upstream.received[1]!.body).toContain('"tool_use_id":"toolu_x"');
        expect(upstream.received[1]!.body).toContain('compiled module_');
      }

      // The next conversation, with a log of the same class never seen before: sent whole, in the same
      // proxy, without a restart. The other class, never expanded, is still folded.
      upstream.reset();
      upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'Read it all.' }] });
      const big = buildLog(300, 'fresh');
      const small = buildLog(120, 'fresh-lint');
      expect(await converse(proxy, 'flywheel-after', big, small)).toBe('Read it all.');
      expect(upstream.received).toHaveLength(1);
      expect(forwarded(upstream.received[0]!, BIG)).toBe(big);
      expect(handlesIn(forwarded(upstream.received[0]!, SMALL)).length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }

    // Written to the home's statistics (content-free: signatures and counts only).
    const file = readFileSync(expandStatsPath(home), 'utf8');
    expect(file).not.toContain('compiled module_');
    const learn = await runCliAsync(['learn', '--json'], { DISTIL_HOME: home });
    expect(learn.status).toBe(0);
    const policy = JSON.parse(learn.stdout) as LearnedJson;
    expect(policy.protected).toEqual(['log:l']);
    const row = (signature: string) => policy.entries.find((e) => e.signature === signature);
    expect(row('log:l')).toMatchObject({ digests: N, expands: N, protectedBy: ['expands'] });
    expect(row('log:m')).toMatchObject({ digests: N + 1, expands: 0, protectedBy: [] });

    // A proxy started later on the same home applies it from its first request.
    const restarted = await startTestProxy(upstream, { home });
    try {
      upstream.reset();
      upstream.script({ kind: 'anthropic', content: [{ type: 'text', text: 'ok' }] });
      const again = buildLog(300, 'after-restart');
      await converse(restarted, 'flywheel-restarted', again, buildLog(120, 'x'));
      expect(forwarded(upstream.received[0]!, BIG)).toBe(again);
    } finally {
      await restarted.close();
    }
  });

  it('fails open on statistics it cannot read: requests are compressed and expanded, the file is left alone', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'distil-flywheel-broken-'));
    mkdirSync(join(broken, 'learn'));
    writeFileSync(expandStatsPath(broken), '{ not json');
    const proxy = await startTestProxy(upstream, { home: broken });
    try {
      expect(proxy.logs.join('\n')).toContain('expand statistics unreadable, not learning from expands');
      for (let i = 0; i <= N; i++) {
        upstream.reset();
        upstream.script(...expandingModel());
        const big = buildLog(300, `broken${i}`);
        expect(await converse(proxy, `broken-${i}`, big, buildLog(120, 'y'))).toBe('Reading the log.Fixed.');
        // nothing learned, so every conversation's log is still folded
        expect(handlesIn(forwarded(upstream.received[0]!, BIG)).length).toBeGreaterThan(0);
      }
    } finally {
      await proxy.close();
    }
    expect(readFileSync(expandStatsPath(broken), 'utf8')).toBe('{ not json');
    rmSync(broken, { recursive: true, force: true });
  });
});
