import { z } from 'zod';
import { ContentKind } from './content-kind.js';

/** Who put a block into the context. */
export const Role = z.enum(['system', 'user', 'assistant', 'tool']);
export type Role = z.infer<typeof Role>;

/**
 * One unit of context: a message part, a tool result, a document.
 *
 * `trusted` marks content the agent's operator wrote (system prompt, user text). Tool results, fetched
 * pages and files are untrusted by default: spec/threat-model.txt keeps the two from ever sharing a budget.
 */
export const Block = z
  .object({
    id: z.string().min(1, 'a block needs a non-empty id'),
    role: Role,
    kind: ContentKind,
    text: z.string(),
    trusted: z.boolean().default(false),
    /** The tool that produced a tool result, when known. */
    tool: z.string().min(1).optional(),
  })
  .strict();
export type Block = z.infer<typeof Block>;
export type BlockInput = z.input<typeof Block>;
