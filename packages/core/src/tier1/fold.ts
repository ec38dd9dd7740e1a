import type { Handle, RestoreStore } from '@distil/contract';
import { formatStub, type StubNote } from './stub.js';

/** A stub costs about a dozen tokens; folding fewer characters than this would cost more than it saves. */
const MIN_FOLD_CHARS = 120;

/**
 * What the fold knows of each line, for the stub's note (see StubNote): `alike` names each line's
 * template (-1 for none worth citing), `findings` marks the lines the guard found surprising,
 * `repeats` the lines that copy a line kept above them and `alikeFindings` the findings folded as
 * members of a template the block lists many times (see alikeGuarded).
 */
export interface LineNotes {
  readonly alike?: Int32Array;
  readonly findings?: Uint8Array;
  readonly repeats?: Uint8Array;
  readonly alikeFindings?: Uint8Array;
}

/** A block after folding: the text to send and the handles of every fold, in order. */
export interface Folded {
  readonly text: string;
  readonly handles: Handle[];
  readonly foldedLines: number;
}

/**
 * Folds every run of lines not marked in `keep` into a stub whose handle stores the run's exact bytes
 * (terminators included), so replacing each stub with its original gives back the block byte for byte.
 * Runs too short to pay for their stub stay verbatim. `notes` (optional) let the stub say what it
 * hides: lines all of the template of the kept line just above it, copies of lines shown above, or how
 * many findings are among them.
 */
export async function foldRuns(
  segments: readonly string[],
  keep: Uint8Array,
  store: RestoreStore,
  notes: LineNotes = {},
): Promise<Folded> {
  // Each kept line, or a fold: its place in `out`, its lines, and where its stub's note looks.
  const out: string[] = [];
  const folds: { at: number; run: string[]; start: number; end: number }[] = [];
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
    if (chars < MIN_FOLD_CHARS || run.length < 2) out.push(...run);
    else folds.push({ at: out.push('') - 1, run, start: i, end: j });
    i = j;
  }
  // The originals are stored all at once: a store that writes to disk or over the network then waits
  // for them together, not once per fold (the puts still start in the block's order).
  const encoder = new TextEncoder();
  const handles = await Promise.all(folds.map(({ run }) => store.put(encoder.encode(run.join('')))));
  let foldedLines = 0;
  folds.forEach(({ at, run, start, end }, k) => {
    const terminated = /[\n\r]$/.test(run[run.length - 1]!);
    out[at] = formatStub(run.length, handles[k]!, noteFor(notes, start, end)) + (terminated ? '\n' : '');
    foldedLines += run.length;
  });
  return { text: out.join(''), handles, foldedLines };
}

/** The note for the stub over lines `start` to `end` (exclusive); see StubNote. */
function noteFor(notes: LineNotes, start: number, end: number): StubNote | undefined {
  const { alike, findings, repeats, alikeFindings } = notes;
  // a finding folded as one of many alike is counted as that, not as an error besides
  let surprising = 0;
  let errors = 0;
  let listed = 0;
  for (let k = start; k < end; k++) {
    surprising += findings?.[k] ?? 0;
    if (alikeFindings?.[k] === 1) listed++;
    else errors += findings?.[k] ?? 0;
  }
  if (alike && start > 0 && alike[start - 1]! >= 0) {
    const template = alike[start - 1]!;
    let same = true;
    for (let k = start; k < end && same; k++) same = alike[k] === template;
    if (same)
      return surprising > 0 || findings?.[start - 1] === 1 ? 'like the error above' : 'like the line above';
  }
  if (listed === end - start) return 'like the findings above';
  if (repeats) {
    let copies = true;
    for (let k = start; k < end && copies; k++) copies = repeats[k] === 1;
    if (copies) return 'repeated above';
  }
  if (errors + listed === 0) return undefined;
  return listed > 0 ? { errors, alike: listed } : { errors };
}
