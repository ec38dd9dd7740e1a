import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { SalienceKeepModel } from '@distil/codec';
import { DistilConfig, handleFor, type RestoreStore } from '@distil/contract';
import { compressBlock, DiskRestoreStore, MemoryRestoreStore, type PackedOriginal } from '@distil/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentialDigest, ownsHandle } from '../src/expand/handle-owners.js';
import { CompressPool } from '../src/pool/compress-pool.js';
import { SyncsOwed } from '../src/pool/syncs-owed.js';
import { FakeUpstream, type ReceivedRequest } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy, type TestProxy } from './fixtures.js';

// Large new tool outputs are compressed in the proxy's worker threads. Everything here goes through a
// real proxy on 127.0.0.1 and a fake upstream: what reaches the upstream must be the bytes the proxy
// sends when it compresses in its own thread, and handles folded in a worker must expand exactly.

/** A ~60 KB build log: over the size the proxy compresses in-thread, so it goes to a worker. */
const BIG = buildLog(1000, 'pool');
const SMALL = buildLog(60, 'small');

function request(id: string, log: string): Record<string, unknown> {
  return {
    model: 'claude-sonnet-4-6',
    max_tokens: 64,
    messages: [
      { role: 'user', content: `why does the build fail (${id})` },
      { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'bash', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${id}`, content: log }] },
    ],
  };
}

async function post(proxy: TestProxy, body: unknown, session: string): Promise<Response> {
  return fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'sk-test',
      'anthropic-version': '2023-06-01',
      'x-distil-session': session,
    },
    body: JSON.stringify(body),
  });
}

/** The body the upstream received for a session's request. */
function receivedFor(upstream: FakeUpstream, id: string): ReceivedRequest {
  const found = upstream.received.find((r) => r.body.includes(`why does the build fail (${id})`));
  if (!found) throw new Error(`the upstream saw no request ${id}`);
  return found;
}

/**
 * Scripts the upstream's next two replies: the model expands the first stub it sees, then answers
 * "found it". Returns the handle it expanded, once it has.
 */
function expandFirstHandle(upstream: FakeUpstream): () => string {
  let handle = '';
  upstream.script(
    (req) => {
      handle = firstHandle(req.body);
      return {
        kind: 'anthropic',
        content: [{ type: 'tool_use', id: 'toolu_x', name: 'distil_expand', input: { handle } }],
      };
    },
    { kind: 'anthropic', content: [{ type: 'text', text: 'found it' }] },
  );
  return () => handle;
}

/** A proxy that loads its keep model from config, as installed (a KeepModel object keeps it in-thread). */
const byConfig = (compressWorkers: number) => ({
  keepModel: undefined,
  config: { keepModel: { type: 'salience' as const }, proxy: { compressWorkers } },
});

describe('compression in worker threads', { timeout: 20_000 }, () => {
  const upstream = new FakeUpstream();
  let pooled: TestProxy;
  let inThread: TestProxy;
  beforeAll(async () => {
    await upstream.start();
    [pooled, inThread] = await Promise.all([
      startTestProxy(upstream, byConfig(1)),
      startTestProxy(upstream, byConfig(0)),
    ]);
  });
  afterAll(async () => {
    await Promise.all([pooled.close(), inThread.close()]);
    await upstream.close();
  });

  it('starts its worker and says so', () => {
    expect(pooled.logs).toContain('1 compress worker ready');
    expect(inThread.logs.join('\n')).not.toMatch(/compress worker/);
  });

  it('hands its worker the token table of its own thread, which the worker counts with', () => {
    // a worker that could not use the proxy's table says so once it is ready (and builds its own)
    expect(pooled.logs.join('\n')).not.toMatch(/tables of their own/);
  });

  it('answers a big cold block and a concurrent small request, with the bytes of in-thread compression', async () => {
    const [big, small] = await Promise.all([
      post(pooled, request('big', BIG), 'pooled-big'),
      post(pooled, request('small', SMALL), 'pooled-small'),
    ]);
    expect([big.status, small.status]).toEqual([200, 200]);
    await Promise.all([big.text(), small.text()]);
    const bigAlone = await post(inThread, request('big', BIG), 'alone-big');
    const smallAlone = await post(inThread, request('small', SMALL), 'alone-small');
    await Promise.all([bigAlone.text(), smallAlone.text()]);
    // the worker counts the block's tokens after its answer, while the request is upstream: the reply
    // reports the counts this thread makes
    const saved = Number(big.headers.get('x-distil-saved-tokens'));
    expect(saved).toBeGreaterThan(1000);
    expect(saved).toBe(Number(bigAlone.headers.get('x-distil-saved-tokens')));

    const sent = upstream.received.filter((r) => r.body.includes('(big)')).map((r) => r.body);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(sent[1]);
    // the block was folded (the bytes differ from the client's), not sent whole
    expect(sent[0]).toMatch(/handle=dh_[0-9a-f]{12}/);
    expect(sent[0]!.length).toBeLessThan(JSON.stringify(request('big', BIG)).length / 2);
    const smallSent = upstream.received.filter((r) => r.body.includes('(small)')).map((r) => r.body);
    expect(smallSent[0]).toBe(smallSent[1]);
    expect(pooled.logs.join('\n')).not.toMatch(/compressing in the proxy's thread/);
  });

  it('expands a handle folded in a worker to the exact original lines', async () => {
    const log = buildLog(1200, 'expand');
    const handleOf = expandFirstHandle(upstream);
    const reply = await post(pooled, request('expand', log), 'pooled-expand');
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain('found it');
    const original = new TextDecoder().decode(await pooled.store.get(handleOf() as `dh_${string}`));
    expect(log).toContain(original);
    expect(original.split('\n').length).toBeGreaterThan(10);
    // the follow-up the proxy sent upstream carries the original bytes as the expand's result
    const followUp = upstream.received.at(-1)!;
    const results = JSON.stringify(followUp.json);
    expect(results).toContain(JSON.stringify(original).slice(1, -1));
    // and the in-thread proxy folds the same lines behind the same handle
    await (await post(inThread, request('expand', log), 'alone-expand')).text();
    expect(receivedFor(upstream, 'expand').body).toContain(`handle=${handleOf()}`);
  });
});

describe('compress workers beside a memory store', { timeout: 20_000 }, () => {
  /** A memory store that counts how originals reach it: whole (hashed and deflated here) or packed. */
  class CountingStore extends MemoryRestoreStore {
    whole = 0;
    packed = 0;
    override put(original: Uint8Array) {
      this.whole++;
      return super.put(original);
    }
    override putPacked(packed: PackedOriginal) {
      this.packed++;
      return super.putPacked(packed);
    }
  }
  let pool: CompressPool;
  beforeAll(async () => {
    pool = new CompressPool({
      size: 1,
      keepModel: { type: 'salience' },
      tiers: DistilConfig.parse({}).tiers,
      log: () => {},
    });
    await pool.ready;
  });
  afterAll(() => pool.close());
  const compressIn = (store: RestoreStore, text: string) =>
    pool.compress(
      { id: 'b', role: 'tool', kind: 'log', text, trusted: false },
      { keepModel: new SalienceKeepModel(), store, tiers: DistilConfig.parse({}).tiers },
    );

  it('files originals the worker hashed and deflated, each expanding to its exact bytes', async () => {
    const store = new CountingStore();
    const text = buildLog(1000, 'packed');
    const compressed = await compressIn(store, text);
    expect(compressed.handles.length).toBeGreaterThan(0);
    // this thread neither hashed nor deflated an original: each came packed, once
    expect(store.whole).toBe(0);
    expect(store.packed).toBe(new Set(compressed.handles).size);
    for (const handle of compressed.handles) {
      const original = await store.get(handle);
      expect(handleFor(original)).toBe(handle);
      expect(text).toContain(new TextDecoder().decode(original));
    }
    // the same block compressed in this thread gives the same bytes behind the same handles
    const here = await compressBlock(
      { id: 'b', role: 'tool', kind: 'log', text, trusted: false },
      {
        keepModel: new SalienceKeepModel(),
        store: new MemoryRestoreStore(),
        tiers: DistilConfig.parse({}).tiers,
      },
    );
    expect(compressed.text).toBe(here.text);
  });

  it('puts whole originals into a store that takes no packed ones', async () => {
    const inner = new CountingStore();
    const plain: RestoreStore = {
      put: (original) => inner.put(original),
      get: (handle) => inner.get(handle),
      has: (handle) => inner.has(handle),
    };
    const compressed = await compressIn(plain, buildLog(1000, 'whole'));
    expect(compressed.handles.length).toBeGreaterThan(0);
    expect(inner.packed).toBe(0);
    expect(inner.whole).toBeGreaterThanOrEqual(new Set(compressed.handles).size);
  });
});

describe('a pool of several workers', { timeout: 40_000 }, () => {
  it('starts one, adds one while blocks wait, lets them go once idle, and starts one again', async () => {
    const tiers = DistilConfig.parse({}).tiers;
    const pool = new CompressPool({
      size: 2,
      idleWorkerMs: 3000,
      keepModel: { type: 'salience' },
      tiers,
      log: () => {},
    });
    const options = { keepModel: new SalienceKeepModel(), tiers };
    const block = (text: string) => ({ id: 'b', role: 'tool', kind: 'log', text, trusted: false }) as const;
    const same = async (text: string, compressed: { text: string }) => {
      const here = await compressBlock(block(text), { ...options, store: new MemoryRestoreStore() });
      expect(compressed.text).toBe(here.text);
    };
    try {
      await pool.ready;
      expect(pool.threads).toBe(1);
      const texts = Array.from({ length: 4 }, (_, k) => buildLog(1000, `several-${k}`));
      const pooled = await Promise.all(
        texts.map((text) => pool.compress(block(text), { ...options, store: new MemoryRestoreStore() })),
      );
      // four blocks at once: the second worker was started for them (it may still be warming up)
      expect(pool.threads).toBe(2);
      for (const [k, text] of texts.entries()) await same(text, pooled[k]!);
      // idle: both leave, and their memory with them
      await vi.waitFor(() => expect(pool.threads).toBe(0), { timeout: 20_000, interval: 100 });
      // the next block is compressed here while a worker starts again for the ones after it
      const text = buildLog(1000, 'after-idle');
      await same(text, await pool.compress(block(text), { ...options, store: new MemoryRestoreStore() }));
      expect(pool.threads).toBe(1);
      expect(pool.state).toBe('ready');
    } finally {
      await pool.close();
    }
  });
});

describe('compress workers that cannot start', { timeout: 20_000 }, () => {
  const upstream = new FakeUpstream();
  const folder = mkdtempSync(join(tmpdir(), 'distil-pool-test-'));
  let proxy: TestProxy;
  let inThread: TestProxy;
  beforeAll(async () => {
    await upstream.start();
    // a worker file that fails as it loads (as a broken install or a bundler's leftover would)
    const broken = join(folder, 'compress-worker.mjs');
    writeFileSync(broken, "throw new Error('this worker cannot start');\n");
    [proxy, inThread] = await Promise.all([
      startTestProxy(upstream, {
        ...byConfig(1),
        compressWorkerScript: { filename: pathToFileURL(broken).href, execArgv: [] },
      }),
      startTestProxy(upstream, byConfig(0)),
    ]);
  });
  afterAll(async () => {
    await Promise.all([proxy.close(), inThread.close()]);
    await upstream.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('logs one reason and compresses in-thread, to the same bytes', async () => {
    for (const [target, session] of [
      [proxy, 'broken'],
      [inThread, 'fine'],
    ] as const) {
      const reply = await post(target, request('fallback', BIG), session);
      expect(reply.status).toBe(200);
      await reply.text();
    }
    await (await post(proxy, request('again', BIG), 'broken-2')).text();
    const fallbacks = proxy.logs.filter((line) => /compressing in the proxy's thread/.test(line));
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatch(/^the compress workers did not start \(Error\)/);
    const sent = upstream.received.filter((r) => r.body.includes('(fallback)')).map((r) => r.body);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(sent[1]);
    expect(sent[0]).toMatch(/handle=dh_/);
  });
});

describe('compress workers beside a disk store', { timeout: 20_000 }, () => {
  // A proxy that opened its disk store from config has its workers put the originals there themselves;
  // the proxy's thread then reads them back for an expand.
  const upstream = new FakeUpstream();
  const folder = mkdtempSync(join(tmpdir(), 'distil-pool-disk-'));
  let onDisk: TestProxy;
  let inThread: TestProxy;
  beforeAll(async () => {
    await upstream.start();
    [onDisk, inThread] = await Promise.all([
      startTestProxy(upstream, {
        keepModel: undefined,
        store: undefined,
        config: {
          keepModel: { type: 'salience' },
          proxy: { compressWorkers: 1 },
          restoreStore: { type: 'disk', path: join(folder, 'store') },
        },
      }),
      startTestProxy(upstream, byConfig(0)),
    ]);
  });
  afterAll(async () => {
    await Promise.all([onDisk.close(), inThread.close()]);
    await upstream.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('sends the bytes of in-thread compression, every fold on disk as the worker put it', async () => {
    expect(onDisk.logs).toContain('1 compress worker ready');
    expect(onDisk.logs.join('\n')).not.toMatch(/did not open|compressing in the proxy's thread/);
    const log = buildLog(1100, 'disk');
    await (await post(onDisk, request('disk', log), 'disk-a')).text();
    await (await post(inThread, request('disk', log), 'disk-b')).text();
    const sent = upstream.received.filter((r) => r.body.includes('(disk)')).map((r) => r.body);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(sent[1]);
    const handles = [...sent[0]!.matchAll(/handle=(dh_[0-9a-f]{12})/g)].map((m) => m[1] as `dh_${string}`);
    expect(handles.length).toBeGreaterThan(0);
    const store = await DiskRestoreStore.open({ path: join(folder, 'store') });
    for (const handle of handles) expect(log).toContain(new TextDecoder().decode(await store.get(handle)));
    // the caller's grants for them, which let it expand them on any replica, are on disk too
    const owner = credentialDigest({ 'x-api-key': 'sk-test' });
    for (const handle of handles) expect(await ownsHandle(store, handle, owner)).toBe(true);
    expect(await ownsHandle(store, handles[0]!, credentialDigest({ 'x-api-key': 'sk-other' }))).toBe(false);
  });

  it('expands a handle the worker stored, from the proxy’s thread', async () => {
    const log = buildLog(1200, 'disk-expand');
    const handleOf = expandFirstHandle(upstream);
    const reply = await post(onDisk, request('disk-expand', log), 'disk-expand');
    expect(await reply.text()).toContain('found it');
    const results = JSON.stringify(upstream.received.at(-1)!.json);
    const store = await DiskRestoreStore.open({ path: join(folder, 'store') });
    const original = new TextDecoder().decode(await store.get(handleOf() as `dh_${string}`));
    expect(original.split('\n').length).toBeGreaterThan(10);
    expect(results).toContain(JSON.stringify(original).slice(1, -1));
  });

  it('puts the originals from the worker, not from the proxy’s thread', async () => {
    const path = join(folder, 'pool-store');
    const pool = new CompressPool({
      size: 1,
      keepModel: { type: 'salience' },
      tiers: DistilConfig.parse({}).tiers,
      diskStore: { path },
      log: () => {},
    });
    await pool.ready;
    try {
      // the store this thread would put into: it must receive nothing
      const here = new MemoryRestoreStore();
      const text = buildLog(1000, 'worker-puts');
      const block = { id: 'b', role: 'tool', kind: 'log', text, trusted: false } as const;
      const compressed = await pool.compress(block, {
        keepModel: new SalienceKeepModel(),
        store: here,
        tiers: DistilConfig.parse({}).tiers,
      });
      expect(compressed.handles.length).toBeGreaterThan(0);
      expect(here.size).toBe(0);
      const disk = await DiskRestoreStore.open({ path });
      for (const handle of compressed.handles)
        expect(text).toContain(new TextDecoder().decode(await disk.get(handle)));
      // and originals handed to it, such as a request's grants, go to the disk store from the worker too
      const grant = new TextEncoder().encode('a grant the worker puts');
      await pool.putInDiskStore([grant]);
      expect(await disk.has(handleFor(grant))).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('with syncs owed, a worker answers once its records are in place and says when they are synced', async () => {
    const path = join(folder, 'staged-store');
    const lines: string[] = [];
    const syncs = new SyncsOwed((line) => lines.push(line));
    const pool = new CompressPool({
      size: 1,
      keepModel: { type: 'salience' },
      tiers: DistilConfig.parse({}).tiers,
      diskStore: { path },
      syncs,
      log: () => {},
    });
    await pool.ready;
    try {
      const text = buildLog(1000, 'staged-puts');
      const block = { id: 'b', role: 'tool', kind: 'log', text, trusted: false } as const;
      const options = { keepModel: new SalienceKeepModel(), tiers: DistilConfig.parse({}).tiers };
      const compressed = await pool.compress(block, { ...options, store: new MemoryRestoreStore() });
      // the same bytes as compressing here
      const here = await compressBlock(block, { ...options, store: new MemoryRestoreStore() });
      expect(compressed.text).toBe(here.text);
      expect(compressed.handles.length).toBeGreaterThan(0);
      // owed until the worker says they are synced, and readable from another opener before that
      expect(syncs.size).toBeGreaterThan(0);
      const disk = await DiskRestoreStore.open({ path, sweepOnOpen: false });
      for (const handle of compressed.handles)
        expect(text).toContain(new TextDecoder().decode(await disk.get(handle)));
      await syncs.syncedFor(compressed.handles);
      await vi.waitFor(() => expect(syncs.size).toBe(0));
      expect(lines).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('hands the originals back when the disk store will not open in a worker', async () => {
    const lines: string[] = [];
    const pool = new CompressPool({
      size: 1,
      keepModel: { type: 'salience' },
      tiers: DistilConfig.parse({}).tiers,
      // a folder under a file: mkdir fails with ENOTDIR
      diskStore: { path: join(folder, 'not-a-folder', 'store') },
      log: (line) => lines.push(line),
    });
    writeFileSync(join(folder, 'not-a-folder'), '');
    await pool.ready;
    try {
      expect(lines.join('\n')).toMatch(/the disk store did not open in a compress worker \(Error ENOTDIR\)/);
      expect(pool.putInDiskStore([new TextEncoder().encode('put here instead')])).toBeNull();
      const store = new MemoryRestoreStore();
      const text = buildLog(1000, 'handed');
      const block = { id: 'b', role: 'tool', kind: 'log', text, trusted: false } as const;
      const compressed = await pool.compress(block, {
        keepModel: new SalienceKeepModel(),
        store,
        tiers: DistilConfig.parse({}).tiers,
      });
      expect(compressed.handles.length).toBeGreaterThan(0);
      for (const handle of compressed.handles)
        expect(text).toContain(new TextDecoder().decode(await store.get(handle)));
    } finally {
      await pool.close();
    }
  });
});

describe('a proxy started with V8 flags', { timeout: 60_000 }, () => {
  // Node refuses V8 and process-wide flags in a worker's own flag list: a proxy run as
  // `node --max-semi-space-size=4 …` (the young generation capped to save memory) lost its workers
  // and compressed in-thread.
  it('still starts its compress worker', async () => {
    const child = fileURLToPath(new URL('./fixtures/proxy-with-flags.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--max-semi-space-size=4', '--title=distil-flags', '--import', 'tsx', child],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 50_000 },
    );
    const logs = JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
    expect(logs).toContain('1 compress worker ready');
    expect(logs.join('\n')).not.toMatch(/did not start/);
  });
});
