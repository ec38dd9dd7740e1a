import { MASK } from './template-mask.js';

/**
 * What the second stage of template mining needs to know about one skeleton token, computed once per
 * distinct token. The rules are generic: they look at the shape of a token, never at a particular system.
 */
export interface TokenTraits {
  readonly text: string;
  /** Holds a mask (some part is variable). */
  readonly masked: boolean;
  /** Only masks and punctuation: `<*>`, `(<*>)`, `[<*>`, `-`, `*<*>`. */
  readonly pure: boolean;
  /** `[...]` — a bracketed context field (thread, request, level). */
  readonly bracketed: boolean;
  /** `GET`, `CONTAINER_REMOTE_LAUNCH`: names a kind of event. */
  readonly upper: boolean;
  /** camelCase or Capitalized: an identifier or word from the program's source text. */
  readonly code: boolean;
  readonly hasLetter: boolean;
  /** A log level (`INFO`, `[warn]`, `Error:`): lines that differ only in level are one template. */
  readonly level: boolean;
}

const LEVEL_WORD =
  /^[[(<]?(?:TRACE|DEBUG|FINE|FINER|FINEST|INFO|NOTICE|WARN|WARNING|ERROR|ERR|SEVERE|CRITICAL|CRIT|FATAL|ALERT|EMERG|[VDIWEF])[\])>:]?$/i;

/** Computes a token's traits (one pass over its characters). */
export function traitsOf(text: string): TokenTraits {
  let masked = false;
  let alnum = false;
  let letters = 0;
  let uppers = 0;
  let lowerThenUpper = false;
  let firstLetterUpper = -1; // 1 upper, 0 lower
  let secondLetterLower = false;
  let prevLower = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) masked = true;
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    if (upper || lower || (c >= 48 && c <= 57) || c >= 128) alnum = true;
    if (upper || lower) {
      letters++;
      if (upper) uppers++;
      if (firstLetterUpper < 0) firstLetterUpper = upper ? 1 : 0;
      else if (letters === 2 && lower) secondLetterLower = true;
      if (upper && prevLower) lowerThenUpper = true;
      prevLower = lower;
    } else prevLower = false;
  }
  const bracketed = text.charCodeAt(0) === 91 && text.includes(']');
  const upperWord = letters >= 2 && uppers === letters && /^[^A-Za-z]*[A-Z][A-Z_]+[^A-Za-z]*$/.test(text);
  return {
    text,
    masked,
    pure: !alnum,
    bracketed,
    upper: upperWord,
    code: lowerThenUpper || (firstLetterUpper === 1 && secondLetterLower),
    hasLetter: letters > 0,
    level: LEVEL_WORD.test(text),
  };
}

/**
 * Should skeletons that agree everywhere but at one position, where they hold `values` (with line counts
 * `weights`), be one template? The position is a variable when:
 * - every value is a bracketed context field (`[main]`, `[IPC Server handler 3 on 9000]`), or every
 *   value is a log level (`INFO` / `WARN`: the message, not its level, makes the event);
 * - some value is already a pure variable, unless a frequent constant faces a rare variable variant
 *   (`HTTPS` ×600 beside `SOCKS5` ×2 is another event), or making the position variable would leave the
 *   message without distinctive text ({@link absorbable});
 * - otherwise (all plain words) when it takes four or more values none of which looks like message text
 *   (ALL-CAPS event names, camelCase or Capitalized identifiers, pure punctuation). Two or three plain
 *   words (`opened` / `closed`, `normal` / `warning`) are most often what tells two events apart.
 */
export function positionIsVariable(
  values: readonly TokenTraits[],
  weights: readonly number[],
  tokens: readonly TokenTraits[],
  position: number,
): boolean {
  let allBracketed = true;
  let allLevels = true;
  for (const v of values) {
    if (!v.bracketed) allBracketed = false;
    if (!v.level) allLevels = false;
  }
  if (allBracketed || allLevels) return true;
  let pureWeight = 0;
  let maxOther = 0;
  for (let k = 0; k < values.length; k++) {
    if (values[k]!.pure) pureWeight += weights[k]!;
    else if (weights[k]! > maxOther) maxOther = weights[k]!;
  }
  if (pureWeight > 0) {
    if (!absorbable(tokens, position)) return false;
    return !(maxOther >= 20 && maxOther >= 8 * pureWeight);
  }
  for (const v of values) if (v.upper || v.code || !v.hasLetter) return false;
  return values.length >= 4;
}

/**
 * May position `p` become a variable? Only when the message keeps some constant text after it, or at
 * least three constant tokens before it: otherwise a short message's one distinctive word would be
 * swallowed (`INFO [main] x: jetty-6.1.26` and `INFO [main] x: nodeBlacklistingEnabled:true` are not one
 * event).
 */
export function absorbable(tokens: readonly TokenTraits[], p: number): boolean {
  for (let q = p + 1; q < tokens.length; q++) if (!tokens[q]!.masked) return true;
  let before = 0;
  for (let q = 0; q < p; q++) if (!tokens[q]!.masked) before++;
  return before >= 3;
}

/** Can two tokens at the same position of same-shaped templates be one variable without evidence? */
export function compatible(a: TokenTraits, b: TokenTraits): boolean {
  return a === b || a.pure || b.pure || (a.bracketed && b.bracketed);
}

/** The mask token's text. */
export const MASK_TOKEN = MASK;
