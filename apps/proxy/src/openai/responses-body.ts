import { z } from 'zod';
import { checkedAs } from '../json/checked-json.js';
import { looksLikeResponsesBody } from './responses-shape.js';

/**
 * The fields of an OpenAI Responses request the proxy reads. Items are read loosely: the API adds item
 * types often, and every type the proxy does not know (reasoning, compaction, item references, …) is
 * passed through untouched.
 */
export const ResponsesBody = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.looseObject({}))]).optional(),
  instructions: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  previous_response_id: z.string().nullish(),
});

/** One input or output item (any type). */
export type ResponseItem = { type?: string; id?: string; [field: string]: unknown };

/** A Responses request after validation; mutated in place by the rewrite. */
export interface ResponsesRequest {
  model: string;
  input?: string | ResponseItem[];
  instructions?: string | null;
  tools?: { type: string; name?: string; [field: string]: unknown }[];
  stream?: boolean | null;
  store?: boolean | null;
  previous_response_id?: string | null;
  [field: string]: unknown;
}

/** The parsed body when it is a Responses request the proxy can rewrite; null passes it through. */
export function readResponsesRequest(json: unknown): ResponsesRequest | null {
  return checkedAs<ResponsesRequest>(json, looksLikeResponsesBody, ResponsesBody);
}

/** A response object (non-streaming body, or the `response` of a stream's terminal event). */
export const ResponseObject = z.looseObject({
  id: z.string(),
  object: z.literal('response'),
  output: z.array(z.looseObject({})),
});

/** A response object. */
export interface ResponseBody {
  id: string;
  object: 'response';
  status?: string;
  model?: string;
  output: ResponseItem[];
  usage?: Record<string, unknown> | null;
  [field: string]: unknown;
}
