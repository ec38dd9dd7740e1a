import type { JsonPath } from '../json/json-scan.js';

/**
 * A tool result (or similar untrusted content) in a request, as a provider adapter found it. `write`
 * replaces its text in the request body; it is absent when the block must go out as it came (an excluded
 * tool, Distil's own expand results).
 */
export interface ToolText {
  /** The provider's id for the call this answers (tool_use_id / tool_call_id / call_id), when known. */
  readonly id: string | undefined;
  readonly tool: string | undefined;
  readonly text: string;
  readonly write?: (text: string) => void;
  /** Where the text sits in the request JSON, so a write can be spliced into the raw body. */
  readonly path?: JsonPath;
}

/**
 * What a provider adapter reads out of a request body. Thinking, signatures, encrypted or opaque items,
 * server tool blocks and cache_control markers are in neither list: they are never read nor rewritten.
 */
export interface RequestContext {
  /** Every tool result's text, in order. Those with `write` go through the session layer. */
  readonly toolTexts: readonly ToolText[];
  /**
   * Trusted texts (system prompt, user text, the agent's own calls): the anchors' only source. A function,
   * because they are needed only when a request brings something new to compress — not on the steady
   * turn, where reading them (a JSON.stringify of every tool call's input) was wasted work.
   */
  readonly trustedTexts: () => readonly string[];
  /**
   * The input of each call the agent made, by the provider's call id, as it stands among the trusted
   * texts: a tool output's keep model is told which call produced it. Lazy for the same reason.
   */
  readonly callInputs: () => ReadonlyMap<string, string>;
}

/** Names of tools whose results Distil never compresses: its own (expanded content stays whole). */
export const DISTIL_TOOL_NAMES: ReadonlySet<string> = new Set(['distil_expand', 'distil_search']);

/** Whether a tool's results may be compressed, given the configured exclusions. */
export function compressibleTool(tool: string | undefined, excluded: ReadonlySet<string>): boolean {
  if (tool === undefined) return true;
  return !DISTIL_TOOL_NAMES.has(tool) && !excluded.has(tool);
}
