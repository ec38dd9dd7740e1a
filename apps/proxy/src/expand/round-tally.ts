import { type BilledUsage, NO_USAGE } from '../savings/billed-usage.js';
import type { RoundRead } from './expand-loop.js';

/**
 * What one client request cost upstream, call by call, for the ledger. A call counts from the moment it
 * is posted: the client's request first, then every expand round trip — one that failed or broke
 * included, billed as far as the upstream said (nothing known: no tokens). So `calls.length − 1` is the
 * number of expand round trips, whatever the transport and however the turn ended.
 */
export class RoundTally {
  readonly calls: BilledUsage[] = [];
  /** Distil calls answered over the turn. */
  expands = 0;
  /** The model the first reply named. */
  model: string | undefined;
  #replied = false;

  /** Counts a call about to be posted upstream. */
  posted(): void {
    this.calls.push(NO_USAGE);
  }

  /** Takes what the round of the last posted call was billed. */
  read(read: RoundRead<unknown>): void {
    // An answer relayed as it came is one the proxy read no bill from.
    if (read.kind === 'relayed') return;
    this.#replied = true;
    if (read.usage !== null) this.calls[this.calls.length - 1] = read.usage;
    this.model ??= read.model;
  }

  /**
   * Whether the request goes in the ledger: once the proxy read a reply to it. A first call the upstream
   * refused, did not answer, or answered with a body the proxy could not read billed nothing the proxy
   * can see, and the same request sent direct would have met the same answer.
   */
  get priced(): boolean {
    return this.#replied;
  }
}
