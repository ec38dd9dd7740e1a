import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../src/index.js';

// A configured keep model that does not load is never a silent swap: the proxy still starts (on the
// salience rules) and says "fallback" in its log and in /distil/health.

describe('a keep model that does not load', () => {
  it('falls back to the rules and says so', async () => {
    const home = mkdtempSync(join(tmpdir(), 'distil-fallback-'));
    const logs: string[] = [];
    const proxy = await startProxy({
      port: 0,
      home,
      config: {
        keepModel: { type: 'logistic', weights: join(home, 'missing.json') },
        restoreStore: { type: 'memory' },
      },
      log: (line) => logs.push(line),
    });
    try {
      expect(logs.join('\n')).toMatch(/keep model "logistic" did not load: fallback to the salience rules/);
      const health = (await (await fetch(`${proxy.url}/distil/health`)).json()) as Record<string, unknown>;
      expect(health).toMatchObject({ ok: true, keepModel: 'salience', keepModelStatus: 'fallback' });
    } finally {
      await proxy.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('reports no fallback when the configured model runs', async () => {
    const home = mkdtempSync(join(tmpdir(), 'distil-fallback-'));
    const proxy = await startProxy({
      port: 0,
      home,
      config: { keepModel: { type: 'logistic' }, restoreStore: { type: 'memory' } },
      log: () => {},
    });
    try {
      const health = (await (await fetch(`${proxy.url}/distil/health`)).json()) as Record<string, unknown>;
      expect(health['keepModelStatus']).toBeUndefined();
      expect(health['keepModel']).not.toBe('salience');
    } finally {
      await proxy.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
