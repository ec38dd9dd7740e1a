export { DiskRestoreStore, type DiskRestoreStoreOptions, type StagedPut } from './disk-store.js';
export type { EvictionPolicy, SweepReport } from './disk-sweep.js';
export {
  DEFAULT_MEMORY_STORE_MAX_BYTES,
  MemoryRestoreStore,
  type MemoryRestoreStoreOptions,
  type PackedOriginal,
  type PackedPuts,
  packOriginal,
  takesPacked,
} from './memory-store.js';
export {
  type ClosableRestoreStore,
  defaultStorePath,
  diskStoreOptions,
  type OpenStoreOptions,
  openRestoreStore,
  RESTORE_STORE_BACKENDS,
} from './open-restore-store.js';
export { FILE_MODE, FOLDER_MODE, UnsafeStoreFolderError } from './owner-only-folder.js';
export { RedisRestoreStore, type RedisRestoreStoreOptions } from './redis-store.js';
