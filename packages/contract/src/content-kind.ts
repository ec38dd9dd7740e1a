import { z } from 'zod';

/** What a block of context holds; compression picks its transforms by kind. */
export const ContentKind = z.enum(['tool_output', 'log', 'json', 'source', 'diff', 'doc', 'chat', 'schema']);
export type ContentKind = z.infer<typeof ContentKind>;

/** Every content kind, in declaration order. */
export const CONTENT_KINDS: readonly ContentKind[] = ContentKind.options;
