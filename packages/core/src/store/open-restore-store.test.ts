import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RestoreStoreConfig, ValidationError } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { DiskRestoreStore } from './disk-store.js';
import { MemoryRestoreStore } from './memory-store.js';
import { openRestoreStore, RESTORE_STORE_BACKENDS } from './open-restore-store.js';

const home = (): string => join(mkdtempSync(join(tmpdir(), 'distil-home-')), 'home');

describe('openRestoreStore', () => {
  it('opens the disk store under <home>/store by default, owner-only', async () => {
    const dir = home();
    const store = await openRestoreStore({ type: 'disk', maxBytes: 1024 ** 3, maxAgeDays: 30 }, dir);
    expect(store).toBeInstanceOf(DiskRestoreStore);
    expect((store as DiskRestoreStore).path).toBe(join(dir, 'store'));
    expect(statSync(join(dir, 'store')).mode & 0o777).toBe(0o700);
    const handle = await store.put(new TextEncoder().encode('kept'));
    expect(new TextDecoder().decode(await store.get(handle))).toBe('kept');
    await store.close();
  });

  it('honours a configured disk path and bounds, and opens the memory store', async () => {
    const path = join(home(), 'elsewhere');
    const disk = (await openRestoreStore({
      type: 'disk',
      path,
      maxBytes: 4096,
      maxAgeDays: 2,
    })) as DiskRestoreStore;
    expect([disk.path, disk.maxBytes, disk.maxAgeMs]).toEqual([path, 4096, 2 * 24 * 3600 * 1000]);
    expect(await openRestoreStore({ type: 'memory' })).toBeInstanceOf(MemoryRestoreStore);
  });

  it('rejects a bad config naming the field, before opening anything', async () => {
    const bad = { type: 'disk', maxBytes: -1, maxAgeDays: 30 } as RestoreStoreConfig;
    await expect(openRestoreStore(bad, home())).rejects.toBeInstanceOf(ValidationError);
    await expect(openRestoreStore(bad, home())).rejects.toThrow(/maxBytes/);
    const unknown = { type: 'tape' } as unknown as RestoreStoreConfig;
    await expect(openRestoreStore(unknown, home())).rejects.toThrow(/type/);
  });

  it('resolves backends from a frozen table', () => {
    expect(Object.isFrozen(RESTORE_STORE_BACKENDS)).toBe(true);
    expect(Object.keys(RESTORE_STORE_BACKENDS).sort()).toEqual(['disk', 'memory', 'redis']);
  });
});
