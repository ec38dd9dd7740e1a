import type { ContentKind, Role } from '@distil/contract';
import { detectKind } from '@distil/core';

/**
 * The content kind of imported text. Tool results are classified by the same detector the proxy and
 * `distil compress` use, so a replayed trajectory compresses a block exactly as the proxy would; system
 * prompts are documentation and conversation turns are chat.
 */
export function kindForImportedText(role: Role, text: string): ContentKind {
  if (role === 'system') return 'doc';
  if (role !== 'tool') return 'chat';
  return detectKind(text);
}
