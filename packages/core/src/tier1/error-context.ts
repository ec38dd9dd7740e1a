/**
 * Context around an error: the lines that explain it. A failure chunk is rarely one line — the test's
 * source printed above the `E` lines (pytest), the stack frames below the exception (JVM, Ruby, Node),
 * the expectation continued on the next lines. So a kept error line pulls in its neighbourhood: the line
 * three before and the two after it, the indented or frame-shaped lines that run on after it (a whole stack
 * trace, however long: labelled failure chunks include every frame), the indented or file-naming
 * lines just above it, and the heading of the step it belongs to when the producer tags each line of a
 * step (BuildKit's `#9`), since that heading is what names the command that failed.
 */

const FRAME =
  /^\s*(?:at |File "|from |Caused by|\.\.\. \d+ more|\^|~+|[|│>+-]|@@|#\d+ |\d+[:|.)] |-->|= |note:|help:|\*{2,}|E\s)/;
// A line that names a file or location (`src/a.ts`, `Foo.java:61`): lists of such lines often sit just
// above the message that explains them ("Code style issues found in the above file(s)").
const LOCATION = /^\s*\S*(?:\/|\\|\.[A-Za-z]\w{0,7}\b)/;
const ALWAYS_AFTER = 2;
const BEFORE = 3;
/** Neighbours are pulled in by position only when this short: a 10,000-dot progress line explains nothing. */
const MAX_NEIGHBOUR_CHARS = 400;
/** Indented lines above an error (a test's source, a command's arguments) kept at most. */
const MAX_ABOVE = 40;
/**
 * A continuation longer than this is an indented listing under a heading, not a trace: a link checker's
 * list of every package under `-- Authentication` kept 1,025 lines of one LogChunks log as an error's
 * context. What follows is left to the other rules (frames, findings and locations are kept anyway).
 */
const MAX_CONTINUATION = 400;

// A passing test in an indented listing (mocha, jest, cargo) ends an error's continuation.
const PASSED = /^\s*(?:✓|✔|√|PASS\b|ok\b|passed\b)/;

// A step's tag at the start of each of its lines, as BuildKit prints `#9 [6/8] RUN pip install …` and then
// `#9 9.985 ERROR: …`: digits and marks, no letters and no `:` (so a clock time is not one).
const STEP_TAG = /^[#[(]?\d+(?:\/\d+)?[\])]? /;

/**
 * For each line, the first line of the run of lines carrying its step tag (-1 for a line with none):
 * the heading that names the step (`#9 [6/8] RUN pip install …`), however far above its error it is.
 */
function stepHeads(lines: readonly string[]): Int32Array {
  const heads = new Int32Array(lines.length).fill(-1);
  let tag = '';
  for (let i = 0; i < lines.length; i++) {
    const found = STEP_TAG.exec(lines[i]!)?.[0];
    if (found === undefined) {
      tag = '';
      continue;
    }
    heads[i] = found === tag ? heads[i - 1]! : i;
    tag = found;
  }
  return heads;
}

const FENCE = /^\s*```/;
/** A fenced snippet longer than this is not treated as one piece. */
const MAX_FENCE_LINES = 80;

/** The line that closes the fence opened at `open`, or `open` itself when none closes it nearby. */
function closingFence(lines: readonly string[], open: number): number {
  for (let k = open + 1; k < lines.length && k <= open + MAX_FENCE_LINES; k++)
    if (FENCE.test(lines[k]!)) return k;
  return open;
}

/** Columns of leading whitespace (a tab counts as four). */
export function indentOf(line: string): number {
  let width = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) width++;
    else if (c === 9) width += 4;
    else break;
  }
  return width;
}

/**
 * Whether a line continues the message of an error indented by `baseIndent`: a stack frame or a marker
 * of one, or a line indented deeper than the error that is not a passing test.
 */
export function isContinuation(line: string, baseIndent = 0): boolean {
  if (line.length === 0) return false;
  if (FRAME.test(line)) return true;
  return indentOf(line) > baseIndent && !PASSED.test(line);
}

/** Whether a line carries on an error's trace: a continuation of it, or a code fence. */
function continuesTrace(line: string, baseIndent: number): boolean {
  return isContinuation(line, baseIndent) || FENCE.test(line);
}

/** In keepErrorContext's `roles`: a line kept only as what stands above an error. */
export const ABOVE = 1;
/** In keepErrorContext's `roles`: a line of an error's trace, or one of the lines just after it. */
export const TRACE = 2;

/** In `errors`: a kept stack frame, whose trace is followed forward but which pulls in no neighbours. */
export const FRAME_SEED = 2;

const STACK_FRAME = /^\s*(?:at |File "|Caused by|#\d+ 0x|\d+: 0x)/;

/** Whether a line is a stack frame (JVM, .NET, Node, PowerShell `at …`, Python `File "…"`, native `#3 0x…`). */
export function isFrame(line: string): boolean {
  return STACK_FRAME.test(line);
}

/**
 * Marks, in `keep`, the context of each error line flagged in `errors` (1), and the rest of the stack
 * trace after each kept frame flagged `FRAME_SEED` (a trace the error's own window did not reach, e.g.
 * when a runner double-spaces its output). `lines` are the analysed view
 * of the block (terminal colour codes removed). `roles` (optional) says why each line was kept: {@link ABOVE}
 * for a line kept only as what stands above an error, {@link TRACE} for one of an error's trace or the lines
 * just after it (whatever else it stands above).
 */
export function keepErrorContext(
  lines: readonly string[],
  errors: Uint8Array,
  keep: Uint8Array,
  roles?: Uint8Array,
): void {
  const n = lines.length;
  let reach = -1; // the furthest line already covered by an earlier error's continuation
  let heads: Int32Array | undefined;
  for (let i = 0; i < n; i++) {
    if (errors[i] === 0) continue;
    const base = indentOf(lines[i]!);
    const frameOnly = errors[i] === FRAME_SEED;
    if (!frameOnly && STEP_TAG.test(lines[i]!)) {
      heads ??= stepHeads(lines);
      const head = heads[i]!;
      if (head >= 0 && keep[head] === 0) {
        keep[head] = 1;
        if (roles && roles[head] === 0) roles[head] = ABOVE;
      }
    }
    for (let b = i - 1, taken = 0; !frameOnly && b >= 0 && taken < MAX_ABOVE; b--, taken++) {
      const line = lines[b]!;
      const continues = isContinuation(line, base) || LOCATION.test(line);
      if (b < i - BEFORE && !continues) break;
      if (continues || line.length <= MAX_NEIGHBOUR_CHARS) {
        keep[b] = 1;
        if (roles && roles[b] === 0) roles[b] = ABOVE;
      }
    }
    // lines up to `reach` are already kept: resume the scan there, which keeps the whole pass linear
    let j = Math.max(i + 1, reach);
    for (; !frameOnly && j < n && j <= i + ALWAYS_AFTER; j++) {
      if (lines[j]!.length <= MAX_NEIGHBOUR_CHARS || isContinuation(lines[j]!, base)) {
        keep[j] = 1;
        if (roles) roles[j] = TRACE;
      }
    }
    while (j < n && j <= i + MAX_CONTINUATION) {
      // one blank line inside a trace does not end it when the trace goes on after it
      const next = lines[j]!.length === 0 && j + 1 < n && continuesTrace(lines[j + 1]!, base) ? j + 1 : j;
      const line = lines[next]!;
      // a fenced snippet of the failing code (```…```) belongs to the failure whole
      const end = FENCE.test(line) ? closingFence(lines, next) : next;
      if (!continuesTrace(line, base)) break;
      for (; j <= end; j++) {
        keep[j] = 1;
        if (roles) roles[j] = TRACE;
      }
    }
    reach = Math.max(reach, j);
  }
}
