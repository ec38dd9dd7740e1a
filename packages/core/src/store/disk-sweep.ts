import type { Dirent } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { HANDLE_PATTERN } from '@distil/contract';
import { checkOwnerOnly, tightenFile } from './owner-only-folder.js';

/** Fan-out folder names: the first two hex digits of a handle's digest. */
export const FANOUT_PATTERN = /^[0-9a-f]{2}$/;
/** Temp files are `.tmp-<pid>-<random>` inside a fan-out folder; reads never open them. */
export const TEMP_PREFIX = '.tmp-';
/** A temp file older than this is removed even if its writer's pid looks alive (pids get reused). */
const TEMP_GRACE_MS = 60 * 60 * 1000;

/** Eviction bounds of a disk store. */
export interface EvictionPolicy {
  /** Total bytes of stored records above which the least recently used are removed. */
  readonly maxBytes: number;
  /** Records not read or written for longer than this are removed. */
  readonly maxAgeMs: number;
}

/** What one sweep found and did. */
export interface SweepReport {
  /** Originals kept after the sweep, and the bytes their records take. */
  readonly originals: number;
  readonly bytes: number;
  /** Originals removed because they were idle longer than maxAgeDays. */
  readonly evictedByAge: number;
  /** Originals removed, least recently used first, to bring the store under maxBytes. */
  readonly evictedBySize: number;
  /** Temp files of writers that died mid-write (or are older than an hour), removed. */
  readonly tempFilesRemoved: number;
}

interface StoredFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Whether a process with this id still runs (EPERM: it runs, as another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A temp file may go when its writer is gone, or when it is too old to belong to a live write. */
function tempIsAbandoned(name: string, mtimeMs: number, now: number): boolean {
  const pid = Number(name.slice(TEMP_PREFIX.length).split('-')[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  return now - mtimeMs > TEMP_GRACE_MS || !processAlive(pid);
}

async function removeIfUnchanged(file: StoredFile): Promise<boolean> {
  try {
    // A `get` may have touched the file since it was listed: then it is in use again, so keep it.
    const now = await lstat(file.path);
    if (now.mtimeMs !== file.mtimeMs) return false;
    await unlink(file.path);
    return true;
  } catch {
    return false;
  }
}

async function listFolder(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Checks (and tightens) the store's fan-out folders: a folder owned by another user or writable by anyone
 * raises UnsafeStoreFolderError. One entry per folder (at most 256): what opening a store checks before
 * it is used, while the records are swept beside the caller's work.
 */
export async function checkFanoutFolders(root: string): Promise<void> {
  for (const fanout of await listFolder(root)) {
    if (!FANOUT_PATTERN.test(fanout.name)) continue;
    const folder = join(root, fanout.name);
    await checkOwnerOnly(folder, await lstat(folder));
  }
}

/**
 * One pass over a disk store: checks and tightens permissions (0700 folders, 0600 files), removes the temp
 * files of crashed writers, evicts records idle longer than maxAge, then evicts the least recently used
 * (oldest mtime first) until the total is within maxBytes. Anything that is not a fan-out folder, a handle
 * file or a temp file is left alone: the sweep never deletes what it did not write.
 */
export async function sweepStore(
  root: string,
  policy: EvictionPolicy,
  now = Date.now(),
): Promise<SweepReport> {
  const files: StoredFile[] = [];
  let tempFilesRemoved = 0;
  for (const fanout of await listFolder(root)) {
    if (!FANOUT_PATTERN.test(fanout.name)) continue;
    const folder = join(root, fanout.name);
    const folderInfo = await lstat(folder);
    await checkOwnerOnly(folder, folderInfo);
    for (const entry of await listFolder(folder)) {
      const path = join(folder, entry.name);
      if (entry.name.startsWith(TEMP_PREFIX)) {
        const info = await lstat(path).catch(() => null);
        if (info && tempIsAbandoned(entry.name, info.mtimeMs, now)) {
          await unlink(path).catch(() => undefined);
          tempFilesRemoved += 1;
        }
        continue;
      }
      if (!entry.isFile() || !HANDLE_PATTERN.test(entry.name) || entry.name.slice(3, 5) !== fanout.name)
        continue;
      const info = await lstat(path).catch(() => null);
      if (!info) continue;
      await tightenFile(path, info);
      files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
    }
  }

  let evictedByAge = 0;
  const kept: StoredFile[] = [];
  for (const file of files) {
    if (now - file.mtimeMs > policy.maxAgeMs && (await removeIfUnchanged(file))) evictedByAge += 1;
    else kept.push(file);
  }

  let bytes = kept.reduce((sum, file) => sum + file.size, 0);
  let evictedBySize = 0;
  kept.sort((a, b) => a.mtimeMs - b.mtimeMs);
  for (const file of kept) {
    if (bytes <= policy.maxBytes) break;
    if (await removeIfUnchanged(file)) {
      bytes -= file.size;
      evictedBySize += 1;
    }
  }
  return {
    originals: kept.length - evictedBySize,
    bytes,
    evictedByAge,
    evictedBySize,
    tempFilesRemoved,
  };
}
