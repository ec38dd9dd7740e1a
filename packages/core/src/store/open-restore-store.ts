import { join } from 'node:path';
import { parseOrThrow, type RestoreStore, RestoreStoreConfig } from '@distil/contract';
import { distilHome } from '../home.js';
import { DiskRestoreStore, type DiskRestoreStoreOptions } from './disk-store.js';
import { MemoryRestoreStore } from './memory-store.js';
import { RedisRestoreStore } from './redis-store.js';

/** A RestoreStore that holds a resource (a folder sweep, a connection) and must be closed. */
export type ClosableRestoreStore = RestoreStore & { close(): Promise<void> };

/** How a caller opens a store. */
export interface OpenStoreOptions {
  /**
   * Whether this opener starts the disk store's eviction sweep (default true). A reader that only
   * expands or searches passes false: a sweep lists every record, and eviction is for the writers.
   */
  readonly sweep?: boolean;
}

type BackendOpener<T extends RestoreStoreConfig['type']> = (
  config: Extract<RestoreStoreConfig, { type: T }>,
  home: string,
  options: OpenStoreOptions,
) => Promise<ClosableRestoreStore>;

/** The default folder of the disk store: `<home>/store`. */
export function defaultStorePath(home: string = distilHome()): string {
  return join(home, 'store');
}

/** The disk store's options for its config: the folder defaults to `<home>/store`. */
export function diskStoreOptions(
  config: Extract<RestoreStoreConfig, { type: 'disk' }>,
  home: string = distilHome(),
): DiskRestoreStoreOptions {
  return {
    path: config.path ?? defaultStorePath(home),
    ...(config.maxBytes !== undefined && { maxBytes: config.maxBytes }),
    ...(config.maxAgeDays !== undefined && { maxAgeDays: config.maxAgeDays }),
  };
}

/**
 * Every RestoreStore backend, by the `type` of its config. Each entry knows how to open itself; the
 * Redis entry loads ioredis only when it is chosen.
 */
export const RESTORE_STORE_BACKENDS: Readonly<{ [T in RestoreStoreConfig['type']]: BackendOpener<T> }> =
  Object.freeze({
    memory: async () => new MemoryRestoreStore(),
    disk: (config, home, options) =>
      DiskRestoreStore.open({
        ...diskStoreOptions(config, home),
        ...(options.sweep === false && { sweepOnOpen: false }),
      }),
    redis: (config) => RedisRestoreStore.connect({ url: config.url, ttlSeconds: config.ttlSeconds }),
  });

/**
 * Opens the RestoreStore a config names (validated here: a bad config raises ValidationError naming the
 * field). `home` locates the default disk store (`<home>/store`); default `distilHome()`.
 */
export async function openRestoreStore(
  config: RestoreStoreConfig,
  home: string = distilHome(),
  options: OpenStoreOptions = {},
): Promise<ClosableRestoreStore> {
  const parsed = parseOrThrow(RestoreStoreConfig, config, 'restoreStore config');
  const open = RESTORE_STORE_BACKENDS[parsed.type] as BackendOpener<typeof parsed.type>;
  return open(parsed, home, options);
}
