import { type Handle, UnknownHandleError } from '@distil/contract';
import { countTokens, expand, search } from '@distil/core';
import { z } from 'zod';

/** A tool the proxy adds to a request and answers itself; the client never sees it. */
export interface DistilTool {
  readonly name: 'distil_expand' | 'distil_search';
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

const HANDLE_PROPERTY = { type: 'string', description: 'The dh_… handle in the stub.' };

/**
 * The tools as one dialect writes them: serialised for appending to a request's `tools` (see
 * encodeBody), and the tokens they add (o200k estimate, for the uncompressed estimate). The count is taken
 * on first use: the first count builds the o200k table, which a proxy that only relays never needs.
 */
export interface DialectTools {
  readonly json: string;
  tokens(): number;
}

/** DialectTools for tool definitions in one dialect's shape. */
export function dialectTools(definitions: readonly unknown[]): DialectTools {
  let tokens: number | undefined;
  return {
    json: definitions.map((tool) => JSON.stringify(tool)).join(','),
    tokens: () => {
      tokens ??= countTokens(JSON.stringify(definitions));
      return tokens;
    },
  };
}

/**
 * The two tools, in the order they are appended to a request's tool list. Every request of a session
 * carries them from its first turn (adding them later would change the cached prefix), so their wording
 * is kept short: replayed real sessions pay for these tokens on every call, folds or not.
 */
export const DISTIL_TOOLS: readonly DistilTool[] = Object.freeze([
  {
    name: 'distil_expand',
    description:
      'The exact lines a fold stub "<< +N lines, handle=… >>" in tool output stands for. Call it when ' +
      'the folded lines matter for your next step.',
    parameters: {
      type: 'object',
      properties: { handle: HANDLE_PROPERTY },
      required: ['handle'],
      additionalProperties: false,
    },
  },
  {
    name: 'distil_search',
    description:
      'The best-matching line ranges behind a fold stub (BM25): cheaper than expanding a long fold.',
    parameters: {
      type: 'object',
      properties: {
        handle: HANDLE_PROPERTY,
        query: { type: 'string', description: 'Words to find, e.g. an error name or a path.' },
        k: { type: 'integer', minimum: 1, maximum: 20, description: 'Ranges to return (default 5).' },
      },
      required: ['handle', 'query'],
      additionalProperties: false,
    },
  },
]);

/** Whether a tool name is one of Distil's. */
export function isDistilTool(name: unknown): name is DistilTool['name'] {
  return name === 'distil_expand' || name === 'distil_search';
}

const ExpandInput = z.object({ handle: z.string() });
const SearchInput = z.object({
  handle: z.string(),
  query: z.string().min(1),
  k: z.number().int().min(1).max(20).optional(),
});

/** The answer to one distil call, as tool-result text. */
export interface DistilAnswer {
  readonly text: string;
  readonly isError: boolean;
  /** The handle it expanded or searched, when the call was well-formed and resolved. */
  readonly handle?: Handle;
}

/** What answering a call needs: the store, and the handles the request's own context shows. */
export interface DistilCallScope {
  readonly store: Parameters<typeof expand>[0];
  /** Handles whose stubs appear in the context sent upstream; any other handle is answered as unknown. */
  readonly handlesInContext: ReadonlySet<string>;
  /**
   * Whether the caller may expand a handle its context shows: the proxy issued it to this caller (see
   * handle-owners.ts). Absent where the caller owns the whole store (the CLI, the MCP server).
   */
  readonly mayExpand?: (handle: string) => Promise<boolean>;
  /**
   * Set (to the loop cap) once this turn's expand round trips are spent: every call then gets an error
   * result that says so, and nothing is expanded.
   */
  readonly budgetSpent?: number;
  /** Told when the store failed to answer (the call then gets an error result, the turn goes on). */
  readonly onFailure?: (error: unknown) => void;
  /** Told of every `distil_expand` answered with its original (the expand flywheel's evidence). */
  readonly onExpanded?: (handle: Handle) => void;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * Answers a distil_expand or distil_search call. Arguments from the model are parsed with zod; a handle
 * that is malformed, not shown in this request's context, unknown to the store or forged gets an error
 * result (spec/threat-model.txt: a forged handle is never vouched for), and so does a store that fails —
 * never an exception to the client.
 */
export async function answerDistilCall(
  name: DistilTool['name'],
  input: unknown,
  scope: DistilCallScope,
): Promise<DistilAnswer> {
  const parsed = (name === 'distil_expand' ? ExpandInput : SearchInput).safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      text: `${name}: invalid arguments: ${issue?.path.join('.') || '(input)'}: ${issue?.message}`,
      isError: true,
    };
  }
  const handle = parsed.data.handle;
  if (scope.budgetSpent !== undefined) {
    return {
      text:
        `${name}: not answered: this reply already made ${scope.budgetSpent} rounds of distil calls, the ` +
        'most one reply may. Go on with what you have or with your own tools; the handle still works in ' +
        'your next reply.',
      isError: true,
    };
  }
  if (!scope.handlesInContext.has(handle)) return unknown(handle);
  // A stub printed into someone else's context is answered as if the handle did not exist: saying that
  // it exists but belongs to another caller would itself leak something.
  if (scope.mayExpand && !(await scope.mayExpand(handle))) return unknown(handle);
  try {
    if (name === 'distil_expand') {
      const text = decoder.decode(await expand(scope.store, handle));
      scope.onExpanded?.(handle);
      return { text, isError: false, handle };
    }
    const { query, k } = parsed.data as z.infer<typeof SearchInput>;
    const hits = await search(scope.store, handle, query, k ?? 5);
    if (hits.length === 0)
      return { text: `no lines behind ${handle} match "${query}"`, isError: false, handle };
    const text = hits.map((hit) => `lines ${hit.lineStart}-${hit.lineEnd}:\n${hit.chunk}`).join('\n\n');
    return { text, isError: false, handle };
  } catch (error) {
    if (error instanceof UnknownHandleError) return unknown(handle);
    // The store is down or failing: the model hears so and goes on; the agent's request never fails.
    scope.onFailure?.(error);
    return {
      text: `${name}: the folded lines cannot be read right now; go on without them or try again later`,
      isError: true,
    };
  }
}

function unknown(handle: string): DistilAnswer {
  return {
    text: `unknown handle ${JSON.stringify(handle)}: it is not one this conversation was given`,
    isError: true,
  };
}
