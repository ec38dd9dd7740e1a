import type { Decision } from '@distil/contract';

/** How a decision reads as text (what the model wrote to take it); used for output-token counts. */
export function decisionText(decision: Decision | null): string {
  if (decision === null) return '';
  if (decision.type === 'final') return decision.text;
  return `${decision.tool}(${JSON.stringify(decision.arguments)})`;
}
