import type { Decision } from '@distil/contract';
import type { Replayed } from './runner.js';

/**
 * Text as a decision is compared: line endings unified, trailing blanks of every line and the whole
 * string trimmed. Indentation and inner spacing stay, since they change what an edit writes.
 */
function normaliseText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

const NUMERIC = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * An argument value in canonical form: object keys sorted, keys whose value is null or absent dropped (an
 * omitted optional argument and an explicit null mean the same call), numeric strings read as numbers
 * (models quote numbers inconsistently), strings normalised as above.
 */
function normaliseValue(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = normaliseText(value);
    return NUMERIC.test(text) ? Number(text) : text;
  }
  if (Array.isArray(value)) return value.map(normaliseValue);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== null && v !== undefined) out[key] = normaliseValue(v);
    }
    return out;
  }
  return value;
}

/**
 * The canonical form of a decision: a tool call is its tool name and normalised arguments, a final answer
 * its normalised text. Two decisions are the same when their keys are equal.
 */
export function decisionKey(decision: Decision): string {
  return decision.type === 'tool_call'
    ? JSON.stringify(['tool_call', decision.tool, normaliseValue(decision.arguments)])
    : JSON.stringify(['final', normaliseText(decision.text)]);
}

/** Whether two decisions are the same call (tool + normalised arguments) or the same final text. */
export function sameDecision(a: Decision, b: Decision): boolean {
  return decisionKey(a) === decisionKey(b);
}

/**
 * Whether a replay agrees with a reference replay. A context that cannot reproduce a decision never
 * agrees with anything (not even another such context): agreement is only ever claimed on evidence.
 */
export function sameReplay(a: Replayed, b: Replayed): boolean {
  return a.kind === 'decision' && b.kind === 'decision' && sameDecision(a.decision, b.decision);
}
