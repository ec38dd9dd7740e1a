import type { Block, Decision } from '@distil/contract';
import type { VisibilityIndex } from './visibility.js';

/** Characters that end a token: whitespace, quotes, brackets, separators of arguments and shell syntax. */
const TOKEN_BREAK = /[\s"'`,;()[\]{}<>|=!?*&^$\\]+/;
/** Quoted spans inside a decision: what a model copies verbatim (an error message, a literal). */
const QUOTED = /"([^"\n]{3,200})"|'([^'\n]{3,200})'|`([^`\n]{3,200})`/g;
/** Separators inside a compound token that is not visible whole (`host.svc:5432`, `pkg@1.2`). */
const COMPOUND_BREAK = /[.:@+]+/;

/**
 * Whether a token has the shape of something copied rather than composed: an identifier with a digit,
 * an underscore, an inner `.`/`/`/`:`/`@`/`-`, or an upper-case letter after the first (camelCase, ALLCAPS);
 * a bare number only from three digits up.
 * Plain words (`the`, `verify`, `Check`) are left out: a model writes them without reading them anywhere,
 * so finding them in one block says nothing about that block being needed.
 */
export function copiedShape(token: string): boolean {
  if (token.length < 2) return false;
  // A bare one- or two-digit number (`-n 12`, `1`) is as likely written as read: left out.
  if (/^[0-9]+$/.test(token)) return token.length >= 3;
  if (/[0-9_]/.test(token)) return true;
  if (/[A-Za-z0-9][./:@-][A-Za-z0-9]/.test(token)) return true;
  return /[A-Z]/.test(token.slice(1));
}

/** The texts of a decision a runner must account for: a tool's name and argument values, or the answer. */
export function decisionTexts(decision: Decision): string[] {
  if (decision.type === 'final') return [decision.text];
  const texts = [decision.tool];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (typeof value === 'number' && Number.isFinite(value)) texts.push(String(value));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(decision.arguments);
  return texts;
}

/** Splits text into tokens, trimming sentence punctuation (`pg-ledger-0.` → `pg-ledger-0`). */
function tokensOf(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(TOKEN_BREAK)) {
    const token = raw.replace(/^[.:]+|[.:]+$/g, '');
    if (token.length >= 2) out.push(token);
  }
  return out;
}

/**
 * The pieces of a path that are visible, found greedily: the longest visible run of segments from the
 * left, then the next. `/workspace/repo__1.0/src` with `/workspace/repo__1.0` in the task and `src` in a
 * listing gives both: a path is composed from a prefix the agent read and names it listed. A segment that
 * is not visible alone is split further as a compound.
 */
function pathPieces(token: string, visible: (t: string) => boolean, out: Set<string>): void {
  const segments = token.split('/');
  let i = 0;
  while (i < segments.length) {
    if (segments[i]!.length === 0) {
      i++;
      continue;
    }
    let found = -1;
    for (let j = segments.length - 1; j >= i; j--) {
      const piece = segments.slice(i, j + 1).join('/');
      if (j > i) {
        const hit = [i > 0 ? `/${piece}` : piece, piece].find(visible);
        if (hit !== undefined) {
          out.add(hit);
          found = j;
          break;
        }
        continue;
      }
      // A single segment is a file or folder name: it counts whatever its shape.
      if (piece.length >= 2 && visible(piece)) {
        out.add(piece);
        found = j;
        break;
      }
    }
    if (found === -1) {
      compoundPieces(segments[i]!, visible, out);
      i++;
    } else {
      i = found + 1;
    }
  }
}

/** The visible, copied-shape parts of a compound that is not visible whole. */
function compoundPieces(token: string, visible: (t: string) => boolean, out: Set<string>): void {
  for (const part of token.split(COMPOUND_BREAK)) {
    if (copiedShape(part) && visible(part)) out.add(part);
  }
}

/**
 * The atoms of a decision: every token of it that came from the context it was taken in — a token with a
 * copied shape (see copiedShape), a path or one of its visible pieces, a quoted string, or the tool name,
 * each counted only when it is visible in `reference` (see visibleIn). Tokens the model composed or
 * invented are not in the reference and so are not atoms; they cannot depend on what the context holds.
 */
export function decisionAtoms(
  decision: Decision,
  reference: readonly Block[],
  index: VisibilityIndex,
): string[] {
  const visible = (token: string): boolean => index.visibleInContext(reference, token);
  const atoms = new Set<string>();
  if (decision.type === 'tool_call' && visible(decision.tool)) atoms.add(decision.tool);
  for (const text of decisionTexts(decision)) {
    for (const match of text.matchAll(QUOTED)) {
      const quoted = (match[1] ?? match[2] ?? match[3] ?? '').trim();
      if (quoted.length >= 3 && visible(quoted)) atoms.add(quoted);
    }
    for (const token of tokensOf(text)) {
      if (atoms.has(token)) continue;
      if (token.includes('/')) {
        if (visible(token)) atoms.add(token);
        else pathPieces(token, visible, atoms);
      } else if (copiedShape(token)) {
        if (visible(token)) atoms.add(token);
        else compoundPieces(token, visible, atoms);
      }
    }
  }
  return [...atoms];
}
