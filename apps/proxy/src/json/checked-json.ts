import type { z } from 'zod';

/**
 * `json` as `T` when it has the shape `schema` describes. The allocation-free check `looksLike` (held
 * equal to the schema by a property test beside it) answers first, because zod copies every object it
 * validates; zod decides whenever the check says no, so the schema stays the judge.
 */
export function checkedAs<T>(
  json: unknown,
  looksLike: (value: unknown) => boolean,
  schema: z.ZodType,
): T | null {
  return looksLike(json) || schema.safeParse(json).success ? (json as T) : null;
}

/** {@link checkedAs} of a JSON body; `null` when the body does not parse. */
export function parseCheckedAs<T>(
  raw: Buffer,
  looksLike: (value: unknown) => boolean,
  schema: z.ZodType,
): T | null {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
  return checkedAs<T>(json, looksLike, schema);
}
