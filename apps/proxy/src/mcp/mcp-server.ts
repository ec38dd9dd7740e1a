import {
  ContentKind,
  type DistilConfig,
  type KeepModel,
  type RestoreStore,
  UnknownHandleError,
} from '@distil/contract';
import {
  compressBlock,
  countTokens,
  expand,
  MemoryRestoreStore,
  pipelineCompressor,
  resolvePrice,
  STRATEGIES,
  type StrategyName,
  search,
  simulate,
} from '@distil/core';
import { importTrajectories } from '@distil/trajectories';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolKind } from '../session/tool-kind.js';

/** What the MCP server works over: the same store, keep model and config the proxy uses. */
export interface McpServerDeps {
  readonly store: RestoreStore;
  readonly keepModel: KeepModel;
  readonly config: DistilConfig;
  /** Reported to clients as the server version. */
  readonly version?: string;
}

const HANDLE = z
  .string()
  .describe(
    'A handle from a fold stub, e.g. dh_0123456789ab from "<< +40 lines, handle=dh_0123456789ab >>".',
  );

const textResult = (text: string, structured?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...(structured ? { structuredContent: structured } : {}),
});

const failure = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** Turns an expected failure (unknown or forged handle, bad input) into an error result the model can read. */
async function answering(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnknownHandleError) return failure(error.message);
    return failure(error instanceof Error ? error.message : String(error));
  }
}

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * The original behind a handle as MCP content, byte for byte: UTF-8 text as a text part (its UTF-8
 * encoding is the original), anything else as an embedded resource with the bytes in base64.
 */
function originalContent(handle: string, bytes: Uint8Array): CallToolResult {
  try {
    return textResult(strict.decode(bytes));
  } catch {
    return {
      content: [
        {
          type: 'resource',
          resource: {
            uri: `distil://original/${handle}`,
            mimeType: 'application/octet-stream',
            blob: Buffer.from(bytes).toString('base64'),
          },
        },
      ],
    };
  }
}

/**
 * Distil's MCP server: `distil_expand`, `distil_search`, `distil_compress` and `distil_savings` over the
 * RestoreStore the proxy uses, so an agent that speaks MCP can compress and expand without the proxy's
 * loop. Handles resolve only from the store (a forged one is an error result, never a guess).
 */
export function createMcpServer(deps: McpServerDeps): McpServer {
  const server = new McpServer({ name: 'distil', version: deps.version ?? '0.0.0' });
  const { store, keepModel, config } = deps;

  server.registerTool(
    'distil_expand',
    {
      title: 'Expand a fold',
      description:
        'Returns the exact original lines a fold stub "<< +N lines, handle=… >>" stands for, byte for byte.',
      inputSchema: { handle: HANDLE },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ handle }) => answering(async () => originalContent(handle, await expand(store, handle))),
  );

  server.registerTool(
    'distil_search',
    {
      title: 'Search a fold',
      description:
        'Searches the original lines behind a fold stub and returns the best matching line ranges (BM25). Cheaper than distil_expand when only part of a long output matters.',
      inputSchema: {
        handle: HANDLE,
        query: z.string().min(1).describe('Words to look for, e.g. an error name or a file path.'),
        k: z.number().int().min(1).max(20).optional().describe('How many ranges to return (default 5).'),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ handle, query, k }) =>
      answering(async () => {
        const hits = await search(store, handle, query, k ?? 5);
        if (hits.length === 0) return textResult(`no lines behind ${handle} match "${query}"`, { hits: [] });
        const text = hits.map((hit) => `lines ${hit.lineStart}-${hit.lineEnd}:\n${hit.chunk}`).join('\n\n');
        return textResult(text, { hits });
      }),
  );

  server.registerTool(
    'distil_compress',
    {
      title: 'Compress a tool output',
      description:
        'Compresses a tool output: lossless re-encoding, then folds of the lines that do not matter behind stubs whose handles distil_expand returns exactly.',
      inputSchema: {
        text: z.string().describe('The tool output to compress.'),
        kind: ContentKind.optional().describe(
          `Content kind (${ContentKind.options.join(', ')}); detected when omitted.`,
        ),
        lossless: z.boolean().optional().describe('Apply only the lossless tier (nothing folded).'),
      },
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ text, kind, lossless }) =>
      answering(async () => {
        const block = {
          id: 'mcp',
          role: 'tool' as const,
          kind: kind ?? toolKind(text),
          text,
          trusted: false,
        };
        const result = await compressBlock(block, {
          keepModel,
          store,
          tiers: config.tiers,
          depth: lossless ? 'lossless' : 'digest',
        });
        const tokens = { before: countTokens(text), after: countTokens(result.text) };
        return textResult(result.text, {
          text: result.text,
          handles: result.handles,
          tier: result.tier,
          kind: result.kind,
          tokens,
          ...(result.note ? { note: result.note } : {}),
        });
      }),
  );

  server.registerTool(
    'distil_savings',
    {
      title: 'Simulate savings',
      description:
        'Simulates what a trajectory costs with no cache, cache only, naive compression and Distil, at one model\u2019s list prices.',
      inputSchema: {
        trajectory: z
          .string()
          .min(1)
          .describe(
            'A trajectory: a file path (distil JSON, SWE-agent .traj, OpenHands/Claude Code .jsonl) or the JSON itself.',
          ),
        model: z
          .string()
          .optional()
          .describe("Model whose prices apply (default: the config's pricing.model)."),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ trajectory, model }) =>
      answering(async () => {
        const price = resolvePrice(model, config.pricing);
        const names = Object.keys(STRATEGIES) as StrategyName[];
        const reports = [];
        for (const t of importTrajectories(trajectory)) {
          // A simulation never writes the user's store: its folds live in memory for the call.
          const scratch = new MemoryRestoreStore();
          const compress = pipelineCompressor({ keepModel, store: scratch, tiers: config.tiers });
          reports.push(await simulate(t, price.price, names, { compress, store: scratch, keepModel }));
        }
        const lines = reports.flatMap((r) => [
          `${r.trajectory}: ${r.turns} turns at ${price.model} prices`,
          ...r.strategies.map(
            (s) =>
              `  ${s.label.padEnd(34)} $${s.totals.usd.toFixed(5)}  ${(s.vsBaseline * 100).toFixed(1)}% vs baseline`,
          ),
        ]);
        return textResult(lines.join('\n'), { model: price.model, source: price.source, reports });
      }),
  );

  return server;
}
