import { createHash } from 'node:crypto';
import { countTokens } from '@distil/core';
import { type MessagePart, type MessagesRequest, partsOf, toolResultText } from '../wire/messages-request.js';
import { canonicalJson } from './canonical-json.js';

/** How long a cache entry written at a breakpoint lives (Anthropic's two cache_control TTLs). */
export type CacheTtl = '5m' | '1h';

/**
 * One content block of the prompt Anthropic renders, in render order: tools, then system, then messages
 * (the order its prompt-caching guide gives for the cached prefix).
 */
export interface PromptBlock {
  /** SHA-256 of the block's semantic form (canonical JSON, with its role and message boundary). */
  readonly hash: string;
  /** Tokens of what the block renders (o200k via @distil/core's countTokens; see the README). */
  readonly tokens: number;
  /** Set when the block carries a `cache_control` breakpoint. */
  readonly breakpoint: CacheTtl | null;
  /** Where the block sits in the body (`tools[3]`, `system[1]`, `messages[4].content[0]`). */
  readonly label: string;
}

/** The prompt of one request as blocks, with running totals for prefix arithmetic. */
export interface AnthropicPrompt {
  readonly blocks: readonly PromptBlock[];
  /** `prefixHash[i]` identifies the first i blocks (i = 0..n). */
  readonly prefixHash: readonly string[];
  /** `prefixTokens[i]` is the tokens of the first i blocks. */
  readonly prefixTokens: readonly number[];
}

/** Splits an Anthropic Messages request into the blocks its prompt cache keys on. */
export function anthropicPrompt(body: MessagesRequest): AnthropicPrompt {
  const blocks: PromptBlock[] = [];
  for (const [i, tool] of (body.tools ?? []).entries()) {
    blocks.push(block('tool', true, tool, canonicalJson(tool), `tools[${i}]`));
  }
  const system = body.system === undefined ? [] : partsOf(body.system);
  for (const [i, part] of system.entries()) {
    blocks.push(block('system', i === 0, part, renderedText(part), `system[${i}]`));
  }
  for (const [m, message] of body.messages.entries()) {
    for (const [i, part] of partsOf(message.content).entries()) {
      const label = `messages[${m}](${message.role}).content[${i}](${part.type})`;
      blocks.push(block(message.role, i === 0, part, renderedText(part), label));
    }
  }
  const prefixHash = [''];
  const prefixTokens = [0];
  for (const b of blocks) {
    prefixHash.push(sha256(prefixHash.at(-1)! + b.hash));
    prefixTokens.push(prefixTokens.at(-1)! + b.tokens);
  }
  return { blocks, prefixHash, prefixTokens };
}

/** Blocks two prompts share from the start. */
export function sharedBlocks(a: AnthropicPrompt, b: AnthropicPrompt): number {
  const n = Math.min(a.blocks.length, b.blocks.length);
  let i = 0;
  while (i < n && a.prefixHash[i + 1] === b.prefixHash[i + 1]) i++;
  return i;
}

function block(
  role: string,
  opensMessage: boolean,
  part: object,
  rendered: string,
  label: string,
): PromptBlock {
  // Role and message boundary are part of what renders: the same text as a new message is another prompt.
  const semantic = canonicalJson({ role, opensMessage, part });
  return { hash: sha256(semantic), tokens: countTokens(rendered), breakpoint: ttlOf(part), label };
}

/** The text a block puts in front of the model: what is counted, not what is compared. */
function renderedText(part: MessagePart): string {
  if (part.type === 'text' && typeof part.text === 'string') return part.text;
  if (part.type === 'tool_result') return toolResultText(part);
  if (part.type === 'tool_use') return `${String(part.name)} ${JSON.stringify(part.input ?? {})}`;
  if (part.type === 'thinking' && typeof part.thinking === 'string') return part.thinking;
  return canonicalJson(part);
}

function ttlOf(part: object): CacheTtl | null {
  const control = (part as { cache_control?: unknown }).cache_control;
  if (!control || typeof control !== 'object') return null;
  return (control as { ttl?: unknown }).ttl === '1h' ? '1h' : '5m';
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
