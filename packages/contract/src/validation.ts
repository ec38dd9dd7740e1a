import type { z } from 'zod';

/** One problem with an input, located by its dotted field path (`keepModel.type`, `turns.3.blocks.0.id`). */
export interface FieldIssue {
  readonly path: string;
  readonly message: string;
}

/** An external input failed its schema. `issues` lists every problem, each naming its field. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  constructor(
    readonly what: string,
    readonly issues: readonly FieldIssue[],
  ) {
    super(`invalid ${what}:\n${issues.map((i) => `  - ${i.path}: ${i.message}`).join('\n')}`);
  }
}

/** Renders a zod path as `a.b.3.c`; the root is `(root)`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map((p) => String(p)).join('.');
}

/** Every issue of a zod error as `{ path, message }`. */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) =>
    // An unknown key is reported at the key itself, so a typo points at the line to fix.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: fieldPath([...issue.path, key]), message: 'unknown field' }))
      : [{ path: fieldPath(issue.path), message: issue.message }],
  );
}

/**
 * Parses `input` with `schema`, or throws a ValidationError that lists every problem with its field path.
 * Use at every edge where bytes come from outside (config files, trajectories, HTTP bodies).
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(what, fieldIssues(result.error));
  return result.data;
}
