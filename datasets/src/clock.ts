import type { Rng } from './prng.js';

/**
 * A wall clock that only moves when a generator says so. Every dataset date starts from a fixed epoch
 * chosen by the file's own random stream, never from the machine's time, so regenerating is byte-stable.
 */

/** 2023-01-02T00:00:00Z and 2025-09-28T00:00:00Z: the window every generated run falls in. */
const WINDOW_START_MS = 1_672_617_600_000;
const WINDOW_END_MS = 1_759_017_600_000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** A clock with a sub-millisecond part, so 7-digit GitHub Actions stamps look like real ones. */
export class Clock {
  private ms: number;
  /** Ten-thousandths of a millisecond (100 ns units), 0..9999. */
  private sub: number;

  constructor(startMs: number, sub = 0) {
    this.ms = startMs;
    this.sub = sub;
  }

  /** A clock at a random instant inside the dataset's fixed window. */
  static within(rng: Rng): Clock {
    const span = (WINDOW_END_MS - WINDOW_START_MS) / 1000;
    return new Clock(
      WINDOW_START_MS + Math.floor(rng.next() * span) * 1000 + rng.int(0, 999),
      rng.int(0, 9999),
    );
  }

  /** Milliseconds since the Unix epoch. */
  get epochMs(): number {
    return this.ms;
  }

  /** Moves forward by a whole number of milliseconds plus a random sub-millisecond part. */
  advance(ms: number, rng?: Rng): this {
    this.ms += Math.max(0, Math.floor(ms));
    if (rng) {
      const sub = this.sub + rng.int(0, 9999);
      this.ms += Math.floor(sub / 10000);
      this.sub = sub % 10000;
    }
    return this;
  }

  /** Moves backward by `ms` milliseconds (listings that run newest first). */
  rewind(ms: number): this {
    this.ms -= Math.max(0, Math.floor(ms));
    return this;
  }

  /** Moves forward by a random amount between min and max milliseconds. */
  tick(rng: Rng, minMs: number, maxMs: number): this {
    return this.advance(rng.int(minMs, maxMs), rng);
  }

  private parts(offsetMinutes = 0): Date {
    return new Date(this.ms + offsetMinutes * 60_000);
  }

  /** `2024-05-07T21:34:59.7245816Z`, the GitHub Actions log prefix. */
  actions(): string {
    const d = this.parts();
    return `${d.toISOString().slice(0, 19)}.${pad(d.getUTCMilliseconds(), 3)}${pad(this.sub, 4)}Z`;
  }

  /** `2024-05-07T21:34:59.724Z`. */
  iso(): string {
    return this.parts().toISOString();
  }

  /** `2024-05-07T21:34:59Z`. */
  isoSeconds(): string {
    return `${this.parts().toISOString().slice(0, 19)}Z`;
  }

  /** `2024-05-07 21:34:59,724`, Python logging's default. */
  pythonLogging(): string {
    const iso = this.parts().toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)},${iso.slice(20, 23)}`;
  }

  /** `2024-05-07 21:34:59.724`. */
  spaced(): string {
    const iso = this.parts().toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
  }

  /** `21:34:59.724`. */
  timeOfDay(): string {
    return this.parts().toISOString().slice(11, 23);
  }

  /** `0507 21:34:59.724581`, the klog header after the severity letter. */
  klog(): string {
    const d = this.parts();
    return `${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)} ${d.toISOString().slice(11, 23)}${pad(Math.floor(this.sub / 10), 3)}`;
  }

  /** `May  7 21:34:59`, syslog's stamp. */
  syslog(): string {
    const d = this.parts();
    return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
  }

  /** `07/May/2024:21:34:59 +0000`, the combined access-log stamp. */
  accessLog(): string {
    const d = this.parts();
    return `${pad(d.getUTCDate(), 2)}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${d.toISOString().slice(11, 19)} +0000`;
  }

  /** `Tue May 7 21:34:59 2024 +0200`, git's default date in the author's zone. */
  git(offsetMinutes: number): string {
    const d = this.parts(offsetMinutes);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(offsetMinutes);
    return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${d.toISOString().slice(11, 19)} ${d.getUTCFullYear()} ${sign}${pad(Math.floor(abs / 60), 2)}${pad(abs % 60, 2)}`;
  }

  /** `Mon Mar 25 16:43:24 UTC 2019`, date(1)'s default. */
  dateCommand(): string {
    const d = this.parts();
    return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)} UTC ${d.getUTCFullYear()}`;
  }

  /** `Tue, 07 May 2024 21:34:59 +0000`, RFC 1123 as kubectl describe prints times. */
  rfc1123(): string {
    const d = this.parts();
    return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate(), 2)} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${d.toISOString().slice(11, 19)} +0000`;
  }

  /** Unix seconds. */
  unix(): number {
    return Math.floor(this.ms / 1000);
  }
}

/** A duration in kubectl's AGE column style: `45s`, `12m`, `3h12m`, `5d2h`, `87d`. */
export function kubeAge(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  return `${days}d`;
}

/** Seconds with a fixed number of decimals, e.g. `12.48s`. */
export function seconds(value: number, decimals = 2): string {
  return `${value.toFixed(decimals)}s`;
}
