import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskRestoreStore, type StagedPut } from '@distil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream } from './fake-upstream.js';
import { buildLog, firstHandle, startTestProxy } from './fixtures.js';

// Against the disk store a new record is put in place before its request goes upstream, and its fsyncs
// run while the model reads it: the reply waits for them, so no client ever holds a handle whose record
// a power loss could take. Here the syncs are held open by the test, through a real proxy on 127.0.0.1.

/** A disk store whose records become durable only when the test says (or fail to). */
class GatedDiskStore {
  #open: (() => void) | null = null;
  #fail: ((error: Error) => void) | null = null;
  readonly #gate: Promise<void>;

  private constructor(readonly disk: DiskRestoreStore) {
    this.#gate = new Promise<void>((resolve, reject) => {
      this.#open = resolve;
      this.#fail = reject;
    });
    this.#gate.catch(() => {});
  }

  static async open(): Promise<GatedDiskStore> {
    const path = join(mkdtempSync(join(tmpdir(), 'distil-synced-reply-')), 'store');
    return new GatedDiskStore(await DiskRestoreStore.open({ path }));
  }

  async stage(original: Uint8Array): Promise<StagedPut> {
    const staged = await this.disk.stage(original);
    return { handle: staged.handle, durable: Promise.all([staged.durable, this.#gate]).then(() => {}) };
  }

  async put(original: Uint8Array): Promise<string> {
    const { handle, durable } = await this.stage(original);
    await durable;
    return handle;
  }

  get(handle: string): Promise<Uint8Array> {
    return this.disk.get(handle as `dh_${string}`);
  }

  has(handle: string): Promise<boolean> {
    return this.disk.has(handle as `dh_${string}`);
  }

  sync(): void {
    this.#open?.();
  }

  failSync(): void {
    this.#fail?.(Object.assign(new Error('input/output error'), { code: 'EIO' }));
  }
}

function post(url: string, id: string): Promise<Response> {
  return fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'sk-test',
      'anthropic-version': '2023-06-01',
      'x-distil-session': id,
    },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      messages: [
        { role: 'user', content: `why does the build fail (${id})` },
        { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'bash', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${id}`, content: buildLog(1000, id) }],
        },
      ],
    }),
  });
}

/** Whether `promise` is still pending after the event loop had `ms` to settle it. */
async function stillPending(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return !settled;
}

describe('a reply waits for the syncs of the records its request named', () => {
  const upstream = new FakeUpstream();
  beforeAll(() => upstream.start());
  afterAll(() => upstream.close());

  it('the request goes upstream with its records in place, and the reply comes once they are synced', async () => {
    const store = await GatedDiskStore.open();
    const proxy = await startTestProxy(upstream, { store });
    try {
      const reply = post(proxy.url, 'gated');
      await expect.poll(() => upstream.received.length, { timeout: 4000 }).toBeGreaterThan(0);
      const sent = upstream.received.at(-1)!.body;
      const handle = firstHandle(sent);
      // upstream has the request and its handle reads back from the store, but the syncs are owed
      expect(new TextDecoder().decode(await store.disk.get(handle as `dh_${string}`))).toContain('\n');
      expect(await stillPending(reply, 300)).toBe(true);
      store.sync();
      const response = await reply;
      expect(response.status).toBe(200);
      await response.text();
      expect(proxy.logs.filter((line) => line.includes('fsync'))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('a sync that fails is logged and the reply still comes', async () => {
    const store = await GatedDiskStore.open();
    const proxy = await startTestProxy(upstream, { store });
    try {
      const before = upstream.received.length;
      const reply = post(proxy.url, 'failing');
      await expect.poll(() => upstream.received.length, { timeout: 4000 }).toBeGreaterThan(before);
      expect(await stillPending(reply, 200)).toBe(true);
      store.failSync();
      const response = await reply;
      expect(response.status).toBe(200);
      await response.text();
      expect(proxy.logs.some((line) => line.includes("a record's fsync was not confirmed (EIO)"))).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
