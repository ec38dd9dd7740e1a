/**
 * A recorded agent session as the requests the agent made: the whole conversation once, and for each model
 * call where its request ended and its reply ran. Request k carries `entries.slice(0, calls[k].end)`; its
 * reply is `entries.slice(calls[k].end, calls[k].replyEnd)`. Replay rebuilds each request from this, in
 * the agent's own wire format, and sends it through the proxy.
 */

/** The provider API the agent spoke: Anthropic Messages or OpenAI Responses. */
export type WireApi = 'messages' | 'responses';

/** Where a session came from. */
export type SessionSource =
  | 'claude-code'
  | 'claude-code-subagent'
  | 'codex'
  | 'swe-agent'
  | 'openhands'
  | 'distil';

/** What the provider billed for one call, as the log records it (tokens). */
export interface RecordedUsage {
  /** Input billed at the full input price (Anthropic `input_tokens`; OpenAI input minus cached). */
  readonly input: number;
  /** Input written to the cache (Anthropic `cache_creation_input_tokens`; 0 for OpenAI). */
  readonly cacheWrite: number;
  /** Input read from the cache. */
  readonly cacheRead: number;
  readonly output: number;
}

/** One model call of a session. */
export interface RecordedCall {
  /** The request carried `entries.slice(0, end)`. */
  readonly end: number;
  /** The reply is `entries.slice(end, replyEnd)`; `replyEnd > end`. */
  readonly replyEnd: number;
  /** The model the call was made to, as the log names it. */
  readonly model: string;
  /** The provider's bill for the call, when the log records it. */
  readonly usage: RecordedUsage | null;
}

/**
 * One session. For `messages`, entries are Anthropic messages (`{ role: 'user' | 'assistant', content }`,
 * content a string or Anthropic content parts: text, tool_use, tool_result, thinking…). For `responses`,
 * entries are Responses input items (`message`, `reasoning`, `function_call`, `function_call_output`,
 * `custom_tool_call`, `custom_tool_call_output`, …) exactly as the agent would send them back.
 */
export interface RecordedSession {
  /** The session's own id where the log has one, else derived from the file name. */
  readonly id: string;
  readonly source: SessionSource;
  /** The file it was read from. */
  readonly file: string;
  readonly api: WireApi;
  readonly entries: readonly Record<string, unknown>[];
  readonly calls: readonly RecordedCall[];
  /**
   * The agent's system prompt when the log records it (SWE-agent and OpenHands do; Claude Code does not;
   * a Codex rollout records only the user's instructions). Null: replay uses the client profile's.
   */
  readonly system: string | null;
  /** The agent's tool definitions when the log records them, in the session's wire format; else null. */
  readonly tools: readonly Record<string, unknown>[] | null;
  /** Lines of the file that were not valid JSON (skipped). */
  readonly skippedLines: number;
}
