import { z } from 'zod';

/** What the agent did after reading a context: called a tool, or answered. */
export const Decision = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('tool_call'),
      tool: z.string().min(1, 'a tool call names its tool'),
      arguments: z.record(z.string(), z.unknown()).default({}),
    })
    .strict(),
  z.object({ type: z.literal('final'), text: z.string() }).strict(),
]);
export type Decision = z.infer<typeof Decision>;
