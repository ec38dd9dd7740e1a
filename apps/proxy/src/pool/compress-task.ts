import type { MessagePort } from 'node:worker_threads';
import type { Block, KeepContext, KeepModelConfig, TierConfig } from '@distil/contract';
import type { CompressedBlock, DiskRestoreStoreOptions, PackedOriginal } from '@distil/core';
import type { BypassReason } from '../fail-open/part-failure.js';
import type { RecordedPut } from './recording-store.js';
import type { SharedText } from './shared-text.js';

/** What every compress worker is started with: the keep model to rebuild, the tiers, the token table. */
export interface CompressWorkerData {
  readonly keepModel: KeepModelConfig;
  readonly tiers: TierConfig;
  /**
   * The proxy thread's o200k table (`sharedTokenTable()`): a SharedArrayBuffer, so every worker counts
   * with the same memory. Absent when the proxy's thread could not build it; a worker then builds its own.
   */
  readonly tokenTable?: SharedArrayBuffer;
  /**
   * The proxy's disk store, when it opened one from its config: a folder any thread may write (every put
   * atomic, idempotent and collision-checked on disk), so a worker puts its originals there itself.
   * Absent, a worker hands its originals back to the proxy's thread, which owns the store.
   */
  readonly diskStore?: DiskRestoreStoreOptions;
}

/** A worker's answer to the ready check. */
export interface ReadyAnswer {
  readonly ready: true;
  /** False when the worker counts with a token table of its own: none, or not a table, was handed to it. */
  readonly sharedTokenTable: boolean;
  /** Why the worker hands its originals back although it was given the disk store (it did not open). */
  readonly storeUnopened?: string;
}

/**
 * One block to compress, with what the session gives `compressBlock` beside it. Everything here crosses
 * to the worker by structured clone (a Set of anchors included).
 */
export interface CompressTask {
  /** The block, its text empty when `text` holds it. */
  readonly block: Block;
  /** The block's text in shared memory (see shared-text.ts). */
  readonly text?: SharedText;
  readonly anchors?: ReadonlySet<string>;
  readonly context?: KeepContext;
  /**
   * The proxy's store files packed originals (the memory store): the worker answers its originals hashed
   * and deflated (`packed`), work the proxy's event loop would otherwise do.
   */
  readonly pack?: true;
  /**
   * The worker answers once the block is compressed, then says on this port what it did after: the
   * token counts, and the syncs of the records it staged (one AfterMessage).
   */
  readonly after?: MessagePort;
  /**
   * The worker puts into the disk store in two steps (DiskRestoreStore.stage): it answers once its
   * records are in place, and the proxy owes their syncs (see SyncsOwed). Without it a put is whole.
   */
  readonly stage?: true;
}

/** What a worker posts on a task's `after` port once it counted the block and its records are synced. */
export interface AfterMessage {
  /** Null once the staged records are durable (or there were none), else why a sync failed. */
  readonly failed: string | null;
  /** o200k tokens of the block and of the compressed text, when compression changed the block. */
  readonly tokens?: { readonly original: number; readonly compressed: number };
}

/**
 * An error `compressBlock` raised in the worker, as far as the proxy uses it: its part (`keep-model`
 * when the keep model threw; absent for anything else), class, system code and message (kept in memory
 * only: the log prints the class and code, never the message).
 */
export interface WorkerFailure {
  readonly reason?: BypassReason;
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** A worker's answer: the compressed block and the originals to store, or the error compression raised. */
export type CompressAnswer =
  | {
      readonly ok: true;
      readonly compressed: CompressedBlock;
      /**
       * The originals for the proxy's thread to put (none when the worker put them in the disk store, or
       * packed them).
       */
      readonly puts: readonly RecordedPut[];
      /** The originals packed, for the proxy's thread to file (a task with `pack`), each once. */
      readonly packed?: readonly PackedOriginal[];
      /** Handles the worker staged in the disk store (a task with `after`): their syncs are owed. */
      readonly staged?: readonly string[];
    }
  | { readonly ok: false; readonly failure: WorkerFailure };

/**
 * Originals for a worker to put into the proxy's disk store, off the proxy's thread (a request's handle
 * grants: a record per handle, each a file and its fsyncs). Only sent to workers that opened the store.
 */
export interface PutTask {
  readonly originals: readonly Uint8Array[];
}

/** A worker's answer to a PutTask: the originals are in the store, or the error a put raised. */
export type PutAnswer = { readonly ok: true } | { readonly ok: false; readonly failure: WorkerFailure };

/** The task a worker answers once started: it loads its keep model and says it is ready (ReadyAnswer). */
export const READY_CHECK = 'ready?';
