import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  addressOf,
  type ContentAddress,
  type Handle,
  HandleCollisionError,
  type RestoreStore,
  UnknownHandleError,
} from '@distil/contract';
import { checkFanoutFolders, type SweepReport, sweepStore, TEMP_PREFIX } from './disk-sweep.js';
import { ensureOwnerOnlyFolder } from './owner-only-folder.js';
import { blockingFiles, errorCode, pooledFiles, READ_FLAGS, type RecordFiles } from './record-files.js';
import { compareExisting, decodeRecord, encodeRecord, isWellFormedHandle } from './stored-original.js';

/** Options of the on-disk store. Defaults match `RestoreStoreConfig` for `type: "disk"`. */
export interface DiskRestoreStoreOptions {
  /** Folder of the store (created 0700 when absent). */
  readonly path: string;
  /** Evict least recently used originals once the records exceed this many bytes (default 1 GiB). */
  readonly maxBytes?: number;
  /** Evict originals not read or written for this many days (default 30). */
  readonly maxAgeDays?: number;
  /**
   * Run the eviction sweep once this store has written this many bytes of new records since its last
   * one (default `maxBytes / 8`); one also starts on open. A sweep reads every record's metadata, so its
   * cost grows with the store: a trigger by bytes keeps that cost per byte put the same at any size.
   */
  readonly sweepEveryBytes?: number;
  /** Also run it after this many puts (default: only by bytes). */
  readonly sweepEveryPuts?: number;
  /**
   * Sweep on open (default true): the fan-out folders are checked before `open` resolves, the records
   * are swept beside the caller's work (`swept()` waits for it). A reader that never puts (`distil
   * expand`, a second opener of a folder another one already swept such as a proxy's compress worker)
   * passes false: a sweep lists every record (~47 µs a record here), which a 100,000-record store made
   * seconds of every expand. Its puts still start sweeps of their own.
   */
  readonly sweepOnOpen?: boolean;
  /**
   * Put records with blocking file calls (default false): for a thread that does nothing else meanwhile,
   * such as the proxy's compress worker, where they cost a third of the CPU of the promise API's round trips (see
   * record-files.ts). Reads, syncs and sweeps stay asynchronous.
   */
  readonly blockingWrites?: boolean;
}

const DAY_MS = 24 * 3600 * 1000;
/** Reads refresh a record's mtime (its "last use") at most this often, so hot reads cost no metadata write. */
const MAX_TOUCH_INTERVAL_MS = 3600 * 1000;
/** Errors of filesystems without hard links, where `put` falls back to rename. */
const NO_LINK_CODES = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS']);

/** A put whose record is in place: its handle, and when the record is durable (see DiskRestoreStore.stage). */
export interface StagedPut {
  readonly handle: Handle;
  readonly durable: Promise<void>;
}

/** A record written under a temp name: whether it took the handle's name, and the syncs it owes. */
interface Written {
  readonly placed: boolean;
  readonly durable: Promise<void>;
}

/** The `durable` of a record that was already in place (written by an earlier put). */
const DURABLE: Promise<void> = Promise.resolve();

/** Makes a directory entry durable; some platforms cannot fsync a folder, which then costs nothing. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } catch (error) {
    if (!['EINVAL', 'EISDIR', 'EPERM', 'EBADF'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

/**
 * The default RestoreStore: one file per original under `<path>/<2 hex>/<handle>` (the fan-out keeps
 * folders small), each a record holding the full SHA-256 digest and the bytes (see stored-original.ts).
 *
 * - Owner-only: folders 0700, files 0600, checked and tightened on open; a folder owned by another user or
 *   writable by anyone is refused (UnsafeStoreFolderError). Records are opened with O_NOFOLLOW.
 * - Atomic and crash-safe: a put writes a temp file in the same folder, fsyncs it, links it into place
 *   (a hard link, unlike rename, never replaces an existing record, so two writers racing with colliding
 *   originals cannot overwrite each other), removes the temp name and fsyncs the folder. A crash leaves at
 *   worst a temp file, which reads never open and the next open removes.
 * - Verified: every get re-hashes the bytes against the full digest; a put that finds a different digest
 *   under its handle raises HandleCollisionError and leaves the record alone.
 * - Evicting: by age (mtime = last put or get) and by size (oldest mtime first), on open and once the
 *   store wrote `sweepEveryBytes` of new records (or `sweepEveryPuts` puts) since its last sweep.
 */
export class DiskRestoreStore implements RestoreStore {
  readonly path: string;
  readonly maxBytes: number;
  readonly maxAgeMs: number;
  readonly sweepEveryBytes: number;
  readonly sweepEveryPuts: number;
  readonly #touchIntervalMs: number;
  readonly #readyFolders = new Set<string>();
  readonly #files: RecordFiles;
  #putsSinceSweep = 0;
  #bytesSinceSweep = 0;
  #sweeping: Promise<SweepReport> | null = null;

  private constructor(options: DiskRestoreStoreOptions) {
    this.path = resolve(options.path);
    this.maxBytes = options.maxBytes ?? 1024 ** 3;
    this.maxAgeMs = (options.maxAgeDays ?? 30) * DAY_MS;
    // Every 256 puts, as this once was, a proxy with a store of 100,000 records spent seconds of CPU
    // listing it every few requests; by bytes, a full 1 GiB store is listed once per 128 MiB written.
    this.sweepEveryBytes = options.sweepEveryBytes ?? this.maxBytes / 8;
    this.sweepEveryPuts = options.sweepEveryPuts ?? Number.POSITIVE_INFINITY;
    for (const [name, value] of [
      ['maxBytes', this.maxBytes],
      ['maxAgeDays', options.maxAgeDays ?? 30],
      ['sweepEveryBytes', this.sweepEveryBytes],
      ['sweepEveryPuts', options.sweepEveryPuts ?? 1],
    ] as const) {
      if (!(value > 0) || !Number.isFinite(value))
        throw new RangeError(`${name} must be positive, got ${value}`);
    }
    this.#touchIntervalMs = Math.min(MAX_TOUCH_INTERVAL_MS, this.maxAgeMs / 100);
    this.#files = options.blockingWrites === true ? blockingFiles : pooledFiles;
  }

  /**
   * Opens (creating when absent) the store folder and checks ownership and permissions, its fan-out
   * folders' too, then (unless `sweepOnOpen` is false) starts an eviction sweep, which also removes temp
   * files of crashed writers, without waiting for it. Throws UnsafeStoreFolderError for an unsafe folder.
   */
  static async open(options: DiskRestoreStoreOptions): Promise<DiskRestoreStore> {
    const store = new DiskRestoreStore(options);
    await ensureOwnerOnlyFolder(store.path);
    if (options.sweepOnOpen !== false) {
      await checkFanoutFolders(store.path);
      store.sweep().catch(() => {});
    }
    return store;
  }

  /** Stores `original` (idempotent: an existing identical record is only touched, never rewritten). */
  async put(original: Uint8Array): Promise<Handle> {
    const { handle, durable } = await this.stage(original);
    await durable;
    return handle;
  }

  /**
   * `put` in two steps: the record is in place, readable by `get` in any thread or process, when this
   * resolves; `durable` resolves once it and its folder entry are fsynced. A collision is found before
   * this resolves, because the record takes its name first: a handle staged here never names another
   * original. The syncs are what a put waits for (two fsyncs a record, most of its time), and a caller
   * that only needs the handle to be durable before anyone can act on it — the proxy, before the reply
   * that carries it reaches the client — overlaps them with other work. Until `durable` resolves a power
   * loss can leave the record damaged (its bytes fail the digest check, and `get` refuses it), never
   * another original's bytes; a killed process leaves it complete (the bytes were written before the
   * name was taken).
   */
  async stage(original: Uint8Array): Promise<StagedPut> {
    const address = addressOf(original);
    const record = encodeRecord(address, original);
    if (record.byteLength > this.maxBytes) {
      throw new RangeError(
        `an original of ${original.byteLength} bytes exceeds the disk store's maxBytes (${this.maxBytes})`,
      );
    }
    const folder = await this.#fanoutFolder(address.handle);
    const target = join(folder, address.handle);
    const existing = this.#files.looksFirst ? await this.#files.readIfPresent(target) : null;
    let durable: Promise<void> = DURABLE;
    if (existing === null || !(await this.#settleExisting(address, original, target, existing))) {
      let written: Written;
      try {
        written = await this.#writeInPlace(address, original, record, folder, target);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
        // The fan-out folder vanished under us (the store was cleared by hand): recreate it, try once more.
        this.#readyFolders.delete(folder);
        await this.#fanoutFolder(address.handle);
        written = await this.#writeInPlace(address, original, record, folder, target);
      }
      durable = written.durable;
      if (written.placed) this.#bytesSinceSweep += record.byteLength;
    }
    this.#putsSinceSweep += 1;
    // The sweep reads every record's metadata: it runs beside the request that stored this original, not
    // in front of it (a failed sweep only leaves eviction to the next one).
    if (this.#putsSinceSweep >= this.sweepEveryPuts || this.#bytesSinceSweep >= this.sweepEveryBytes)
      this.sweep().catch(() => {});
    return { handle: address.handle, durable };
  }

  /** The original, byte for byte, after full digest verification; refreshes its last-use time. */
  async get(handle: Handle): Promise<Uint8Array> {
    if (!isWellFormedHandle(handle)) throw new UnknownHandleError(String(handle), 'not a well-formed handle');
    const path = join(this.path, handle.slice(3, 5), handle);
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(path, READ_FLAGS);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw new UnknownHandleError(handle);
      if (errorCode(error) === 'ELOOP') throw new UnknownHandleError(handle, 'the stored entry is a symlink');
      throw error;
    }
    try {
      const info = await file.stat();
      if (!info.isFile()) throw new UnknownHandleError(handle, 'the stored entry is not a regular file');
      const original = decodeRecord(handle, await file.readFile());
      const now = Date.now();
      if (now - info.mtimeMs > this.#touchIntervalMs)
        await file.utimes(now / 1000, now / 1000).catch(() => {});
      return original;
    } finally {
      await file.close();
    }
  }

  /** Whether `get` would succeed (a full verified read, which also counts as a use). */
  async has(handle: Handle): Promise<boolean> {
    try {
      await this.get(handle);
      return true;
    } catch (error) {
      if (error instanceof UnknownHandleError) return false;
      throw error;
    }
  }

  /**
   * Runs one eviction sweep now (also tightens permissions and removes abandoned temp files). Concurrent
   * callers share the running sweep.
   */
  async sweep(): Promise<SweepReport> {
    if (!this.#sweeping) {
      this.#putsSinceSweep = 0;
      this.#bytesSinceSweep = 0;
      this.#sweeping = sweepStore(this.path, { maxBytes: this.maxBytes, maxAgeMs: this.maxAgeMs }).finally(
        () => {
          this.#sweeping = null;
        },
      );
    }
    return this.#sweeping;
  }

  /** Waits for the sweep running now, if any (a put starts one, see `sweepEveryBytes`). */
  async swept(): Promise<void> {
    await this.#sweeping?.catch(() => {});
  }

  /** Waits for a running sweep; the store holds no other resources. */
  async close(): Promise<void> {
    await this.swept();
  }

  async #fanoutFolder(handle: Handle): Promise<string> {
    const folder = join(this.path, handle.slice(3, 5));
    if (!this.#readyFolders.has(folder)) {
      await ensureOwnerOnlyFolder(folder, false);
      this.#readyFolders.add(folder);
    }
    return folder;
  }

  /** True when the existing record already holds `original` (then only touched); throws on a collision. */
  async #settleExisting(
    address: ContentAddress,
    original: Uint8Array,
    target: string,
    existing: Buffer,
  ): Promise<boolean> {
    const verdict = compareExisting(address, original, existing);
    if (verdict.kind === 'collision') throw new HandleCollisionError(address.handle);
    if (verdict.kind === 'damaged') return false;
    await this.#files.touch(target);
    return true;
  }

  /**
   * Writes the record under a temp name in its folder, takes the handle's name for it (see #publish) and
   * removes the temp name; returns whether it took the name, and the syncs still owed: the record's
   * bytes, then the folder entry (none when the same record was there already).
   */
  async #writeInPlace(
    address: ContentAddress,
    original: Uint8Array,
    record: Buffer,
    folder: string,
    target: string,
  ): Promise<Written> {
    const temp = join(folder, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
    const file = await this.#files.writeNew(temp, record);
    let placed: boolean;
    try {
      placed = await this.#publish(address, original, temp, target);
    } catch (error) {
      await file.close().catch(() => {});
      throw error;
    } finally {
      await this.#files.unlink(temp).catch(() => {});
    }
    if (!placed) {
      await file.close();
      return { placed, durable: DURABLE };
    }
    const durable = file.synced().then(() => syncFolder(folder));
    // a caller that never waits for it must not see an unhandled rejection; one that waits sees the error
    durable.catch(() => {});
    return { placed, durable };
  }

  /**
   * Moves a complete temp file into place without ever replacing a good record: true when it did, false
   * when the same record was in place already (only touched then).
   */
  async #publish(
    address: ContentAddress,
    original: Uint8Array,
    temp: string,
    target: string,
  ): Promise<boolean> {
    try {
      await this.#files.link(temp, target);
      return true;
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') {
        const existing = await this.#files.readIfPresent(target);
        if (existing !== null && (await this.#settleExisting(address, original, target, existing)))
          return false;
      } else if (!NO_LINK_CODES.has(code ?? '')) {
        throw error;
      }
    }
    // The target is absent, damaged (same digest, bad bytes) or links are unsupported: replace by rename.
    await this.#files.rename(temp, target);
    return true;
  }
}
