import type { Handle, RestoreStore } from '@distil/contract';
import { formatStub, type StubNote } from './stub.js';

/** A stub costs about a dozen tokens; folding fewer characters than this would cost more than it saves. */
const MIN_FOLD_CHARS = 120;

/** A block after folding: the text to send and the handles of every fold, in order. */
export interface Folded {
  readonly text: string;
  readonly handles: Handle[];
  readonly foldedLines: number;
}

/**
 * Folds every run of lines not marked in `keep` into a stub whose handle stores the run's exact bytes
 * (terminators included), so replacing each stub with its original gives back the block byte for byte.
 * Runs too short to pay for their stub stay verbatim. `alike` (optional) names each line's template, -1
 * for none worth citing: a run whose lines are all of the template of the kept line just above it gets
 * a stub that says so.
 */
export async function foldRuns(
  segments: readonly string[],
  keep: Uint8Array,
  store: RestoreStore,
  alike?: Int32Array,
): Promise<Folded> {
  const out: string[] = [];
  const handles: Handle[] = [];
  let foldedLines = 0;
  const encoder = new TextEncoder();
  let i = 0;
  while (i < segments.length) {
    if (keep[i] === 1) {
      out.push(segments[i]!);
      i++;
      continue;
    }
    let j = i;
    let chars = 0;
    while (j < segments.length && keep[j] === 0) chars += segments[j++]!.length;
    const run = segments.slice(i, j);
    if (chars < MIN_FOLD_CHARS || run.length < 2) {
      out.push(...run);
    } else {
      const original = run.join('');
      const handle = await store.put(encoder.encode(original));
      const last = run[run.length - 1]!;
      const terminated = last.endsWith('\n') || last.endsWith('\r');
      out.push(formatStub(run.length, handle, noteFor(alike, i, j)) + (terminated ? '\n' : ''));
      handles.push(handle);
      foldedLines += run.length;
    }
    i = j;
  }
  return { text: out.join(''), handles, foldedLines };
}

/** The note for the stub over lines `start` to `end` (exclusive): whether they are all like the kept line above. */
function noteFor(alike: Int32Array | undefined, start: number, end: number): StubNote | undefined {
  if (alike === undefined || start === 0) return undefined;
  const template = alike[start - 1]!;
  if (template < 0) return undefined;
  for (let k = start; k < end; k++) if (alike[k] !== template) return undefined;
  return 'like the line above';
}
