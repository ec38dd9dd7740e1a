import { type Handle, handleFor, type RestoreStore } from '@distil/contract';
import { containsStubSyntax, formatStub } from '../tier1/stub.js';
import { outlineSource } from './outliners.js';
import { ReadView } from './read-view.js';
import { detectSourceLanguage, type FoldRange, type SourceLanguage } from './source-outline.js';

/** Knobs of the skeleton digest. */
export interface SkeletonOptions {
  /** Files shorter than this many lines are left whole (default 80). */
  readonly minLines?: number;
  /** Bodies shorter than this many lines stay: a stub costs about as much (default 4). */
  readonly minFoldLines?: number;
  /** A body whose handle this accepts stays in full (sticky expansion). */
  readonly keepFull?: (handle: Handle) => boolean;
}

/** A source file digested to its skeleton. */
export interface Skeleton {
  readonly text: string;
  /** One handle per folded body, in order; each returns that body's exact bytes. */
  readonly handles: Handle[];
  /** How the bodies were found: a real parser, or indentation. */
  readonly outline: SourceLanguage | 'indentation';
  readonly foldedLines: number;
}

/**
 * The skeleton digest of a large source file (spec: content-aware skeleton digest): every import, class
 * and function signature and doc comment stays; function bodies are folded behind stubs
 * `<< +N lines, handle=dh_… >>` whose originals go to the RestoreStore, so the agent can expand just the
 * body it needs. Python and TypeScript/JavaScript are parsed; anything else (or source that does not
 * parse) folds indented runs under unindented headers. Null when the file is short or nothing folds.
 *
 * Restoring works like any fold (restoreBlock): a stub keeps the indentation of the body's first line,
 * and the stored original starts after that indentation, so stub → original gives the bytes back.
 *
 * A file read (Claude Code's Read, `cat -n`) is outlined without its line numbers and folded with them:
 * a stub sits after the number and indentation of the first line it folds, so the lines kept around it
 * say where the folded range starts and ends. A client's wrapper (a reminder after a Read) stays whole.
 */
/**
 * Lines below which a source file goes out whole. An agent that reads a file by name goes on to quote it
 * (an edit's old text, a review's finding). Replayed real Claude Code sessions (`distil savings`) hid 7%
 * of the tool-output lines they later referred to with an 80-line threshold, most inside skeletons, and
 * 0.7% with this one, for about 2 points of their bill.
 */
export const SKELETON_MIN_LINES = 400;

export async function skeletonDigest(
  text: string,
  store: RestoreStore,
  options: SkeletonOptions = {},
): Promise<Skeleton | null> {
  const minLines = options.minLines ?? SKELETON_MIN_LINES;
  const minFold = options.minFoldLines ?? 4;
  if (containsStubSyntax(text)) return null;
  const view = new ReadView(text);
  // offsets in `source` (what is outlined) map to offsets in `body` (what is sent) through the view
  const source = view.plain;
  const body = view.body;
  const starts = lineStarts(source);
  if (starts.length < minLines) return null;
  const language = detectSourceLanguage(source);
  const outline = language ? await outlineSource(language, source, false) : null;
  const folds = outline ? outline.folds : indentationFolds(source, starts);
  const chosen = [...folds].filter((f) => f.last - f.first + 1 >= minFold).sort((a, b) => a.first - b.first);

  let out = '';
  let cursor = 0;
  let foldedLines = 0;
  const handles: Handle[] = [];
  for (const fold of chosen) {
    const lineStart = view.bodyLineStart(fold.first);
    if (lineStart < cursor) continue; // nested in a fold already taken
    const sourceStart = starts[fold.first]!;
    const indent = /^[ \t]*/.exec(source.slice(sourceStart, sourceStart + 200))?.[0] ?? '';
    const from = view.toBodyText(sourceStart + indent.length);
    const to = fold.last + 1 < starts.length ? view.bodyLineStart(fold.last + 1) : body.length;
    const original = body.slice(from, to);
    if (options.keepFull?.(handleFor(original))) continue;
    const handle = await store.put(new TextEncoder().encode(original));
    const lines = fold.last - fold.first + 1;
    out += body.slice(cursor, from) + formatStub(lines, handle) + (original.endsWith('\n') ? '\n' : '');
    cursor = to;
    foldedLines += lines;
    handles.push(handle);
  }
  if (handles.length === 0) return null;
  out += body.slice(cursor);
  return {
    text: view.wrap(out),
    handles,
    outline: outline && language ? language : 'indentation',
    foldedLines,
  };
}

/** Offsets where each line starts (lines end at '\n'; a final line without one still counts). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1))
    starts.push(i + 1);
  return starts;
}

/**
 * The generic fallback: a run of indented (or blank) lines under an unindented, non-blank header is a
 * body. In brace languages the closing brace sits at the header's level and stays visible.
 */
function indentationFolds(text: string, starts: readonly number[]): FoldRange[] {
  const folds: FoldRange[] = [];
  const lineAt = (i: number): string =>
    text.slice(starts[i]!, i + 1 < starts.length ? starts[i + 1]! - 1 : text.length);
  const indented = (line: string): boolean => /^[ \t]/.test(line) || line.trim().length === 0;
  let i = 0;
  while (i < starts.length) {
    const header = lineAt(i);
    if (header.trim().length === 0 || indented(header)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < starts.length && indented(lineAt(j))) j++;
    let last = j - 1;
    while (last > i && lineAt(last).trim().length === 0) last--;
    if (last > i) folds.push({ first: i + 1, last });
    i = j;
  }
  return folds;
}
