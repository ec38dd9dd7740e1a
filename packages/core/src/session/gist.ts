import { type Handle, handleFor } from '@distil/contract';

/** A tool definition as requests carry it (Anthropic `tools[]` or OpenAI `tools[].function`). */
export interface ToolSchema {
  readonly name: string;
  readonly description?: string;
  readonly [field: string]: unknown;
}

/** What gistToolSchemas returns: the tools to send, and which of them were replaced by a gist. */
export interface GistResult {
  readonly tools: ToolSchema[];
  readonly gisted: readonly string[];
}

/**
 * Gist caching of tool schemas (spec: gist caching). A schema seen before (same canonical bytes) is
 * replaced by a compact gist: its name, and a description that points to the first full copy by handle.
 * The model sees each schema in full once; later requests pay only for the gist.
 *
 * OFF BY DEFAULT, on purpose: tool definitions open the request, ahead of the system prompt and the whole
 * conversation, so rewriting `tools[]` from one request to the next changes the first bytes of the
 * cached prefix and turns every cached token into a cache write. The original system measured that
 * this cost more in cache misses than the schema tokens it saved; it only pays when the schemas are
 * sent without prompt caching. Hence a library function the caller opts into, not a pipeline stage.
 */
export class GistCache {
  private readonly seen = new Map<Handle, string>();

  /** Replaces every tool schema this cache has seen before with its gist; records the new ones. */
  gistToolSchemas(tools: readonly ToolSchema[]): GistResult {
    const gisted: string[] = [];
    const out = tools.map((tool) => {
      const handle = handleFor(canonicalJson(tool));
      if (!this.seen.has(handle)) {
        this.seen.set(handle, tool.name);
        return tool;
      }
      gisted.push(tool.name);
      return {
        name: tool.name,
        description: `<< schema of ${tool.name} as sent in full earlier in this session, handle=${handle} >>`,
      };
    });
    return { tools: out, gisted };
  }

  /** Whether a schema (by handle) was sent before. */
  has(handle: Handle): boolean {
    return this.seen.has(handle);
  }
}

/** JSON with object keys sorted at every level, so key order never changes a schema's address. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
