import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { z } from 'zod';
import { writeFileAtomic, writeFileAtomicAsync } from '../atomic-file.js';

/** A lock older than this is left over from a crashed writer and is broken. */
const STALE_LOCK_MS = 10_000;
/** Give up waiting for a live lock after this long. */
const LOCK_WAIT_MS = 5_000;
/** Between two attempts at a lock held by someone else. */
const LOCK_RETRY_MS = 15;

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number): void => {
  Atomics.wait(pause, 0, 0, ms);
};

/**
 * One attempt at `lock`, an exclusively created file (O_EXCL): true when taken. A lock left by a crashed
 * process is broken once stale; waiting longer than LOCK_WAIT_MS since `started` is an error.
 */
function tryLock(lock: string, started: number): boolean {
  try {
    closeSync(openSync(lock, 'wx', 0o600));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
    } catch {
      // the holder released it between our open and stat: try again
    }
    if (Date.now() - started > LOCK_WAIT_MS) throw new Error(`timed out waiting for the lock ${lock}`);
    return false;
  }
}

/**
 * Runs `critical` while holding `${path}.lock`, so two processes updating the same statistics (a proxy
 * and a `distil certify-trajectories` run) never lose each other's counts.
 */
export function withFileLock<T>(path: string, critical: () => T): T {
  const lock = `${path}.lock`;
  const started = Date.now();
  while (!tryLock(lock, started)) sleepSync(LOCK_RETRY_MS);
  try {
    return critical();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** withFileLock for a server: waiting for the lock and the work under it never block the event loop. */
export async function withFileLockAsync<T>(path: string, critical: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const started = Date.now();
  while (!tryLock(lock, started)) await delay(LOCK_RETRY_MS);
  try {
    return await critical();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * The statistics stored at `path`: parsed with `schema`, or `empty` when the file does not exist. A file
 * that does not parse is an error naming it (statistics are never silently reset: a reset could only make
 * Distil less conservative).
 */
export function readStats<S extends z.ZodType>(path: string, schema: S, empty: () => z.infer<S>): z.infer<S> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    throw error;
  }
  return parseStats(path, text, schema);
}

async function readStatsAsync<S extends z.ZodType>(
  path: string,
  schema: S,
  empty: () => z.infer<S>,
): Promise<z.infer<S>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    throw error;
  }
  return parseStats(path, text, schema);
}

function parseStats<S extends z.ZodType>(path: string, text: string, schema: S): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON; move it aside to start the learned statistics afresh`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `${path} does not hold learned statistics: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

const serialise = (stats: unknown): string => `${JSON.stringify(stats, null, 2)}\n`;

/** Read-modify-write of the statistics at `path`, under the lock, written atomically. */
export function updateStats<S extends z.ZodType>(
  path: string,
  schema: S,
  empty: () => z.infer<S>,
  update: (stats: z.infer<S>) => z.infer<S>,
): z.infer<S> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return withFileLock(path, () => {
    const next = update(readStats(path, schema, empty));
    writeFileAtomic(path, serialise(next));
    return next;
  });
}

/** updateStats without blocking the event loop (a proxy writes its counts while it serves). */
export async function updateStatsAsync<S extends z.ZodType>(
  path: string,
  schema: S,
  empty: () => z.infer<S>,
  update: (stats: z.infer<S>) => z.infer<S>,
): Promise<z.infer<S>> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  return withFileLockAsync(path, async () => {
    const next = update(await readStatsAsync(path, schema, empty));
    await writeFileAtomicAsync(path, serialise(next));
    return next;
  });
}
