import { existsSync, readFileSync } from 'node:fs';
import { parseOrThrow } from '@distil/contract';
import { z } from 'zod';
import type { WireApi } from '../sessions/recorded-session.js';

const Part = z.looseObject({ type: z.string() });
const Tool = z.looseObject({});

/**
 * What a real client sends around the conversation, taken from one request it made: the system prompt and
 * tool list a log does not record. A Claude Code log holds the messages but not the ~30k tokens of tool
 * definitions and system prompt in front of them, and that prefix is most of what every request re-reads,
 * so a replay without it would overstate what compressing tool output saves.
 */
export const ClientProfile = z.discriminatedUnion('api', [
  z.object({
    api: z.literal('messages'),
    client: z.string(),
    cliVersion: z.string(),
    /** System parts as the client sent them, `cache_control` breakpoints included. */
    system: z.array(Part),
    tools: z.array(Tool),
    maxTokens: z.number().int().positive(),
  }),
  z.object({
    api: z.literal('responses'),
    client: z.string(),
    cliVersion: z.string(),
    instructions: z.string(),
    /** The `developer` messages the client puts before the first user message (its own prompt). */
    prelude: z.array(z.looseObject({ type: z.string().optional(), role: z.string().optional() })),
    tools: z.array(Tool),
    /** Request fields the client always sets (`tool_choice`, `parallel_tool_calls`, `reasoning`…). */
    fields: z.record(z.string(), z.unknown()),
  }),
]);
export type ClientProfile = z.infer<typeof ClientProfile>;

/** The profiles shipped with the package, captured from the real CLIs (see the package README). */
const SHIPPED: Readonly<Record<WireApi, string>> = { messages: 'claude-code.json', responses: 'codex.json' };

/**
 * The package's `profiles/` folder: two levels up from this source file in the workspace, one up from
 * the bundled `dist/index.js` of an installed package.
 */
function profilesFolder(): URL {
  const candidates = [new URL('../../profiles/', import.meta.url), new URL('../profiles/', import.meta.url)];
  return candidates.find((url) => existsSync(new URL('claude-code.json', url))) ?? candidates[0]!;
}

/** The shipped profile of the client that speaks `api` (Claude Code for Messages, Codex for Responses). */
export function shippedProfile(api: WireApi): ClientProfile {
  return loadProfile(new URL(SHIPPED[api], profilesFolder()));
}

/** A profile from a file; the error names the field that is wrong. */
export function loadProfile(path: string | URL): ClientProfile {
  return parseOrThrow(
    ClientProfile,
    JSON.parse(readFileSync(path, 'utf8')),
    `client profile ${String(path)}`,
  );
}

/** Fields of a Responses request that belong to one conversation, never to the client's profile. */
const PER_REQUEST = new Set(['model', 'input', 'instructions', 'tools', 'stream', 'prompt_cache_key']);
/** Fields that identify the installation or the run, left out of a shipped profile. */
const IDENTIFYING = new Set(['client_metadata', 'metadata', 'user']);

/**
 * The profile of the client that sent `body` (a Messages or Responses request body), for
 * `pnpm bench:agents --capture` to write beside its fixtures.
 */
export function profileFromRequest(body: unknown, client: string, cliVersion: string): ClientProfile {
  const request = z.looseObject({}).parse(body);
  if (Array.isArray(request['messages'])) {
    const system = request['system'];
    return ClientProfile.parse({
      api: 'messages',
      client,
      cliVersion,
      system: typeof system === 'string' ? [{ type: 'text', text: system }] : (system ?? []),
      tools: request['tools'] ?? [],
      maxTokens: request['max_tokens'] ?? 32_000,
    });
  }
  const input = Array.isArray(request['input']) ? (request['input'] as Record<string, unknown>[]) : [];
  const firstUser = input.findIndex((item) => item['role'] === 'user');
  const fields = Object.fromEntries(
    Object.entries(request).filter(([key]) => !PER_REQUEST.has(key) && !IDENTIFYING.has(key)),
  );
  return ClientProfile.parse({
    api: 'responses',
    client,
    cliVersion,
    instructions: typeof request['instructions'] === 'string' ? request['instructions'] : '',
    prelude: input.slice(0, firstUser === -1 ? 0 : firstUser).filter((item) => item['role'] === 'developer'),
    tools: request['tools'] ?? [],
    fields,
  });
}
