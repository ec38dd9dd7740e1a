import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { SalienceKeepModel } from '@distil/codec';
import { DistilConfig } from '@distil/contract';
import { MemoryRestoreStore } from '@distil/core';
import {
  CompressionLadder,
  certifyFallback,
  ExpandFlywheel,
  frontier,
  pipelineTransform,
  StructuralRunner,
} from '@distil/replay';
import { importTrajectories } from '@distil/trajectories';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardData, formatUsd, frontierPath } from '../../src/index.js';
import { FakeUpstream, type ReceivedRequest } from '../fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from '../fixtures.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = process.env.CI === 'true';
// Flags for Debian's chromium as root on a machine with no network: no sandbox, no GPU, and none of the
// start-up calls home that a closed network refuses (STACK.md).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TRAJECTORY = fileURLToPath(
  new URL('../../../../datasets/generated/trajectories/ci-failure-triage.json', import.meta.url),
);

if (!HAVE_CHROMIUM && !IN_CI) {
  process.stderr.write(
    `\n*** SKIPPING the dashboard browser test: no chromium at ${CHROMIUM}. ` +
      'Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH). ***\n\n',
  );
}

const LOG = buildLog(300, 'ci');
const conversation = (task: string): Anthropic.MessageParam[] => [
  { role: 'user', content: task },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_make', name: 'bash', input: { cmd: 'make' } }],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_make', content: LOG }] },
];

describe.skipIf(!HAVE_CHROMIUM && !IN_CI)('the dashboard in headless Chromium', () => {
  let home: string;
  let upstream: FakeUpstream;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;

  beforeAll(async () => {
    if (!HAVE_CHROMIUM) {
      throw new Error(
        `CI=true but chromium is missing at ${CHROMIUM}: .ci/run installs it (apt-get install -y chromium); the dashboard must be checked in a real browser in CI`,
      );
    }
    home = mkdtempSync(join(tmpdir(), 'distil-dashboard-'));
    // The learned-policy panel reads what the expand flywheel stored (written through its own API)…
    const flywheel = ExpandFlywheel.open(home);
    flywheel.recordDigest('log:m', 8);
    flywheel.recordExpand('log:m', 4);
    flywheel.recordDigest('json:l', 20);
    flywheel.recordExpand('json:l', 1);
    flywheel.flush();
    // …and the frontier panel the output of a real certified-fallback run over a bundled trajectory.
    const config = DistilConfig.parse({});
    const ladder = new CompressionLadder(
      pipelineTransform({
        keepModel: new SalienceKeepModel(),
        store: new MemoryRestoreStore(),
        tiers: config.tiers,
      }),
    );
    const plan = await certifyFallback(importTrajectories(TRAJECTORY)[0]!, {
      runner: new StructuralRunner(),
      ladder,
    });
    writeFileSync(frontierPath(home), JSON.stringify({ runner: 'structural', frontier: frontier(plan) }));

    upstream = await new FakeUpstream().start();
    proxy = await startTestProxy(upstream, { home, shadow: { sampleRate: 1 } });
    const client = new Anthropic({ apiKey: 'k', baseURL: proxy.url, maxRetries: 0 });
    // Task 0 writes the cache, task 1 reads it and expands a fold; task 2's uncompressed twin decides
    // differently (one shadow divergence in three comparisons).
    upstream.script(
      ...Array.from({ length: 12 }, () => (request: ReceivedRequest) => {
        const task = /task (\d)/.exec(request.body)?.[1];
        const folded = request.body.includes('handle=dh_');
        const usage =
          task === '0'
            ? {
                input_tokens: 300,
                output_tokens: 20,
                cache_creation_input_tokens: 4000,
                cache_read_input_tokens: 0,
              }
            : {
                input_tokens: 300,
                output_tokens: 20,
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: 4000,
              };
        const expanded =
          request.body.includes('"distil_expand"') &&
          request.body.includes('tool_result","tool_use_id":"toolu_x');
        if (task === '1' && folded && !expanded) {
          return {
            kind: 'anthropic' as const,
            content: [
              {
                type: 'tool_use' as const,
                id: 'toolu_x',
                name: 'distil_expand',
                input: { handle: firstHandle(request.body) },
              },
            ],
            usage,
          };
        }
        const text = task === '2' && !folded ? 'Retry the build.' : 'test_widget_150 fails.';
        return { kind: 'anthropic' as const, content: [{ type: 'text' as const, text }], usage };
      }),
    );
    for (const task of ['task 0', 'task 1', 'task 2']) {
      await client.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 50,
        messages: conversation(task),
      });
    }
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('renders the real numbers of a run through the proxy', async () => {
    // Shadow comparisons run after each reply; wait until all three are recorded.
    let data: DashboardData | null = null;
    for (let i = 0; i < 100; i++) {
      data = (await (await fetch(`${proxy.url}/distil/dashboard.json`)).json()) as DashboardData;
      if (data.shadow.stats.state === 'ok' && data.shadow.stats.summary.compared === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const totals = data!.totals;
    expect(totals.requests).toBe(3);
    expect(totals.savedUsd).toBeGreaterThan(0);

    const profile = mkdtempSync(join(tmpdir(), 'distil-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: { width: 1100, height: 900 },
    });
    try {
      const page = await browser.newPage();
      const response = await page.goto(`${proxy.url}/dashboard`);
      expect(response?.status()).toBe(200);
      const metric = async (name: string): Promise<string> =>
        ((await page.locator(`[data-metric="${name}"]`).textContent()) ?? '').trim();
      expect(await metric('requests')).toBe('3');
      expect(await metric('saved-usd')).toBe(formatUsd(totals.savedUsd));
      expect(await metric('verdict')).toMatch(/^Paying off: \$0\.\d{4} saved/);
      expect(await metric('expands')).toBe('1');
      expect(await metric('removed-tokens')).toBe(totals.savedTokens.toLocaleString('en-US'));
      // Cache reads over billed input: 2 × 4,000 read of (3 × 300 + 4,000 written + 3 × 4,000 read + the expand round).
      const billed = totals.billed.input + totals.billed.cacheWrite + totals.billed.cacheRead;
      expect(await metric('cache-hit')).toBe(`${((totals.billed.cacheRead / billed) * 100).toFixed(1)}%`);
      expect(await metric('shadow-rate')).toBe('33.3%');
      expect(await metric('shadow-interval')).toMatch(/^33\.3% \[\d+\.\d%–\d+\.\d%\]$/);
      // Every panel shows data, none the "not available" state.
      expect(await page.locator('[data-state]').count()).toBe(0);
      // the two stored signatures, and the run's own log (log:l), counted by this proxy's flywheel
      expect(await page.locator('table[data-panel="policy"] tr').count()).toBe(4);
      expect(await page.locator('table[data-panel="policy"]').textContent()).toContain('log:l');
      expect(await page.locator('table[data-panel="policy"]').textContent()).toContain('protected (expands)');
      expect(await page.locator('.frontier svg polyline').count()).toBeGreaterThan(0);
      expect(await page.locator('section svg').count()).toBeGreaterThanOrEqual(4);
      const screenshot = join(tmpdir(), `distil-dashboard-${Date.now()}.png`);
      await page.screenshot({ path: screenshot, fullPage: true });
      process.stdout.write(`dashboard screenshot: ${screenshot}\n`);
      expect(existsSync(screenshot)).toBe(true);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);
});
