import type { Trajectory } from '@distil/contract';

/** What the Messages API accepts as a tool name; SWE-agent's commands (`./rock`, `RsaCtfTool.py`) are not. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Every derived definition says the same: the log does not record what the agent told the model. */
export const RECORDED_TOOL_DESCRIPTION = 'Tool used by the recorded agent.';

/**
 * The name a trajectory's tool is sent under: unchanged when the Messages API accepts it, else with each
 * character it refuses replaced by `_` and cut to 64 characters, so the same command always maps to the
 * same name and a `tool_use` always matches a definition.
 */
export function messagesToolName(tool: string): string {
  if (TOOL_NAME.test(tool)) return tool;
  const name = tool.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return name.length > 0 ? name : 'tool';
}

/**
 * Anthropic tool definitions for the tools a trajectory calls. SWE-agent, OpenHands and Distil's own
 * trajectories do not record the definitions the agent sent, but a request whose history holds a
 * `tool_use` is only valid when `tools` defines that name, so one is derived per tool from the calls
 * themselves: each argument key seen becomes a property, typed `string` when every value given for it was
 * a string and left open otherwise. Sessions carry this list even when empty, so replay never falls back
 * to a client profile's tools (those belong to another agent).
 */
export function toolDefinitionsOf(trajectory: Trajectory): Record<string, unknown>[] {
  const argumentsByTool = new Map<string, Map<string, boolean>>();
  for (const turn of trajectory.turns) {
    const decision = turn.decision;
    if (decision?.type !== 'tool_call') continue;
    const name = messagesToolName(decision.tool);
    const keys = argumentsByTool.get(name) ?? new Map<string, boolean>();
    argumentsByTool.set(name, keys);
    for (const [key, value] of Object.entries(decision.arguments)) {
      keys.set(key, (keys.get(key) ?? true) && typeof value === 'string');
    }
  }
  return [...argumentsByTool].map(([name, keys]) => ({
    name,
    description: RECORDED_TOOL_DESCRIPTION,
    input_schema: {
      type: 'object',
      properties: Object.fromEntries(
        [...keys].map(([key, allStrings]) => [key, allStrings ? { type: 'string' } : {}]),
      ),
    },
  }));
}
