import { HANDLE_PATTERN, type Handle } from '@distil/contract';

/**
 * The stub that announces a fold (spec/threat-model.txt: "every fold announces itself"):
 * `<< +N lines, handle=dh_… >>`. It says how many lines went and the handle that returns them.
 */
export function formatStub(lineCount: number, handle: Handle): string {
  return `<< +${lineCount} lines, handle=${handle} >>`;
}

/** Matches a stub anywhere in text; group 1 is the line count, group 2 the handle. */
export const STUB_IN_TEXT = /<< \+(\d+) lines?, handle=(dh_[0-9a-f]{12}) >>/g;

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
