import type { ContentKind } from '@distil/contract';
import * as core from '@distil/core';

// The core package's content detector, when this build of it has one; otherwise every tool text is
// plain tool output (the kind only chooses transforms, it never drops bytes).
const detect = (core as { detectKind?: (text: string) => ContentKind }).detectKind;

/** The content kind of a tool result's text. */
export function toolKind(text: string): ContentKind {
  return detect ? detect(text) : 'tool_output';
}
