import type { Block, Handle } from '@distil/contract';
import {
  ExpandFlywheel,
  type GuidelineStats,
  LearnedPolicy,
  protects,
  readGuidelineStats,
} from '@distil/replay';

/**
 * Counts reach the statistics file at most this long after they were recorded. A busy proxy writes
 * about this often (never per request); a quiet one not at all.
 */
export const LEARN_FLUSH_MS = 2000;

const NO_EXPANDS = { version: 1 as const, signatures: {} };
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The learning flywheel as a running proxy turns it (spec: "The learning flywheel"). Every block the
 * proxy sends folded or re-encoded is counted as a digest of its signature (content class × size
 * bucket, the one `signatureOf` computes), with the handles it issued; every `distil_expand` the proxy
 * answers is counted against the signature of the block that issued the handle. Once a signature's
 * expands cross the thresholds it is protected at once, in memory: the next block of that signature, in
 * any conversation, goes out byte-exact. Signatures the guideline flywheel protected
 * (`distil certify-trajectories`) are kept byte-exact too.
 *
 * Nothing here touches a file on the request path: counts are merged into
 * `$DISTIL_HOME/learn/expand-stats.json` in the background (LEARN_FLUSH_MS after the first unwritten
 * count, locked and atomic, without blocking the event loop), taking in what other processes wrote, and
 * the guideline statistics are read again with each write. A statistics file that cannot be read or
 * written never fails a request: the proxy logs it and compresses as it would without that file — an
 * unreadable file is left as it is, never overwritten.
 */
export class ExpandLearning {
  readonly #flywheel: ExpandFlywheel | null;
  readonly #home: string | null;
  readonly #log: (line: string) => void;
  #guideline: GuidelineStats = { version: 1, signatures: {}, evidence: [] };
  #regressions: LearnedPolicy;
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> | null = null;
  #lastFailure: string | null = null;
  #lastGuidelineFailure: string | null = null;
  #closed = false;

  private constructor(home: string | null, log: (line: string) => void) {
    this.#home = home;
    this.#log = log;
    this.#regressions = new LearnedPolicy(NO_EXPANDS, this.#guideline);
    let flywheel: ExpandFlywheel | null = null;
    if (home !== null) {
      try {
        flywheel = ExpandFlywheel.open(home);
      } catch (error) {
        log(`expand statistics unreadable, not learning from expands: ${message(error)}`);
      }
      this.#readGuideline();
    }
    this.#flywheel = flywheel;
  }

  /** The flywheel of `home`: its stored statistics loaded, fed and applied from now on. */
  static open(home: string, log: (line: string) => void): ExpandLearning {
    return new ExpandLearning(home, log);
  }

  /** Learning off: nothing is protected and nothing recorded (benchmarks, simulations, tests). */
  static off(): ExpandLearning {
    return new ExpandLearning(null, () => {});
  }

  /** Whether blocks of `signature` are kept byte-exact (see LearnedPolicy). */
  isProtected(signature: string): boolean {
    return (this.#flywheel?.isProtected(signature) ?? false) || this.#regressions.isProtected(signature);
  }

  /** Whether `block` must go out byte-exact: its signature is protected by either flywheel. */
  sendsWhole(block: Pick<Block, 'kind' | 'text'>): boolean {
    // off, nothing can be protected: not even the signature is computed
    return this.#home !== null && protects(this, block);
  }

  /**
   * The policy as this proxy applies it now, counts not yet written included (what `distil learn` will
   * show after the next write); null when it learns nothing (off, or its expand statistics unreadable).
   */
  policy(): LearnedPolicy | null {
    return this.#flywheel ? new LearnedPolicy(this.#flywheel.snapshot(), this.#guideline) : null;
  }

  /** Counts one block sent with `handles` (folded or re-encoded), so their expands can be attributed. */
  trackDigest(block: Pick<Block, 'kind' | 'text'>, handles: readonly Handle[]): void {
    const flywheel = this.#flywheel;
    if (flywheel === null || handles.length === 0) return;
    this.#counting(() => {
      flywheel.trackDigest(block, handles);
      return true;
    });
  }

  /** Counts one answered `distil_expand` of `handle` (nothing when this proxy did not issue it). */
  recordExpand(handle: Handle): void {
    const flywheel = this.#flywheel;
    if (flywheel !== null) this.#counting(() => flywheel.recordExpandOf(handle));
  }

  /** Writes the unwritten counts now (and reads the guideline statistics again). Never throws. */
  async flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    // one write at a time: the next one takes what was recorded meanwhile
    while (this.#writing) await this.#writing;
    if (!this.#flywheel?.dirty) return;
    this.#writing = this.#write(this.#flywheel);
    try {
      await this.#writing;
    } finally {
      this.#writing = null;
    }
    if (this.#flywheel.dirty) this.#schedule();
  }

  /** Writes what is left; nothing is written after it (counts recorded later stay in memory). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  /** Runs one count; learning never fails the request it is counted on (a failure is logged). */
  #counting(count: () => boolean): void {
    try {
      if (count()) this.#schedule();
    } catch (error) {
      this.#log(`expand flywheel: not counted: ${message(error)}`);
    }
  }

  #schedule(): void {
    if (this.#closed || this.#timer || this.#writing) return;
    this.#timer = setTimeout(() => void this.flush(), LEARN_FLUSH_MS);
    // a proxy that is stopping is not kept alive for its counts: close() writes them
    this.#timer.unref();
  }

  async #write(flywheel: ExpandFlywheel): Promise<void> {
    try {
      await flywheel.flushAsync();
      this.#lastFailure = null;
    } catch (error) {
      // the counts stay in memory and are written with the next flush; said once, not every time
      const text = message(error);
      if (text !== this.#lastFailure) this.#log(`could not write the expand statistics: ${text}`);
      this.#lastFailure = text;
    }
    this.#readGuideline();
  }

  #readGuideline(): void {
    if (this.#home === null) return;
    try {
      this.#guideline = readGuidelineStats(this.#home);
      this.#regressions = new LearnedPolicy(NO_EXPANDS, this.#guideline);
      this.#lastGuidelineFailure = null;
    } catch (error) {
      // the last good reading stays in force
      const text = message(error);
      if (text !== this.#lastGuidelineFailure) this.#log(`guideline statistics unreadable: ${text}`);
      this.#lastGuidelineFailure = text;
    }
  }
}
