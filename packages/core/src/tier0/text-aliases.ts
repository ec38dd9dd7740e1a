/**
 * Shorthand for long texts a block repeats: the path and URL prefixes and long names a tool prints over
 * and over (`https://api.github.com/repos/org/repo/` in every `*_url` field of a GitHub response,
 * `/home/runner/work/app/app/src/` before every file of a build, a test class name on every line of its
 * report) are each written once in a legend at the top and then as a two-character mark:
 *
 *   [§ shorthand: the 2 lines below define §1 to §2, used in the text after them]
 *   §1 = https://api.github.com/repos/octokit/hello-world/
 *   §2 = octokit-fixture-org
 *   {"archive_url":"§1{archive_format}{/ref}","owner":"§2", …}
 *
 * The mark is a character that occurs nowhere in the text (`§` first) followed by exactly one name
 * character, so decoding is one pass with no escaping, and a digit after a mark cannot be misread. Lines
 * that must stay verbatim (the salience guard's) are neither counted nor rewritten, so an error line reads
 * exactly as the tool printed it.
 *
 * Written here rather than taken from a compression library: LZ-family coders find repeats too, but their
 * output is bytes a model cannot read; this keeps every line readable and every repeat named.
 */

/** Characters that can mark a shorthand, in order of preference (one token each with o200k). */
const SIGILS = ['§', '¤', '¶', '‡'];
/** One character per shorthand, so a mark is always exactly two characters. */
const NAMES = '123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** Shortest text worth a shorthand, and how often it must occur. */
const MIN_LENGTH = 16;
const MIN_COUNT = 3;
/**
 * Longest text a shorthand stands for: a classpath or a deep URL repeats prefixes of a few hundred
 * characters; the bound keeps the pattern of the chosen ones small enough to compile.
 */
const MAX_LENGTH = 4096;
/**
 * Distinct prefixes tracked at most (about 25 MB): a crafted block of distinct deep paths could otherwise
 * make millions; prefixes met after that are only counted if already tracked, which real repeats are.
 */
const MAX_PREFIX_KEYS = 1 << 18;
/**
 * A token that may hold a path, URL or long name: 16 or more characters with no whitespace, quotes,
 * brackets or separators — the matches of `/[^\s"'<>()[\]{},;|`]{16,}/g`. Read by {@link longRuns}, not by
 * that pattern: the pattern retries from every character of a short word, this reads each character once.
 */
const TOKEN_CHARS = charTable((c) => !/[\s"'<>()[\]{},;|`]/.test(String.fromCharCode(c)));
/** A long name inside a token (a test class, an image digest, an org-repo slug): `/[A-Za-z0-9_.@+=-]{16,}/g`. */
const NAME_CHARS = charTable((c) => /[A-Za-z0-9_.@+=-]/.test(String.fromCharCode(c)));
/** The shortest token and name counted. */
const MIN_RUN = 16;
const LEGEND_HEADER = /^\[(.) shorthand: the (\d+) lines below define .+, used in the text after them\]$/;

/** A text with its repeats shortened: the body, and the texts the marks stand for. */
export interface Aliased {
  readonly body: string;
  readonly sigil: string;
  /** The text the mark `sigil + NAMES[k]` stands for. */
  readonly aliases: readonly string[];
}

/**
 * Shortens the long texts `text` repeats, or returns `null` when nothing pays for a legend line (or every
 * sigil already occurs in the text). `verbatimAt(offset)` marks offsets that must not be rewritten.
 */
export function aliasRepeats(text: string, verbatimAt?: (offset: number) => boolean): Aliased | null {
  const sigil = SIGILS.find((s) => !text.includes(s));
  if (sigil === undefined) return null;
  const counts = new Map<string, number>();
  const prefixes = new PrefixCounts(text);
  longRuns(text, TOKEN_CHARS, 0, text.length, (at, end) => {
    if (verbatimAt?.(at) === true) return;
    prefixes.countToken(at, end - at);
    longRuns(text, NAME_CHARS, at, end, (from, to) => {
      if (to - from <= MAX_LENGTH) {
        const name = text.slice(from, to);
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
    });
  });
  prefixes.addTo(counts);
  const aliases = choose(counts);
  if (aliases.length === 0) return null;
  const index = new Map(aliases.map((a, k) => [a, k]));
  // Longest first, so at any position the longest shorthand wins.
  const pattern = new RegExp(
    [...aliases]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  const body = text.replace(pattern, (match: string, offset: number) =>
    verbatimAt?.(offset) === true ? match : sigil + NAMES[index.get(match)!],
  );
  return { body, sigil, aliases };
}

/**
 * Which UTF-16 code units belong to a class: a table for the first 64 Ki units, so a scan tests each
 * character with one load (a regular expression without the `u` flag also reads code units).
 */
function charTable(member: (code: number) => boolean): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (let c = 0; c < table.length; c++) table[c] = member(c) ? 1 : 0;
  return table;
}

/**
 * Calls `found(start, end)` for every maximal run of `chars` of at least {@link MIN_RUN} units inside
 * `text[from, to)` — what a global `/[class]{16,}/` finds there, since a greedy match starts where a run
 * starts and ends where it ends. A run that starts at `k` covers `k + MIN_RUN - 1`, so that unit is read
 * first: when it is outside the class, no run starts before it, and most of a text of short words is
 * skipped without being read (about half the reads of a scan of every unit, on CI logs).
 */
export function longRuns(
  text: string,
  chars: Uint8Array,
  from: number,
  to: number,
  found: (start: number, end: number) => void,
): void {
  // `k` is always `from` or just past a unit outside the class: where a maximal run can start.
  let k = from;
  while (k + MIN_RUN <= to) {
    const last = k + MIN_RUN - 1;
    if (chars[text.charCodeAt(last)] !== 1) {
      k = last + 1;
      continue;
    }
    let back = last - 1;
    while (back >= k && chars[text.charCodeAt(back)] === 1) back--;
    if (back >= k) {
      k = back + 1;
      continue;
    }
    let end = last + 1;
    while (end < to && chars[text.charCodeAt(end)] === 1) end++;
    found(k, end);
    k = end + 1;
  }
}

/**
 * Path and URL prefixes up to each separator (`/` or `\\`): the parts a directory listing, a classpath or
 * an API response shares. Each token is read once, hashing its prefix as it goes (FNV-1a), and a prefix
 * is counted under its hash and length, keeping where it first occurred: no prefix string is made until
 * it is chosen, so a token with thousands of separators costs what its length does. Two prefixes sharing
 * hash and length would be counted together; that can only make a choice worse, never an output wrong,
 * because the text is rewritten by exact match.
 */
class PrefixCounts {
  private readonly seen = new Map<number, { count: number; at: number }>();

  constructor(private readonly text: string) {}

  countToken(at: number, length: number): void {
    const text = this.text;
    const end = at + Math.min(length, MAX_LENGTH);
    let h = 0x811c9dc5;
    for (let k = at; k < end; k++) {
      const c = text.charCodeAt(k);
      h = Math.imul(h ^ c, 0x01000193);
      const len = k + 1 - at;
      if ((c === 47 || c === 92) && len >= MIN_LENGTH) {
        const key = (h >>> 0) * (MAX_LENGTH + 1) + len;
        const entry = this.seen.get(key);
        if (entry !== undefined) entry.count++;
        else if (this.seen.size < MAX_PREFIX_KEYS) this.seen.set(key, { count: 1, at });
      }
    }
  }

  /** The prefixes seen often enough, as strings, into `counts`. */
  addTo(counts: Map<string, number>): void {
    for (const [key, { count, at }] of this.seen) {
      if (count < MIN_COUNT) continue;
      const prefix = this.text.slice(at, at + (key % (MAX_LENGTH + 1)));
      counts.set(prefix, (counts.get(prefix) ?? 0) + count);
    }
  }
}

/**
 * Tokens a text of `length` characters costs, estimated low: paths and ids run 3–4 characters a token
 * with o200k, words 4–6. Erring low keeps a shorthand from costing more than it saves.
 */
const tokensOf = (length: number): number => Math.floor(length / 5);
/** A mark, and a legend line's ` = ` and line end, in tokens. */
const MARK_TOKENS = 2;
const LINE_TOKENS = 4;
/** The legend's header line, in tokens: the shorthands together must save more than this. */
const HEADER_TOKENS = 24;

/**
 * Greedy choice by tokens saved: each pick's occurrences are taken from the shorter prefixes it
 * contains, which would otherwise be counted twice. Empty when all of them would not pay for the header.
 */
function choose(counts: ReadonlyMap<string, number>): string[] {
  const candidates = [...counts].filter(([s, n]) => n >= MIN_COUNT && s.length >= MIN_LENGTH);
  const chosen: string[] = [];
  const taken = new Set<string>();
  let total = 0;
  while (chosen.length < NAMES.length) {
    let best: [string, number] | undefined;
    let bestGain = 0;
    for (const candidate of candidates) {
      const [s, n] = candidate;
      if (taken.has(s)) continue;
      // n marks instead of n copies, against a legend line `§1 = s`
      const t = tokensOf(s.length);
      const gain = n * (t - MARK_TOKENS) - (t + MARK_TOKENS + LINE_TOKENS);
      if (gain > bestGain) {
        bestGain = gain;
        best = candidate;
      }
    }
    if (best === undefined) break;
    total += bestGain;
    chosen.push(best[0]);
    taken.add(best[0]);
    for (const candidate of candidates) {
      if (candidate !== best && best[0].startsWith(candidate[0])) candidate[1] -= best[1];
    }
  }
  return total > HEADER_TOKENS ? chosen : [];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The legend lines that go before the body. */
export function formatAliasLegend(aliased: Aliased): string[] {
  const { sigil, aliases } = aliased;
  const last = `${sigil}${NAMES[aliases.length - 1]}`;
  const range = aliases.length === 1 ? `${sigil}1` : `${sigil}1 to ${last}`;
  return [
    `[${sigil} shorthand: the ${aliases.length} lines below define ${range}, used in the text after them]`,
    ...aliases.map((a, k) => `${sigil}${NAMES[k]} = ${a}`),
  ];
}

/** Splits a legend off the front of `text` (lines end at `\n`); `null` when it does not start with one. */
export function parseAliasLegend(text: string): { sigil: string; aliases: string[]; body: string } | null {
  let end = text.indexOf('\n');
  const header = LEGEND_HEADER.exec(end < 0 ? text : text.slice(0, end));
  if (header === null || end < 0) return null;
  const sigil = header[1]!;
  const aliases: string[] = [];
  for (let k = 0; k < Number(header[2]); k++) {
    const start = end + 1;
    end = text.indexOf('\n', start);
    if (end < 0) return null;
    const prefix = `${sigil}${NAMES[k]} = `;
    if (!text.startsWith(prefix, start)) return null;
    aliases.push(text.slice(start + prefix.length, end));
  }
  return { sigil, aliases, body: text.slice(end + 1) };
}

/** Writes every mark in `body` back as the text it stands for. */
export function restoreAliases(body: string, sigil: string, aliases: readonly string[]): string {
  let out = '';
  let from = 0;
  for (let at = body.indexOf(sigil); at >= 0; at = body.indexOf(sigil, from)) {
    const k = NAMES.indexOf(body.charAt(at + 1));
    if (k < 0 || k >= aliases.length) throw new Error(`aliases: unknown mark at offset ${at}`);
    out += body.slice(from, at) + aliases[k]!;
    from = at + 2;
  }
  return out + body.slice(from);
}
