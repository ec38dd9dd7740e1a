import {
  type ConversationView,
  MessagesRequest,
  messagesView,
  ResponsesRequest,
  responsesView,
} from '@distil/savings';
import type { AgentRequest } from '../upstream/agent-tap.js';

/** A model request (Messages or Responses) the agent sent, read back. */
export interface ReadRequest {
  readonly api: 'messages' | 'responses';
  readonly model: string;
  readonly view: ConversationView;
  /** Identifies the conversation: the model and the first entry of its history. */
  readonly conversation: string;
}

/** Reads an agent request when it is a model call; null for HEAD probes, token counts and the like. */
export function readAgentRequest(request: AgentRequest): ReadRequest | null {
  if (request.method !== 'POST') return null;
  const path = request.path.split('?')[0];
  let json: unknown;
  try {
    json = JSON.parse(request.body.toString('utf8'));
  } catch {
    return null;
  }
  if (path === '/v1/messages') {
    const parsed = MessagesRequest.safeParse(json);
    if (!parsed.success) return null;
    const first = JSON.stringify(parsed.data.messages[0] ?? null);
    return {
      api: 'messages',
      model: parsed.data.model,
      view: messagesView(parsed.data),
      conversation: `${parsed.data.model}:${first}`,
    };
  }
  if (path === '/v1/responses') {
    const parsed = ResponsesRequest.safeParse(json);
    if (!parsed.success) return null;
    const input = parsed.data.input;
    const first = JSON.stringify(typeof input === 'string' ? input : (input[0] ?? null));
    return {
      api: 'responses',
      model: parsed.data.model,
      view: responsesView(parsed.data),
      conversation: `${parsed.data.model}:${parsed.data.prompt_cache_key ?? first}`,
    };
  }
  return null;
}

/** Tool results by call id. */
export function resultsById(view: ConversationView): Map<string, string> {
  const out = new Map<string, string>();
  for (const call of view.calls) if (call.output !== null) out.set(call.id, call.output);
  return out;
}
