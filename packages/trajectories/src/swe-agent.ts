import { type Decision, parseOrThrow, type Trajectory } from '@distil/contract';
import { z } from 'zod';
import { commandWords, MessageText, textOf } from './message-content.js';
import { TurnBuilder, toolCallDecision } from './turn-builder.js';

const ToolCall = z
  .object({
    function: z.object({ name: z.string().min(1), arguments: z.unknown().optional() }).loose(),
  })
  .loose();

const HistoryMessage = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: MessageText,
    thought: z.string().nullish(),
    action: z.string().nullish(),
    message_type: z.string().nullish(),
    is_demo: z.boolean().nullish(),
    tool_calls: z.array(ToolCall).nullish(),
  })
  .loose();
type HistoryMessage = z.infer<typeof HistoryMessage>;

const Step = z
  .object({
    action: z.string(),
    observation: z.string().nullish(),
    thought: z.string().nullish(),
    response: z.string().nullish(),
  })
  .loose();

/** SWE-agent's `.traj` file: `history` (the messages the model saw) and/or `trajectory` (the steps). */
export const SweAgentFile = z
  .object({
    history: z.array(HistoryMessage).optional(),
    trajectory: z.array(Step).optional(),
    environment: z.string().optional(),
  })
  .loose()
  .refine((file) => (file.history?.length ?? 0) > 0 || (file.trajectory?.length ?? 0) > 0, {
    message: 'a SWE-agent trajectory needs a non-empty `history` or `trajectory` array',
  });

/** Whether parsed JSON looks like a SWE-agent trajectory. */
export function looksLikeSweAgent(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const file = json as Record<string, unknown>;
  const history = file['history'];
  if (Array.isArray(file['trajectory'])) return true;
  return (
    Array.isArray(history) &&
    history.some(
      (m) =>
        typeof m === 'object' &&
        m !== null &&
        'role' in m &&
        ('action' in m || 'thought' in m || 'message_type' in m || 'agent' in m),
    )
  );
}

/**
 * Imports a SWE-agent trajectory. The `history` is what the model actually read, so it is preferred; the
 * `trajectory` steps are the fallback. Observations (user or tool messages after the first real action)
 * are untrusted tool output; demonstrations and the task statement are trusted.
 */
export function importSweAgent(json: unknown, id: string): Trajectory {
  const file = parseOrThrow(SweAgentFile, json, `SWE-agent trajectory ${id}`);
  const builder = new TurnBuilder();
  if (file.history && file.history.length > 0) readHistory(file.history, builder);
  else readSteps(file.trajectory ?? [], builder);
  return builder.build(id, 'swe-agent', false);
}

function readHistory(history: readonly HistoryMessage[], builder: TurnBuilder): void {
  let acted = false;
  let lastTool: string | undefined;
  for (const message of history) {
    const text = textOf(message.content);
    const demo = message.is_demo === true;
    if (message.role === 'assistant' && !demo) {
      const decision = assistantDecision(message, text);
      builder.decide(decision);
      lastTool = decision.type === 'tool_call' ? decision.tool : undefined;
      acted = true;
      builder.add({ role: 'assistant', text });
    } else if (message.role === 'tool' || (message.role === 'user' && acted && !demo)) {
      builder.add({ role: 'tool', text, tool: lastTool });
    } else {
      builder.add({ role: message.role === 'assistant' ? 'assistant' : message.role, text, trusted: true });
    }
  }
}

function readSteps(steps: z.infer<typeof Step>[], builder: TurnBuilder): void {
  for (const step of steps) {
    const decision = actionDecision(step.action, step.thought ?? '');
    builder.decide(decision);
    builder.add({ role: 'assistant', text: step.response ?? `${step.thought ?? ''}\n${step.action}` });
    builder.add({
      role: 'tool',
      text: step.observation ?? '',
      tool: decision.type === 'tool_call' ? decision.tool : undefined,
    });
  }
}

function assistantDecision(message: HistoryMessage, text: string): Decision {
  const call = message.tool_calls?.[0];
  if (call) return toolCallDecision(call.function.name, call.function.arguments);
  return actionDecision(message.action ?? '', message.thought ?? text);
}

/**
 * SWE-agent writes an action as a command line, optionally followed by a multi-line body (an edit's
 * replacement text ending in `end_of_edit`). The command's first word is the tool.
 */
export function actionDecision(action: string, thought: string): Decision {
  const trimmed = action.trim();
  if (trimmed.length === 0) return { type: 'final', text: thought };
  const newline = trimmed.indexOf('\n');
  const firstLine = newline === -1 ? trimmed : trimmed.slice(0, newline);
  const [tool, ...argv] = commandWords(firstLine);
  if (!tool) return { type: 'final', text: thought };
  const body = newline === -1 ? undefined : trimmed.slice(newline + 1);
  return { type: 'tool_call', tool, arguments: { argv, ...(body !== undefined ? { input: body } : {}) } };
}
