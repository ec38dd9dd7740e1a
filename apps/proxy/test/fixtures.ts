import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SalienceKeepModel } from '@distil/codec';
import { MemoryRestoreStore } from '@distil/core';
import { afterAll, beforeAll } from 'vitest';
import { type RunningProxy, type StartProxyOptions, startProxy } from '../src/index.js';
import { FakeUpstream } from './fake-upstream.js';

/** A build log of `lines` lines with one failure in the middle: long enough to be folded. */
export function buildLog(lines: number, tag = 'build'): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i === Math.floor(lines / 2)) out.push(`ERROR ${tag}: test_widget_${i} failed: expected 3, got 4`);
    else out.push(`INFO ${tag} step ${i}: compiled module_${i}.ts in ${(i * 7) % 50} ms`);
  }
  return `${out.join('\n')}\n`;
}

/** The first handle a text shows in a fold stub. */
export function firstHandle(text: string): string {
  const match = /handle=(dh_[0-9a-f]{12})/.exec(text);
  if (!match) throw new Error(`no stub in: ${text.slice(0, 200)}`);
  return match[1]!;
}

/**
 * A proxy on a free loopback port pointed at a fake upstream (either stand-in), with an in-memory store and a Distil home
 * of its own (removed when it closes, unless the test gave one): nothing a test does reaches the real
 * home, and no test sees what another one learned.
 */
export async function startTestProxy(
  upstream: Pick<FakeUpstream, 'url'>,
  options: Partial<StartProxyOptions> = {},
): Promise<RunningProxy & { logs: string[]; store: MemoryRestoreStore; home: string }> {
  const logs: string[] = [];
  const store = new MemoryRestoreStore();
  const ownHome = options.home ? null : mkdtempSync(join(tmpdir(), 'distil-proxy-test-'));
  const home = options.home ?? ownHome!;
  const proxy = await startProxy({
    port: 0,
    anthropicUpstream: upstream.url,
    openaiUpstream: upstream.url,
    store,
    keepModel: new SalienceKeepModel(),
    log: (line) => logs.push(line),
    home,
    ...options,
  });
  const close = proxy.close;
  return Object.assign(proxy, {
    logs,
    store,
    home,
    close: async () => {
      await close();
      if (ownHome) rmSync(ownHome, { recursive: true, force: true });
    },
  });
}

/** A started proxy of startTestProxy. */
export type TestProxy = Awaited<ReturnType<typeof startTestProxy>>;

/**
 * A fake upstream and a proxy in front of it for the tests of one `describe` block: started before its
 * tests and closed after them. Read `env.upstream` and `env.proxy` inside the tests.
 */
export function useTestProxy(options: Partial<StartProxyOptions> = {}): {
  readonly upstream: FakeUpstream;
  readonly proxy: TestProxy;
} {
  const env = {} as { upstream: FakeUpstream; proxy: TestProxy };
  beforeAll(async () => {
    env.upstream = await new FakeUpstream().start();
    env.proxy = await startTestProxy(env.upstream, options);
  });
  afterAll(async () => {
    await env.proxy?.close();
    await env.upstream?.close();
  });
  return env;
}
