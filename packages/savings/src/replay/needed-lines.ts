import type { RecordedSession } from '../sessions/recorded-session.js';
import { referenceTokens, sharesToken } from './reference-tokens.js';
import { writtenText } from './request-bodies.js';
import { toolResultsOf } from './tool-results.js';

/** A Read gutter (`  12→` or `12\t`) and terminal styling are presentation, not what a line says. */
const GUTTER = /^\s*\d+(→|\t)/;
/** SGR escape sequences (colour, erase-line), built from a string so the pattern holds no control byte. */
const STYLING = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[mK]`, 'g');

/** A tool-output line as fidelity compares it: without gutter, styling or surrounding blanks. */
export const normalisedLine = (line: string): string => line.replace(STYLING, '').replace(GUTTER, '').trim();

/** `laterFrom[k]`: the reference tokens of every reply from call k on. */
export function laterTokens(session: RecordedSession): Set<string>[] {
  const out: Set<string>[] = [];
  let acc = new Set<string>();
  for (let k = session.calls.length - 1; k >= 0; k--) {
    const call = session.calls[k]!;
    const written = session.entries
      .slice(call.end, call.replyEnd)
      .map((e) => writtenText(e))
      .join('\n');
    acc = new Set([...acc, ...referenceTokens(written)]);
    out[k] = acc;
  }
  return out;
}

/** The call at which each tool result first reaches the model, by the call id it answers. */
export function firstSeenAt(session: RecordedSession): Map<string, number> {
  const out = new Map<string, number>();
  session.calls.forEach((call, k) => {
    for (const result of toolResultsOf(session.entries.slice(0, call.end))) {
      if (!out.has(result.id)) out.set(result.id, k);
    }
  });
  return out;
}

/**
 * Each tool result cut to its needed lines — those sharing a reference token with a reply written after
 * the model first read it — in their order. Known only after the fact, it is the request an oracle that
 * keeps every needed line and nothing else would send: what separates the ceiling from what any faithful
 * compressor can reach.
 */
export function neededLinesOnly(session: RecordedSession): Map<string, string> {
  const later = laterTokens(session);
  const out = new Map<string, string>();
  const seenAt = firstSeenAt(session);
  for (const result of toolResultsOf(session.entries)) {
    const k = seenAt.get(result.id);
    if (k === undefined || out.has(result.id)) continue;
    const kept = result.text.split('\n').filter((raw) => {
      const line = normalisedLine(raw);
      return line.length > 0 && sharesToken(line, later[k]!);
    });
    out.set(result.id, kept.join('\n'));
  }
  return out;
}
