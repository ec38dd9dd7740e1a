import { ProxySession, type SessionDeps } from './proxy-session.js';

/** Bounds of the session table (`proxy.maxSessions` and `proxy.awakeSessions` in the config). */
export interface SessionTableLimits {
  /** Sessions kept in memory; the least recently used is dropped beyond this. */
  readonly maxSessions: number;
  /**
   * Sessions that keep their original texts between requests; the others sleep, holding what they sent
   * and the digests of what they were sent for, and wake on their next request.
   */
  readonly awakeSessions: number;
  /** A session unused this long is dropped (default 6 hours, beyond any provider cache lifetime). */
  readonly idleMs?: number;
}

/**
 * The live sessions of one proxy, least recently used first out. A dropped session costs only savings:
 * its conversation's next request starts a new session whose first turn is encoded afresh. Only the
 * most recently used sessions stay awake: a session's original texts are most of its memory (200 KB of
 * tool output against the ~45 KB it was sent as), and a request resends them anyway, so a sleeping
 * session is woken from them (a sha256 of the request's texts and a rebuild of the re-read index: a
 * request that wakes a 200 KB conversation took ~4 ms longer in `pnpm bench:proxy --concurrency 32`) instead of holding them for a conversation that may never come back.
 */
export class SessionTable {
  readonly #sessions = new Map<string, ProxySession>();
  // The awake ones, least recently used first.
  readonly #awake = new Map<string, ProxySession>();
  readonly #awakeSessions: number;
  // Responses API chains (`previous_response_id`): which session produced a response.
  readonly #byResponse = new Map<string, string>();
  readonly #maxSessions: number;
  readonly #idleMs: number;

  constructor(
    private readonly deps: SessionDeps,
    limits: SessionTableLimits,
  ) {
    this.#maxSessions = limits.maxSessions;
    this.#awakeSessions = limits.awakeSessions;
    this.#idleMs = limits.idleMs ?? 6 * 3600_000;
  }

  /** The session under `key`, created on first use. */
  get(key: string): ProxySession {
    let session = this.#sessions.get(key);
    if (session) {
      // Re-insert so Map order stays least-recently-used first.
      this.#sessions.delete(key);
    } else {
      session = new ProxySession(this.deps);
    }
    session.lastUsed = Date.now();
    this.#sessions.set(key, session);
    session.stayAwake();
    this.#awake.delete(key);
    this.#awake.set(key, session);
    this.#evict();
    while (this.#awake.size > this.#awakeSessions) {
      const [oldest, asleep] = this.#awake.entries().next().value!;
      this.#awake.delete(oldest);
      asleep.sleep();
    }
    return session;
  }

  /** Records that `responseId` was produced in the session under `key`. */
  link(responseId: string, key: string): void {
    this.#byResponse.set(responseId, key);
    if (this.#byResponse.size > this.#maxSessions * 64) {
      const oldest = this.#byResponse.keys().next().value;
      if (oldest !== undefined) this.#byResponse.delete(oldest);
    }
  }

  /** The session key a response id was produced under, if still known. */
  keyOfResponse(responseId: string): string | undefined {
    return this.#byResponse.get(responseId);
  }

  /** Live sessions by whether they hold their original texts (read when /metrics is scraped). */
  counts(): { readonly awake: number; readonly asleep: number } {
    let awake = 0;
    for (const session of this.#sessions.values()) if (session.awake) awake++;
    return { awake, asleep: this.#sessions.size - awake };
  }

  /** How many sessions are live. */
  get size(): number {
    return this.#sessions.size;
  }

  #evict(): void {
    const now = Date.now();
    for (const [key, session] of this.#sessions) {
      const tooMany = this.#sessions.size > this.#maxSessions;
      if (!tooMany && now - session.lastUsed <= this.#idleMs) break;
      this.#sessions.delete(key);
      this.#awake.delete(key);
    }
  }
}
