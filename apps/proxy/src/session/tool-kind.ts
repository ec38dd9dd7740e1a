import type { ContentKind } from '@distil/contract';
import { detectKind } from '@distil/core';

/** The content kind of a tool result's text: the one detector `distil compress` and replay use too. */
export function toolKind(text: string): ContentKind {
  return detectKind(text);
}
