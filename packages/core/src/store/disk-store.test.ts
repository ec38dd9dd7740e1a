import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addressOf, HandleCollisionError, UnknownHandleError } from '@distil/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expand } from '../retrieval/expand.js';
import { DiskRestoreStore, type DiskRestoreStoreOptions } from './disk-store.js';
import { UnsafeStoreFolderError } from './owner-only-folder.js';
import { encodeRecord } from './stored-original.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const freshPath = (): string => join(mkdtempSync(join(tmpdir(), 'distil-disk-')), 'store');
const fileOf = (root: string, handle: string): string => join(root, handle.slice(3, 5), handle);
const mode = (path: string): number => statSync(path).mode & 0o777;
const DAY = 24 * 3600;

/**
 * Writes, under `mine`'s handle, the record of another original whose full digest shares the handle's 12
 * hex digits (a short-handle collision); returns the record's bytes.
 */
function plantCollision(path: string, mine: Uint8Array, theirs: Uint8Array): Buffer {
  const { handle, digest } = addressOf(mine);
  const colliding = digest.slice(0, 12) + (digest.slice(12, 13) === '0' ? '1' : '0') + digest.slice(13);
  const record = encodeRecord({ handle, digest: colliding }, theirs);
  mkdirSync(join(path, handle.slice(3, 5)), { recursive: true, mode: 0o700 });
  writeFileSync(fileOf(path, handle), record, { mode: 0o600 });
  return record;
}

describe('DiskRestoreStore', () => {
  // Each put costs two fsyncs (file and folder), so this property runs fewer cases than the memory
  // store's; the byte handling is shared with it and the record codec has its own tests.
  it('never resolves a forged or malformed handle (property, 10,000 cases)', async () => {
    const path = freshPath();
    const store = await DiskRestoreStore.open({ path });
    const held = new Set<string>();
    for (let i = 0; i < 20; i += 1) held.add(await store.put(bytes(`original ${i}`)));
    const forged = fc.oneof(
      fc.stringMatching(/^dh_[0-9a-f]{12}$/),
      fc.string({ maxLength: 40 }),
      fc.constantFrom('../../etc/passwd', 'dh_../../../x', `${[...held][0]}/..`, '', 'DH_0123456789AB'),
    );
    await fc.assert(
      fc.asyncProperty(forged, async (handle) => {
        fc.pre(!held.has(handle));
        await expect(expand(store, handle)).rejects.toBeInstanceOf(UnknownHandleError);
        await expect(store.get(handle)).rejects.toBeInstanceOf(UnknownHandleError);
      }),
      { numRuns: 10_000 },
    );
  });

  it('keeps folders 0700 and files 0600, and tightens looser ones on open', async () => {
    const path = freshPath();
    const store = await DiskRestoreStore.open({ path });
    const handle = await store.put(bytes('secret tool output'));
    expect(mode(path)).toBe(0o700);
    expect(mode(join(path, handle.slice(3, 5)))).toBe(0o700);
    expect(mode(fileOf(path, handle))).toBe(0o600);

    chmodSync(path, 0o755);
    chmodSync(join(path, handle.slice(3, 5)), 0o750);
    chmodSync(fileOf(path, handle), 0o644);
    const reopened = await DiskRestoreStore.open({ path });
    // folders are checked before open resolves, records by the sweep it starts
    expect(mode(path)).toBe(0o700);
    expect(mode(join(path, handle.slice(3, 5)))).toBe(0o700);
    await reopened.swept();
    expect(mode(fileOf(path, handle))).toBe(0o600);
  });

  it('refuses a world-writable store folder with a clear error', async () => {
    const path = freshPath();
    mkdirSync(path);
    chmodSync(path, 0o777);
    await expect(DiskRestoreStore.open({ path })).rejects.toThrow(UnsafeStoreFolderError);
    await expect(DiskRestoreStore.open({ path })).rejects.toThrow(/world-writable \(mode 0777\)/);
  });

  it('refuses a world-writable fan-out folder inside the store', async () => {
    const path = freshPath();
    const store = await DiskRestoreStore.open({ path });
    const handle = await store.put(bytes('x'));
    chmodSync(join(path, handle.slice(3, 5)), 0o777);
    await expect(DiskRestoreStore.open({ path })).rejects.toThrow(/world-writable/);
  });

  // Only root can give a folder away to another user; elsewhere this case cannot be set up.
  it.skipIf(process.getuid?.() !== 0)('refuses a store folder owned by another user', async () => {
    const path = freshPath();
    mkdirSync(path, { mode: 0o700 });
    chownSync(path, 12345, 12345);
    await expect(DiskRestoreStore.open({ path })).rejects.toThrow(/owned by uid 12345, not by this user/);
  });

  it('evicts records idle longer than maxAgeDays, in the sweep open starts', async () => {
    const path = freshPath();
    const store = await DiskRestoreStore.open({ path, maxAgeDays: 10 });
    const old = await store.put(bytes('old'));
    const recent = await store.put(bytes('recent'));
    const now = Date.now() / 1000;
    utimesSync(fileOf(path, old), now - 11 * DAY, now - 11 * DAY);
    utimesSync(fileOf(path, recent), now - 9 * DAY, now - 9 * DAY);
    // a reader that does not sweep leaves them
    const reader = await DiskRestoreStore.open({ path, maxAgeDays: 10, sweepOnOpen: false });
    await reader.swept();
    expect(readdirSync(join(path, old.slice(3, 5)))).toContain(old);
    // the sweep an open starts runs beside the caller's work
    const reopened = await DiskRestoreStore.open({ path, maxAgeDays: 10 });
    await reopened.swept();
    await expect(reopened.get(old)).rejects.toBeInstanceOf(UnknownHandleError);
    expect(await reopened.has(recent)).toBe(true);
  });

  it('a get refreshes the last-use time, which protects from age eviction', async () => {
    const path = freshPath();
    const store = await DiskRestoreStore.open({ path, maxAgeDays: 10 });
    const handle = await store.put(bytes('read again'));
    const now = Date.now() / 1000;
    utimesSync(fileOf(path, handle), now - 9.5 * DAY, now - 9.5 * DAY);
    await store.get(handle);
    expect(statSync(fileOf(path, handle)).mtimeMs).toBeGreaterThan((now - 60) * 1000);
    utimesSync(fileOf(path, handle), now - 9.5 * DAY, now - 9.5 * DAY);
    await store.put(bytes('read again'));
    expect(statSync(fileOf(path, handle)).mtimeMs).toBeGreaterThan((now - 60) * 1000);
  });

  it('sweeps once it wrote sweepEveryBytes of new records; re-puts of stored bytes do not count', async () => {
    const path = freshPath();
    const original = (i: number): Uint8Array => bytes(`${String(i).padStart(4, '0')}${'.'.repeat(96)}`);
    const recordSize = encodeRecord(addressOf(original(0)), original(0)).byteLength;
    const store = await DiskRestoreStore.open({
      path,
      maxBytes: recordSize * 5,
      sweepEveryBytes: recordSize * 4,
    });
    expect(store.sweepEveryPuts).toBe(Number.POSITIVE_INFINITY);
    const handles: string[] = [];
    const now = Date.now() / 1000;
    for (let i = 0; i < 8; i += 1) {
      handles.push(await store.put(original(i)));
      // stored bytes again: no new record, so no bytes toward the next sweep
      for (let k = 0; k < 5; k += 1) await store.put(original(i));
      await store.swept();
      utimesSync(fileOf(path, handles[i] as string), now - (100 - i), now - (100 - i));
    }
    // Sweeps ran after the 4th and the 8th new record only: at 8 records the 3 oldest went.
    for (const [i, handle] of handles.entries()) expect(await store.has(handle)).toBe(i >= 3);
    // the default: an eighth of maxBytes
    const defaults = await DiskRestoreStore.open({ path: freshPath(), maxBytes: 8_000 });
    expect(defaults.sweepEveryBytes).toBe(1_000);
    await expect(DiskRestoreStore.open({ path: freshPath(), sweepEveryBytes: 0 })).rejects.toThrow(
      'sweepEveryBytes must be positive',
    );
  });

  it('evicts the least recently used records past maxBytes, every sweepEveryPuts puts', async () => {
    const path = freshPath();
    const original = (i: number): Uint8Array => bytes(`${String(i).padStart(4, '0')}${'.'.repeat(96)}`);
    const recordSize = encodeRecord(addressOf(original(0)), original(0)).byteLength;
    const store = await DiskRestoreStore.open({ path, maxBytes: recordSize * 5, sweepEveryPuts: 4 });
    const handles: string[] = [];
    const now = Date.now() / 1000;
    for (let i = 0; i < 8; i += 1) {
      handles.push(await store.put(original(i)));
      await store.swept();
      // Distinct, increasing last-use times: handle i was used at now - (100 - i) seconds.
      utimesSync(fileOf(path, handles[i] as string), now - (100 - i), now - (100 - i));
    }
    // Sweeps ran after put 4 (4 records, under the bound) and after put 8 (8 records: the 3 oldest go).
    for (const [i, handle] of handles.entries()) expect(await store.has(handle)).toBe(i >= 3);
    const report = await store.sweep();
    expect(report).toMatchObject({ originals: 5, bytes: recordSize * 5, evictedBySize: 0, evictedByAge: 0 });
  });

  it('refuses an original larger than maxBytes rather than issue a handle it would evict', async () => {
    const store = await DiskRestoreStore.open({ path: freshPath(), maxBytes: 100 });
    await expect(store.put(new Uint8Array(200))).rejects.toThrow(/exceeds the disk store's maxBytes/);
  });

  it('removes temp files of dead writers in the sweep open starts, keeps live ones, and never reads them', async () => {
    const path = freshPath();
    const store = await DiskRestoreStore.open({ path });
    const handle = await store.put(bytes('complete'));
    const folder = join(path, handle.slice(3, 5));
    // pid 2^22 + 1 is above Linux's pid_max ceiling: certainly not a running process.
    const dead = join(folder, `.tmp-${2 ** 22 + 1}-abc`);
    const live = join(folder, `.tmp-${process.pid}-def`);
    writeFileSync(dead, 'partial');
    writeFileSync(live, 'in flight');
    const reopened = await DiskRestoreStore.open({ path });
    await reopened.swept();
    const report = await reopened.sweep();
    expect(report.tempFilesRemoved).toBe(0); // the sweep open started already removed the dead one
    expect(readdirSync(folder).sort()).toEqual([`.tmp-${process.pid}-def`, handle].sort());
    const anHourAgo = Date.now() / 1000 - 2 * 3600;
    utimesSync(live, anHourAgo, anHourAgo);
    expect((await store.sweep()).tempFilesRemoved).toBe(1);
  });

  it('leaves files it did not write alone', async () => {
    const path = freshPath();
    mkdirSync(join(path, 'ab'), { recursive: true, mode: 0o700 });
    writeFileSync(join(path, 'README'), 'mine');
    writeFileSync(join(path, 'ab', 'notes.txt'), 'mine too');
    utimesSync(join(path, 'ab', 'notes.txt'), 0, 0);
    await (await DiskRestoreStore.open({ path, maxBytes: 1, maxAgeDays: 1 })).sweep();
    expect(readFileSync(join(path, 'README'), 'utf8')).toBe('mine');
    expect(readFileSync(join(path, 'ab', 'notes.txt'), 'utf8')).toBe('mine too');
  });
});

// Puts go through either flavour of file calls (record-files.ts): the promise API, or blocking calls
// for a thread of its own; both must behave alike.
describe.each([
  { flavour: 'promise file calls', blockingWrites: false },
  { flavour: 'blocking file calls', blockingWrites: true },
])('DiskRestoreStore puts with $flavour', ({ blockingWrites }) => {
  const open = (options: DiskRestoreStoreOptions): Promise<DiskRestoreStore> =>
    DiskRestoreStore.open({ ...options, blockingWrites });

  it('round-trips any bytes exactly through files (property, 150 cases)', async () => {
    const store = await open({ path: freshPath() });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 256 }), async (original) => {
        const handle = await store.put(original);
        expect(await store.get(handle)).toEqual(original);
        expect(await store.has(handle)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('never serves a tampered, truncated or symlinked record', async () => {
    const path = freshPath();
    const store = await open({ path });
    const a = await store.put(bytes('first original\n'.repeat(20)));
    const b = await store.put(bytes('second original\n'.repeat(20)));
    const c = await store.put(bytes('third original\n'.repeat(20)));

    const tampered = readFileSync(fileOf(path, a));
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 5) ^ 0x20, tampered.length - 5);
    writeFileSync(fileOf(path, a), tampered);
    await expect(store.get(a)).rejects.toThrow(/SHA-256 verification/);

    truncateSync(fileOf(path, b), statSync(fileOf(path, b)).size - 7);
    await expect(store.get(b)).rejects.toThrow(/truncated/);

    // A record swapped for a symlink to a readable file elsewhere is not followed.
    const elsewhere = join(path, '..', 'elsewhere');
    writeFileSync(elsewhere, readFileSync(fileOf(path, c)));
    const cFile = fileOf(path, c);
    unlinkSync(cFile);
    symlinkSync(elsewhere, cFile);
    await expect(store.get(c)).rejects.toThrow(/symlink/);
    for (const handle of [a, b, c]) expect(await store.has(handle)).toBe(false);

    // A put of the true bytes repairs a damaged record.
    expect(await store.put(bytes('first original\n'.repeat(20)))).toBe(a);
    expect(new TextDecoder().decode(await store.get(a))).toBe('first original\n'.repeat(20));
  });

  it('detects a short-handle collision and never overwrites the record', async () => {
    const path = freshPath();
    const store = await open({ path });
    const mine = bytes('the original being folded now');
    const { handle } = addressOf(mine);
    const other = plantCollision(path, mine, bytes('somebody else'));

    await expect(store.put(mine)).rejects.toBeInstanceOf(HandleCollisionError);
    expect(readFileSync(fileOf(path, handle)).equals(other)).toBe(true);
    // And the handle does not resolve to the other bytes either: they fail verification.
    await expect(store.get(handle)).rejects.toBeInstanceOf(UnknownHandleError);
  });

  it('stage: the record reads back in another opener before its syncs are done (property, 100 cases)', async () => {
    const path = freshPath();
    const store = await open({ path });
    const reader = await open({ path, sweepOnOpen: false });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 256 }), async (original) => {
        const { handle, durable } = await store.stage(original);
        expect(handle).toBe(addressOf(original).handle);
        expect(await reader.get(handle)).toEqual(original);
        await durable;
        expect(await reader.get(handle)).toEqual(original);
      }),
      { numRuns: 100 },
    );
    // no temp name is left behind by a staged put
    for (const folder of readdirSync(path)) {
      for (const name of readdirSync(join(path, folder))) expect(name).toMatch(/^dh_[0-9a-f]{12}$/);
    }
  });

  it('stage: a collision is refused before a handle is given, and a re-stage owes no sync', async () => {
    const path = freshPath();
    const store = await open({ path });
    const mine = bytes('staged original');
    plantCollision(path, mine, bytes('other'));
    await expect(store.stage(mine)).rejects.toBeInstanceOf(HandleCollisionError);

    const again = bytes('staged twice');
    const first = await store.stage(again);
    await first.durable;
    const second = await store.stage(again);
    expect(second.handle).toBe(first.handle);
    // the record was already in place and synced: nothing is written or owed
    let owed = true;
    await Promise.race([second.durable.then(() => (owed = false)), Promise.resolve()]);
    expect(owed).toBe(false);
  });

  it('is idempotent: a re-put of the same bytes does not rewrite the record', async () => {
    const path = freshPath();
    const store = await open({ path });
    const handle = await store.put(bytes('same bytes'));
    const before = statSync(fileOf(path, handle)).ino;
    expect(await store.put(bytes('same bytes'))).toBe(handle);
    expect(statSync(fileOf(path, handle)).ino).toBe(before);
    expect(readdirSync(join(path, handle.slice(3, 5)))).toEqual([handle]);
  });

  it('recreates a fan-out folder removed while the store is open', async () => {
    const path = freshPath();
    const store = await open({ path });
    const handle = await store.put(bytes('first'));
    rmSync(join(path, handle.slice(3, 5)), { recursive: true });
    expect(await store.put(bytes('first'))).toBe(handle);
    expect(await store.has(handle)).toBe(true);
  });
});
