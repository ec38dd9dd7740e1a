import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const tempPath = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);

/**
 * Writes `data` to `path` so that a reader sees the old file or the new one, never a torn mix, even if
 * the process dies mid-write: write a temporary file in the same folder, fsync it, rename it over the
 * target (rename is atomic within a file system, POSIX rename(2)), then fsync the folder so the rename
 * itself survives a crash. Folders are created owner-only; the file is owner-only too.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const temp = tempPath(path);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncFolder(folder);
}

/**
 * writeFileAtomic without blocking the event loop: the same steps on `fs/promises`, for a server that
 * writes while it serves (an fsync can take tens of milliseconds on a busy disk).
 */
export async function writeFileAtomicAsync(path: string, data: string | Uint8Array): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const temp = tempPath(path);
  const file = await open(temp, 'wx', 0o600);
  try {
    await file.writeFile(data);
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temp, { force: true });
    throw error;
  }
  await file.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  try {
    const handle = await open(folder, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // Some file systems refuse fsync on a folder; the rename has still happened.
  }
}

function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename has still happened.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
