import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, stat } from 'node:fs/promises';

/** Mode of every store folder: only the owner may list, create or remove originals. */
export const FOLDER_MODE = 0o700;
/** Mode of every stored original: only the owner may read it. */
export const FILE_MODE = 0o600;

/** A store folder that is unsafe to use: owned by someone else, world-writable, or not a folder. */
export class UnsafeStoreFolderError extends Error {
  override readonly name = 'UnsafeStoreFolderError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`refusing to use restore store folder ${path}: ${reason}`);
  }
}

/** The current user id, or null where the platform has none (Windows): ownership is then not checked. */
function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

/**
 * Refuses a folder another user owns or anyone may write to (someone else could plant or swap originals
 * there, and a store must never serve bytes it did not write), then tightens group/other bits to 0700.
 * Tightening is safe where refusing would be unhelpful: a group-readable folder only leaked reads, and
 * taking that right away cannot let anyone in.
 */
export async function checkOwnerOnly(path: string, info: Stats): Promise<void> {
  if (!info.isDirectory()) throw new UnsafeStoreFolderError(path, 'it is not a folder');
  const uid = currentUid();
  if (uid !== null && info.uid !== uid) {
    throw new UnsafeStoreFolderError(path, `it is owned by uid ${info.uid}, not by this user (uid ${uid})`);
  }
  if (info.mode & 0o002) {
    throw new UnsafeStoreFolderError(
      path,
      `it is world-writable (mode ${octal(info.mode)}); check its contents, then \`chmod 700 ${path}\``,
    );
  }
  if (info.mode & 0o077) await chmod(path, FOLDER_MODE);
}

/**
 * Creates `path` (and missing parents) with mode 0700 when absent, then checks and tightens it with
 * `checkOwnerOnly`. The store root may be a symlink to a folder elsewhere (its target is checked); a
 * fan-out folder inside the store may not (`followLinks: false`).
 */
export async function ensureOwnerOnlyFolder(path: string, followLinks = true): Promise<void> {
  await mkdir(path, { recursive: true, mode: FOLDER_MODE });
  const info = followLinks ? await stat(path) : await lstat(path);
  await checkOwnerOnly(path, info);
}

/** Tightens a stored original's mode to 0600 when group or others have any right on it. */
export async function tightenFile(path: string, info: Stats): Promise<void> {
  if (info.mode & 0o177) await chmod(path, FILE_MODE);
}
