import {
  closeSync,
  close as closeWithCallback,
  constants,
  fsync as fsyncWithCallback,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { link, open, readFile, rename, unlink, utimes } from 'node:fs/promises';
import { FILE_MODE } from './owner-only-folder.js';

/**
 * The file operations a disk store puts a record with, in two flavours that behave alike:
 * - `pooled` (the default): node's promise API, each call a round trip through libuv's thread pool, so
 *   the calling thread is never blocked — right for a thread that also serves requests.
 * - `blocking`: the same calls done in place, for a thread of its own (the proxy's compress worker). A
 *   record of a few KB costs a handful of small file operations (create, write, link, unlink, and a
 *   look first through the pool); as round trips they took ~0.5 ms a record here, in place ~0.17 ms, and
 *   a new 200 KB tool result puts ~60 records. The fsync still goes to the pool: it waits on the disk,
 *   not the CPU.
 */
export interface RecordFiles {
  /**
   * Whether a put looks for an existing record before it writes one. Through the pool the look is one
   * round trip and spares a re-put its write; in place a miss costs more than it spares (node builds an
   * Error for every failed call, ~10 µs here), and the link, which refuses a taken name, finds a re-put.
   */
  readonly looksFirst: boolean;
  /** The file's bytes; null when absent; empty when something other than a file (a symlink) is there. */
  readIfPresent(path: string): Promise<Buffer | null>;
  /** Creates `path` (never an existing one) holding `bytes`; the file stays open until `synced`. */
  writeNew(path: string, bytes: Uint8Array): Promise<WrittenFile>;
  link(from: string, to: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Sets the last-use time to now; a failure is ignored (the record is only evicted sooner). */
  touch(path: string): Promise<void>;
}

/** A file just written, still open. */
export interface WrittenFile {
  /** Fsyncs the bytes and closes the file. */
  synced(): Promise<void>;
  /** Closes the file without a sync (the write is being abandoned). */
  close(): Promise<void>;
}

export const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** A failed file call's system code (ENOENT, EEXIST, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** What a failed read of a record's path means: absent (null), damage to replace (empty), or an error. */
function absentOrDamaged(error: unknown): Buffer | null {
  if (errorCode(error) === 'ENOENT') return null;
  // A symlink or other oddity under a handle's name is damage: the put replaces it by rename.
  if (errorCode(error) === 'ELOOP') return Buffer.alloc(0);
  throw error;
}

const nowSeconds = (): number => Date.now() / 1000;

export const pooledFiles: RecordFiles = {
  looksFirst: true,
  readIfPresent: (path) => readFile(path, { flag: READ_FLAGS }).catch(absentOrDamaged),
  async writeNew(path, bytes) {
    const file = await open(path, 'wx', FILE_MODE);
    try {
      await file.writeFile(bytes);
    } catch (error) {
      await file.close().catch(() => {});
      throw error;
    }
    return { synced: () => file.sync().finally(() => file.close()), close: () => file.close() };
  },
  link,
  rename,
  unlink,
  touch: (path) => utimes(path, nowSeconds(), nowSeconds()).catch(() => {}),
};

export const blockingFiles: RecordFiles = {
  looksFirst: false,
  async readIfPresent(path) {
    let fd: number;
    try {
      fd = openSync(path, READ_FLAGS);
    } catch (error) {
      return absentOrDamaged(error);
    }
    try {
      return readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  },
  async writeNew(path, bytes) {
    const fd = openSync(path, 'wx', FILE_MODE);
    try {
      for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    const closed = (): Promise<void> =>
      new Promise((resolve, reject) => closeWithCallback(fd, (error) => (error ? reject(error) : resolve())));
    return {
      synced: () =>
        new Promise<void>((resolve, reject) =>
          fsyncWithCallback(fd, (error) => (error ? reject(error) : resolve())),
        ).finally(closed),
      close: closed,
    };
  },
  async link(from, to) {
    linkSync(from, to);
  },
  async rename(from, to) {
    renameSync(from, to);
  },
  async unlink(path) {
    unlinkSync(path);
  },
  async touch(path) {
    try {
      utimesSync(path, nowSeconds(), nowSeconds());
    } catch {}
  },
};
