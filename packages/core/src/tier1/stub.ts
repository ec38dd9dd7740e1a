import { HANDLE_PATTERN, type Handle } from '@distil/contract';

/**
 * What a stub may say about the lines it hides, beyond their count (issue #16: a stub that hides 59
 * errors must say so, or nothing tells the agent to expand):
 * - `like the line above`: all of the template of the kept line just above (`<< +325 lines like the line
 *   above, handle=… >>`), and `like the error above` when that line or the hidden ones are findings
 *   (`<< +59 more lines like the error above, handle=… >>`);
 * - `like the findings above`: every hidden line is a finding of a template the block lists many times,
 *   whose first members are shown above (`<< +40 more lines like the findings above, handle=… >>`);
 * - `repeated above`: every hidden line is a copy of a line shown above it;
 * - `{ errors, alike }`: how many of the hidden lines are findings, and how many of those are like the
 *   findings above (`<< +60 lines incl. 3 errors, handle=… >>`, `<< +9 lines incl. 7 like the findings
 *   above, handle=… >>`, `<< +20 lines incl. 1 error and 12 like the findings above, handle=… >>`).
 * Fixed phrases and a count, never text from the block: a stub must not carry words an attacker chose.
 */
export type StubNote =
  | 'like the line above'
  | 'like the error above'
  | 'like the findings above'
  | 'repeated above'
  | { readonly errors: number; readonly alike?: number };

/**
 * The stub that announces a fold (spec/threat-model.txt: "every fold announces itself"):
 * `<< +N lines, handle=dh_… >>`. It says how many lines went, what they are when a note says so, and
 * the handle that returns them.
 */
export function formatStub(lineCount: number, handle: Handle, note?: StubNote): string {
  return `<< +${lineCount} ${describe(note)}, handle=${handle} >>`;
}

function describe(note: StubNote | undefined): string {
  if (note === undefined) return 'lines';
  if (note === 'like the error above' || note === 'like the findings above') return `more lines ${note}`;
  if (typeof note === 'string') return `lines ${note}`;
  const errors = note.errors > 0 ? `${note.errors} error${note.errors === 1 ? '' : 's'}` : '';
  const alike = (note.alike ?? 0) > 0 ? `${note.alike} like the findings above` : '';
  if (errors === '' && alike === '') return 'lines';
  return `lines incl. ${[errors, alike].filter(Boolean).join(' and ')}`;
}

/**
 * Matches a stub anywhere in text, in every form {@link formatStub} writes; group 1 is the line count,
 * group 2 the handle.
 */
export const STUB_IN_TEXT =
  /<< \+(\d+) (?:more )?lines?(?: like the (?:line|error|findings) above| repeated above| incl\. (?:\d+ errors?(?: and \d+ like the findings above)?|\d+ like the findings above))?, handle=(dh_[0-9a-f]{12}) >>/g;

/** A stub found in text. */
export interface FoundStub {
  readonly lineCount: number;
  readonly handle: Handle;
  readonly index: number;
  readonly length: number;
}

/** Every stub in `text`, in order. Says nothing about whether Distil issued them: check the handles. */
export function findStubs(text: string): FoundStub[] {
  const found: FoundStub[] = [];
  for (const match of text.matchAll(STUB_IN_TEXT)) {
    const handle = match[2]!;
    if (!HANDLE_PATTERN.test(handle)) continue;
    found.push({ lineCount: Number(match[1]), handle, index: match.index ?? 0, length: match[0].length });
  }
  return found;
}

/** Whether `text` already contains something shaped like a Distil stub (e.g. printed by an attacker). */
export function containsStubSyntax(text: string): boolean {
  STUB_IN_TEXT.lastIndex = 0;
  const found = STUB_IN_TEXT.test(text);
  STUB_IN_TEXT.lastIndex = 0;
  return found;
}
