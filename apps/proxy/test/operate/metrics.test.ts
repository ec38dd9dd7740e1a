import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_HEADER, type DashboardData } from '../../src/index.js';
import { FakeUpstream, type ReceivedRequest } from '../fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from '../fixtures.js';

const LOG = buildLog(300, 'ci');
const TOKEN = 'metrics-admin-token-0123456789';

/** The value of one sample line of a Prometheus exposition, e.g. `distil_requests_total{provider="anthropic"}`. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  if (!line) throw new Error(`no sample ${series} in:\n${text}`);
  return Number(line.slice(series.length + 1));
}

const conversation = (task: string): Anthropic.MessageParam[] => [
  { role: 'user', content: task },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_make', name: 'bash', input: { cmd: 'make' } }],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_make', content: LOG }] },
];

describe('/metrics and the dashboard data, from real traffic', () => {
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  let home: string;
  const admin = { [ADMIN_TOKEN_HEADER]: TOKEN };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'distil-metrics-'));
    upstream = await new FakeUpstream().start();
    // one session awake: the first conversation's is asleep once the second one's request came
    proxy = await startTestProxy(upstream, {
      home,
      config: { proxy: { adminToken: TOKEN, awakeSessions: 1 } },
    });
    const client = new Anthropic({ apiKey: 'k', baseURL: proxy.url, maxRetries: 0 });
    // One plain request that reads the cache, one that expands a fold before answering.
    upstream.script(
      {
        kind: 'anthropic',
        content: [{ type: 'text', text: 'ok' }],
        usage: {
          input_tokens: 400,
          output_tokens: 10,
          cache_read_input_tokens: 3000,
          cache_creation_input_tokens: 500,
        },
      },
      (request: ReceivedRequest) => ({
        kind: 'anthropic',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_x',
            name: 'distil_expand',
            input: { handle: firstHandle(request.body) },
          },
        ],
        usage: { input_tokens: 600, output_tokens: 12 },
      }),
      {
        kind: 'anthropic',
        content: [{ type: 'text', text: 'line 150' }],
        usage: { input_tokens: 900, output_tokens: 8 },
      },
    );
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 50,
      messages: conversation('task a'),
    });
    await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 50,
      messages: conversation('task b'),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('serves the Prometheus exposition behind the admin token', async () => {
    expect((await fetch(`${proxy.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${proxy.url}/dashboard`)).status).toBe(401);
    const response = await fetch(`${proxy.url}/metrics`, { headers: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    const p = '{provider="anthropic"}';
    expect(sample(text, `distil_requests_total${p}`)).toBe(2);
    expect(sample(text, `distil_cache_read_tokens_total${p}`)).toBe(3000);
    expect(sample(text, `distil_cache_write_tokens_total${p}`)).toBe(500);
    // Billed input over every upstream call: 400 + 3000 + 500, then 600 + 900 for the expand round trip.
    expect(sample(text, `distil_input_tokens_after_total${p}`)).toBe(5400);
    expect(sample(text, `distil_input_tokens_before_total${p}`)).toBeGreaterThan(5400);
    expect(sample(text, `distil_removed_tokens_total${p}`)).toBeGreaterThan(2000);
    expect(sample(text, 'distil_expands_total{kind="log"}')).toBe(1);
    expect(sample(text, 'distil_overhead_seconds_count{route="POST /v1/messages"}')).toBe(2);
    const totals = proxy.savings();
    expect(sample(text, `distil_saved_usd${p}`)).toBeCloseTo(totals.savedUsd, 9);
    expect(sample(text, `distil_billed_usd_total${p}`)).toBeCloseTo(totals.actualUsd, 9);
    expect(text).toContain('# HELP distil_shadow_divergences_total');
    expect(sample(text, 'distil_sessions{state="awake"}')).toBe(1);
    expect(sample(text, 'distil_sessions{state="asleep"}')).toBe(1);
  });

  it('gives the dashboard the same figures as /distil/savings, and says what is missing', async () => {
    const data = (await (
      await fetch(`${proxy.url}/distil/dashboard.json`, { headers: admin })
    ).json()) as DashboardData;
    const totals = (await (
      await fetch(`${proxy.url}/distil/savings`, { headers: admin })
    ).json()) as DashboardData['totals'];
    expect(data.totals).toEqual(totals);
    expect(data.timeline).toHaveLength(2);
    expect(data.timeline[1]!.billedUsd).toBeCloseTo(totals.actualUsd, 9);
    expect(data.cacheHitRate).toBeCloseTo(3000 / 5400, 9);
    expect(data.expands).toEqual([{ kind: 'log', count: 1 }]);
    expect(data.overhead?.samples).toBe(2);
    expect(data.frontier.state).toBe('empty');
    // the proxy's own flywheel counted this run: the log digested in both conversations, its fold
    // expanded once (below the thresholds: nothing protected)
    expect(data.policy).toMatchObject({
      state: 'ok',
      protected: [],
      entries: [{ signature: 'log:l', digests: 2, expands: 1, protectedBy: [] }],
    });
    expect(data.shadow).toMatchObject({ sampleRate: 0, stats: { state: 'empty' } });
    const html = await (await fetch(`${proxy.url}/dashboard`, { headers: admin })).text();
    expect(html).toContain('No frontier yet');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });
});
