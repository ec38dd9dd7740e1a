import { HANDLE_PATTERN, type Handle } from '@distil/contract';

/**
 * What a stub may say about the lines it hides, beyond their count: that they are all of the template
 * of the kept line just above it (`<< +325 lines like the line above, handle=… >>`). A fixed phrase,
 * never text from the block: a stub must not carry words an attacker chose.
 */
export type StubNote = 'like the line above';

/**
 * The stub that announces a fold (spec/threat-model.txt: "every fold announces itself"):
 * `<< +N lines, handle=dh_… >>`. It says how many lines went, what they are when a note says so, and
 * the handle that returns them.
 */
export function formatStub(lineCount: number, handle: Handle, note?: StubNote): string {
  return `<< +${lineCount} lines${note === undefined ? '' : ` ${note}`}, handle=${handle} >>`;
}

/** Matches a stub anywhere in text; group 1 is the line count, group 2 the handle. */
export const STUB_IN_TEXT = /<< \+(\d+) lines?(?: like the line above)?, handle=(dh_[0-9a-f]{12}) >>/g;

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
