import { SalienceKeepModel } from '@distil/codec';
import { type Block, type ModelPrice, TierConfig, type Trajectory, type Turn } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { pipelineCompressor } from '../session/block-compressor.js';
import { MemoryRestoreStore } from '../store/memory-store.js';
import { billTurn, TokenMeter } from './request-cost.js';
import { simulate } from './simulate.js';

const price: ModelPrice = {
  input: 3,
  output: 15,
  cacheWrite5m: 3.75,
  cacheWrite1h: 6,
  cacheRead: 0.3,
  minCacheableTokens: 1024,
};

let ids = 0;
const block = (role: Block['role'], text: string, kind: Block['kind'] = 'tool_output'): Block => ({
  id: `b${ids++}`,
  role,
  kind,
  text,
  trusted: role !== 'tool',
});

/** A Python module of `n` functions; `version` changes one function's body. */
function module(n: number, version: number): string {
  let out = 'import os\nimport sys\n\n';
  for (let i = 0; i < n; i++) {
    out += `\ndef handler_${i}(request, retries=3):\n    """Handle request kind ${i}."""\n`;
    out += `    payload = request.get("payload_${i}")\n    if payload is None:\n        raise ValueError("missing payload ${i}")\n`;
    const limit = i === 7 ? 100 + version : 100;
    out += `    for attempt in range(retries):\n        if attempt > ${limit}:\n            break\n    return payload\n`;
  }
  return out;
}

/** A pytest run over the handlers; handler 7 fails until the last pass. */
function pytest(pass: number): string {
  let out = '============================= test session starts ==============================\n';
  for (let i = 0; i < 30; i++) {
    out += `tests/test_handlers.py::test_handler_${i} ${i === 7 && pass < 9 ? 'FAILED' : 'PASSED'} [${Math.round((i / 30) * 100)}%]\n`;
  }
  out +=
    pass < 9
      ? `FAILED tests/test_handlers.py::test_handler_7 - AssertionError: attempt ${100 + pass} > 10\n=== 1 failed, 29 passed in ${(1.5 + pass / 10).toFixed(2)}s ===\n`
      : '=== 30 passed in 1.62s ===\n';
  return out;
}

/** read → edit → test → re-read, ten times over, the loop a coding agent runs. */
function codingLoop(): Trajectory {
  const turns: Turn[] = [];
  const system = block(
    'system',
    `You are a coding agent. ${'Follow the repository conventions. '.repeat(120)}`,
    'doc',
  );
  turns.push({
    blocks: [system, block('user', 'handler_7 retries forever; fix it.', 'chat')],
    decision: { type: 'tool_call', tool: 'read', arguments: { path: 'app.py' } },
  });
  for (let v = 0; v < 10; v++) {
    turns.push({
      blocks: [
        block('assistant', `Reading app.py (pass ${v}).`, 'chat'),
        block('tool', module(40, v), 'source'),
      ],
      decision: { type: 'tool_call', tool: 'edit', arguments: { path: 'app.py', line: 60 + v } },
    });
    turns.push({
      blocks: [block('assistant', 'Editing the retry limit.', 'chat'), block('tool', 'File updated.')],
      decision: { type: 'tool_call', tool: 'pytest', arguments: {} },
    });
    turns.push({
      blocks: [block('assistant', 'Running the tests.', 'chat'), block('tool', pytest(v), 'log')],
      decision: { type: 'tool_call', tool: 'read', arguments: { path: 'app.py' } },
    });
  }
  return { format: 'distil.trajectory/v1', id: 'coding-loop', turns, outcome: null };
}

describe('billTurn', () => {
  it('splits a cacheable request into cache reads and writes, and bills a short one as input', () => {
    const cached = { enabled: true as const, ttl: '5m' as const };
    expect(billTurn(1, 5000, 4000, 100, price, cached)).toEqual({
      turn: 1,
      requestTokens: 5000,
      cacheRead: 4000,
      cacheWrite: 1000,
      fresh: 0,
      output: 100,
      usd: (4000 * 0.3 + 1000 * 3.75 + 100 * 15) / 1e6,
    });
    // a shared prefix below the minimum is not a cache hit; a request below the minimum is plain input
    expect(billTurn(1, 5000, 900, 0, price, cached)).toMatchObject({ cacheRead: 0, cacheWrite: 5000 });
    expect(billTurn(1, 900, 800, 0, price, cached)).toMatchObject({
      cacheRead: 0,
      cacheWrite: 0,
      fresh: 900,
    });
    expect(billTurn(1, 5000, 4000, 0, price, { enabled: false })).toMatchObject({
      cacheRead: 0,
      fresh: 5000,
    });
    expect(billTurn(0, 5000, 0, 0, price, { enabled: true, ttl: '1h' }).usd).toBeCloseTo(
      (5000 * 6) / 1e6,
      12,
    );
  });
});

describe('TokenMeter.commonPrefix', () => {
  it('counts whole identical blocks, then the identical start of the first that differs', () => {
    const meter = new TokenMeter();
    const a = ['alpha beta gamma', 'delta epsilon'];
    expect(meter.commonPrefix(a, [...a, 'zeta'])).toBe(meter.segment(a[0]!) + meter.segment(a[1]!));
    expect(meter.commonPrefix(a, ['omega'])).toBe(0);
    const partial = meter.commonPrefix(a, ['alpha beta gamma', 'delta theta']);
    expect(partial).toBeGreaterThan(meter.segment(a[0]!));
    expect(partial).toBeLessThan(meter.segment(a[0]!) + meter.segment(a[1]!));
  });
});

describe('simulate', () => {
  it('on a read → edit → re-read loop: distil beats cache only, naive compression busts the cache', async () => {
    const store = new MemoryRestoreStore();
    const keepModel = new SalienceKeepModel();
    const compress = pipelineCompressor({ keepModel, store, tiers: TierConfig.parse({}) });
    const trajectory = codingLoop();
    const report = await simulate(trajectory, price, ['cache-only', 'naive', 'distil'], {
      compress,
      store,
      keepModel,
    });
    const [baseline, cacheOnly, naive, distil] = report.strategies;
    expect(report.strategies.map((s) => s.strategy)).toEqual(['baseline', 'cache-only', 'naive', 'distil']);
    for (const s of report.strategies) {
      expect(s.turns).toHaveLength(trajectory.turns.length);
      for (const t of s.turns) expect(t.cacheRead + t.cacheWrite + t.fresh).toBe(t.requestTokens);
    }
    expect(baseline!.vsBaseline).toBe(0);
    expect(baseline!.totals.cacheRead).toBe(0);
    expect(cacheOnly!.totals.usd).toBeLessThan(baseline!.totals.usd);
    expect(naive!.totals.usd).toBeGreaterThan(cacheOnly!.totals.usd);
    expect(naive!.totals.cacheRead).toBeLessThan(cacheOnly!.totals.cacheRead);
    expect(distil!.totals.usd).toBeLessThan(cacheOnly!.totals.usd * 0.6);
    // same decisions, same output tokens under every strategy
    expect(new Set(report.strategies.map((s) => s.totals.output)).size).toBe(1);
  });

  it('reports only the strategies asked for, with the baseline first', async () => {
    const store = new MemoryRestoreStore();
    const keepModel = new SalienceKeepModel();
    const compress = pipelineCompressor({ keepModel, store, tiers: TierConfig.parse({}) });
    const report = await simulate(codingLoop(), price, ['distil'], { compress, store, keepModel });
    expect(report.strategies.map((s) => s.strategy)).toEqual(['baseline', 'distil']);
  });
});
