import { type Block, type Decision, type Trajectory, ValidationError } from '@distil/contract';
import { decisionText } from '@distil/core';
import { importTrajectories } from '@distil/trajectories';
import type { RecordedCall, RecordedSession, SessionSource } from './recorded-session.js';
import { messagesToolName, toolDefinitionsOf } from './trajectory-tools.js';

/**
 * The model a trajectory's calls are priced at. SWE-agent, OpenHands and Distil trajectories do not say
 * which Anthropic model answered (many were not Anthropic runs at all), so one is assumed; the CLI can
 * pass another to `sessionFromTrajectory`.
 */
export const TRAJECTORY_DEFAULT_MODEL = 'claude-sonnet-4-5';

/** What a message says when the turn added nothing: the Messages API refuses empty content. */
const NO_OUTPUT = '(no output)';

/** Sources core's importer gives runs that are not agent trajectories of these kinds. */
const OTHER_FORMATS = new Set(['claude-code', 'anthropic-messages', 'openai-chat']);

type Part = Record<string, unknown>;
/** A message being assembled (a type, not an interface, so it is a `Record<string, unknown>`). */
type Entry = { role: 'user' | 'assistant'; content: Part[] };

/**
 * Every run in a SWE-agent `.traj` (or YAML demonstration), an OpenHands `output.jsonl` (one run a line)
 * or a Distil trajectory file, as the requests the agent made. Throws a ValidationError naming the file
 * for anything else: a Claude Code log has its own importer (importClaudeCodeLog), which keeps the
 * provider's bill.
 */
export function sessionsFromTrajectories(file: string): RecordedSession[] {
  return importTrajectories(file).map((t) => sessionFromTrajectory(t, file, sourceOf(t, file)));
}

/**
 * Core's importers name their format in `source`; a Distil trajectory's `source` is whatever wrote it (a
 * generator, a recording proxy), so anything that is not a known importer's name is Distil's own.
 */
function sourceOf(trajectory: Trajectory, file: string): SessionSource {
  const source = trajectory.source ?? '';
  if (source === 'swe-agent' || source === 'openhands') return source;
  if (OTHER_FORMATS.has(source)) {
    throw new ValidationError(`trajectory ${file}`, [
      { path: '(file)', message: `a ${source} file, not a SWE-agent, OpenHands or Distil trajectory` },
    ]);
  }
  return 'distil';
}

/**
 * One trajectory as Anthropic Messages requests. Turn i's context is one user message (tool results first,
 * as the API requires, then text) and its decision the assistant reply after it, a `tool_use` with id
 * `toolu_<i>`. The first tool block after a call answers it; a call nothing answered gets a `(no output)`
 * result, because the API rejects a `tool_use` whose result is missing. Importers add the text the agent
 * wrote with a decision at the start of the next turn, so those assistant blocks go back into the reply
 * they belong to; any other assistant block (a demonstration's answer, a second call of one response)
 * stays an assistant message where it was. Adjacent messages of one role merge, so roles alternate.
 */
export function sessionFromTrajectory(
  trajectory: Trajectory,
  file: string,
  source: SessionSource,
  model: string = TRAJECTORY_DEFAULT_MODEL,
): RecordedSession {
  const { turns } = trajectory;
  const conversation = new Conversation();
  const calls: RecordedCall[] = [];
  turns.forEach((turn, i) => {
    const answersCall = i > 0 && turns[i - 1]!.decision !== null;
    const blocks =
      i === 0
        ? turn.blocks.filter((b) => b.role !== 'system')
        : turn.blocks.slice(answersCall ? leadingAssistantCount(turn.blocks) : 0);
    for (const block of blocks) {
      if (isBlank(block.text)) continue;
      if (block.role === 'assistant') conversation.wrote(block.text);
      else conversation.read(block);
    }
    if (turn.decision === null) return;
    const next = turns[i + 1]?.blocks ?? [];
    const said = next.slice(0, leadingAssistantCount(next)).map((b) => b.text);
    const end = conversation.reply(replyParts(turn.decision, said, `toolu_${i}`));
    calls.push({ end, replyEnd: end + 1, model, usage: null });
  });
  conversation.finish();
  const system = (turns[0]?.blocks ?? [])
    .filter((b) => b.role === 'system')
    .map((b) => b.text)
    .join('\n\n');
  return {
    id: trajectory.id,
    source,
    file,
    api: 'messages',
    entries: conversation.entries,
    calls,
    system: system.length > 0 ? system : null,
    tools: toolDefinitionsOf(trajectory),
    skippedLines: 0,
  };
}

/** The reply a decision was: the text the agent wrote with it, then the call (or the answer). */
function replyParts(decision: Decision, said: readonly string[], id: string): Part[] {
  if (decision.type === 'final') {
    const texts = said.filter((t) => !isBlank(t));
    if (texts.length > 0) return texts.map(textPart);
    return [textPart(isBlank(decision.text) ? NO_OUTPUT : decision.text)];
  }
  // OpenHands' importer writes the call after the thought as `tool({...})`; the tool_use says it already.
  const rendered = decisionText(decision);
  const texts = said
    .map((t) => (t.endsWith(rendered) ? t.slice(0, -rendered.length) : t))
    .filter((t) => !isBlank(t))
    .map((t) => textPart(t.trimEnd()));
  return [
    ...texts,
    { type: 'tool_use', id, name: messagesToolName(decision.tool), input: decision.arguments },
  ];
}

/**
 * The messages of a conversation as they are built: user-side parts wait until an assistant message
 * follows (or the conversation ends), so that one turn's context becomes one user message.
 */
class Conversation {
  readonly entries: Entry[] = [];
  private texts: Part[] = [];
  private result: Part | null = null;
  /** The id of the tool_use the next user message must answer. */
  private open: string | null = null;
  private lastIsReply = false;

  /** A user, system or tool block: context the agent read. */
  read(block: Block): void {
    if (block.role === 'tool' && this.open !== null && this.result === null) {
      this.result = toolResult(this.open, block.text);
    } else {
      this.texts.push(textPart(block.text));
    }
  }

  /** Assistant text that was context, not the reply to this turn. */
  wrote(text: string): void {
    this.flush(true);
    this.appendAssistant([textPart(text)]);
    this.lastIsReply = false;
  }

  /** The reply to the context so far; its index in `entries`. */
  reply(parts: Part[]): number {
    this.flush(true);
    this.appendAssistant(parts);
    this.lastIsReply = true;
    const call = parts.find((p) => p['type'] === 'tool_use');
    this.open = call ? String(call['id']) : null;
    return this.entries.length - 1;
  }

  /** Context after the last reply (a trajectory that ends without a decision) is kept as it was read. */
  finish(): void {
    this.flush(false);
  }

  /**
   * Sends the waiting user-side parts as one message. Before an assistant message one is needed when
   * the conversation would otherwise start with the assistant, a call would go unanswered, or two
   * replies would merge into one.
   */
  private flush(beforeAssistant: boolean): void {
    const needed = beforeAssistant && (this.entries.length === 0 || this.open !== null || this.lastIsReply);
    if (!needed && this.texts.length === 0 && this.result === null) return;
    const content: Part[] = [];
    if (this.open !== null) content.push(this.result ?? toolResult(this.open, NO_OUTPUT));
    content.push(...this.texts);
    if (content.length === 0) content.push(textPart(NO_OUTPUT));
    const last = this.entries.at(-1);
    if (last?.role === 'user') last.content.push(...content);
    else this.entries.push({ role: 'user', content });
    this.texts = [];
    this.result = null;
    this.open = null;
    this.lastIsReply = false;
  }

  private appendAssistant(parts: Part[]): void {
    const last = this.entries.at(-1);
    if (last?.role === 'assistant') last.content.push(...parts);
    else this.entries.push({ role: 'assistant', content: parts });
  }
}

function leadingAssistantCount(blocks: readonly Block[]): number {
  const index = blocks.findIndex((b) => b.role !== 'assistant');
  return index === -1 ? blocks.length : index;
}

/** The API rejects text parts that are empty or only whitespace. */
function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

function textPart(text: string): Part {
  return { type: 'text', text };
}

function toolResult(id: string, text: string): Part {
  return { type: 'tool_result', tool_use_id: id, content: text };
}
