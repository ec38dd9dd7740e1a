/**
 * Decision-derived labels: a line of a tool output is load-bearing when what it carries — a path, an
 * identifier, a number, a quoted string — shows up in what the agent did or said next. This is the
 * ground truth the spec points at when it notes that labels distilled from the salience rules only
 * measure agreement with those rules: here the agent's own behaviour decides.
 */

/** What a line carries, by kind; each kind is matched against the agent's later text its own way. */
export interface LineCarriers {
  /** Paths and file names (`src/app.ts`, `numpy_handler.py`), matched as substrings or by base name. */
  readonly paths: readonly string[];
  /** Identifier-like words (`PixelRepresentation`, `max_retries`, `libponyc`), lower-cased. */
  readonly words: readonly string[];
  /** Numbers of two or more digits (`42`, `8080`, `1.2.840`). */
  readonly numbers: readonly string[];
  /** Contents of quoted strings (3–80 characters). */
  readonly quoted: readonly string[];
}

const PATH = /(?:[\w.~-]*\/[\w.@+-]+(?:\/[\w.@+-]+)*|\b[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}\b)/g;
const WORD = /[A-Za-z_][A-Za-z0-9_]{2,}/g;
const NUMBER = /\b\d+(?:\.\d+)*\b/g;
const QUOTED = /"([^"\n]{3,80})"|'([^'\n]{3,80})'|`([^`\n]{3,80})`/g;
const TEXT_TOKEN = /[A-Za-z0-9_]+(?:\.\d+)*/g;

/** Whether a word looks like a name rather than prose: snake_case, digits, or an inner capital. */
function looksLikeIdentifier(word: string): boolean {
  return /_|\d/.test(word) || /[a-z][A-Z]/.test(word);
}

/**
 * Extracts the carriers of one line. `isCommonWord` says whether a lower-case word is ordinary vocabulary
 * (prose words are everywhere in the agent's reasoning, so they prove nothing); a word that is neither
 * common nor shaped like an identifier (`libponyc`) still counts when it is at least 4 characters long.
 */
export function lineCarriers(line: string, isCommonWord: (word: string) => boolean): LineCarriers {
  const paths = new Set<string>();
  for (const m of line.matchAll(PATH)) {
    const p = m[0].replace(/[.:,]+$/, '');
    if (p.length >= 4 && /[A-Za-z]/.test(p) && !/^\.+\/?$/.test(p)) paths.add(p);
  }
  const words = new Set<string>();
  for (const m of line.matchAll(WORD)) {
    const w = m[0];
    const lower = w.toLowerCase();
    if (looksLikeIdentifier(w) || (w.length >= 4 && !isCommonWord(lower))) words.add(lower);
  }
  const numbers = new Set<string>();
  for (const m of line.matchAll(NUMBER)) if (m[0].replace(/\./g, '').length >= 2) numbers.add(m[0]);
  const quoted = new Set<string>();
  for (const m of line.matchAll(QUOTED)) {
    const q = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (q.length >= 3) quoted.add(q);
  }
  return { paths: [...paths], words: [...words], numbers: [...numbers], quoted: [...quoted] };
}

/** The agent's later text (actions and reasoning), indexed for carrier lookups. */
export class FollowingText {
  readonly #text: string;
  readonly #tokens: Set<string>;

  constructor(text: string) {
    this.#text = text;
    this.#tokens = new Set();
    for (const m of text.matchAll(TEXT_TOKEN)) {
      this.#tokens.add(m[0].toLowerCase());
      // "src/app.ts:42" and "v1.2" also offer their parts.
      for (const part of m[0].split('.')) this.#tokens.add(part.toLowerCase());
    }
  }

  /** Whether the text mentions a path, by its full text, its last two segments or its base name. */
  hasPath(path: string): boolean {
    if (this.#text.includes(path)) return true;
    const segments = path.split('/').filter(Boolean);
    const tail = segments.slice(-2).join('/');
    if (segments.length >= 2 && tail.length >= 6 && this.#text.includes(tail)) return true;
    const base = segments.at(-1) ?? '';
    return base.length >= 5 && /\.[A-Za-z]/.test(base) && this.#text.includes(base);
  }

  /** Whether the text holds this token (case-insensitive, whole token). */
  hasToken(token: string): boolean {
    return this.#tokens.has(token.toLowerCase());
  }

  /** Whether the text holds this substring. */
  hasSubstring(s: string): boolean {
    return this.#text.includes(s);
  }
}

/** Carriers that say nothing about this line: too common in its block, or already known before it. */
export interface CarrierFilter {
  /** Carriers in the action that produced the output (and its reasoning): not news to the agent. */
  readonly known: FollowingText;
  /** How many lines of the block carry each carrier (`kind:value`). */
  readonly blockCounts: ReadonlyMap<string, number>;
  /** A carrier in more than this many lines of the block is boilerplate (an `ls -l` column). */
  readonly maxLinesPerCarrier: number;
}

function carrierKeys(c: LineCarriers): string[] {
  return [
    ...c.paths.map((p) => `p:${p}`),
    ...c.words.map((w) => `w:${w}`),
    ...c.numbers.map((n) => `n:${n}`),
    ...c.quoted.map((q) => `q:${q}`),
  ];
}

/**
 * Labels each line of one tool output: 1 when a carrier of the line — not boilerplate in its block and not
 * already in the action that produced it — appears in `following` (the agent's next actions and reasoning).
 */
export function decisionLabels(
  lines: readonly string[],
  following: FollowingText,
  known: FollowingText,
  isCommonWord: (word: string) => boolean,
): Uint8Array {
  const carriers = lines.map((line) => lineCarriers(line, isCommonWord));
  const blockCounts = new Map<string, number>();
  for (const c of carriers)
    for (const key of new Set(carrierKeys(c))) blockCounts.set(key, (blockCounts.get(key) ?? 0) + 1);
  const filter: CarrierFilter = {
    known,
    blockCounts,
    maxLinesPerCarrier: Math.max(3, Math.ceil(lines.length * 0.3)),
  };
  return Uint8Array.from(carriers, (c) => (isLoadBearing(c, following, filter) ? 1 : 0));
}

function isLoadBearing(c: LineCarriers, following: FollowingText, filter: CarrierFilter): boolean {
  const usable = (key: string) => (filter.blockCounts.get(key) ?? 0) <= filter.maxLinesPerCarrier;
  for (const p of c.paths)
    if (usable(`p:${p}`) && !filter.known.hasPath(p) && following.hasPath(p)) return true;
  for (const w of c.words)
    if (usable(`w:${w}`) && !filter.known.hasToken(w) && following.hasToken(w)) return true;
  for (const n of c.numbers)
    if (usable(`n:${n}`) && !filter.known.hasToken(n) && following.hasToken(n)) return true;
  for (const q of c.quoted)
    if (usable(`q:${q}`) && !filter.known.hasSubstring(q) && following.hasSubstring(q)) return true;
  return false;
}
