/**
 * Sums OpenAI usage objects field by field, nested details included (Chat Completions and Responses
 * write their counts this way), so a reply joined from several rounds reports what all of them billed.
 * A field that is not a count keeps its first value.
 */
export function sumUsageFields(usages: readonly Record<string, unknown>[]): Record<string, unknown> {
  const total: Record<string, unknown> = {};
  for (const usage of usages) {
    for (const [key, value] of Object.entries(usage)) {
      if (typeof value === 'number') total[key] = ((total[key] as number | undefined) ?? 0) + value;
      else if (value && typeof value === 'object' && !Array.isArray(value)) {
        const sub = (total[key] as Record<string, unknown> | undefined) ?? {};
        total[key] = sumUsageFields([sub, value as Record<string, unknown>]);
      } else if (!(key in total)) total[key] = value;
    }
  }
  return total;
}
