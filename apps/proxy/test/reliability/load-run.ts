import { Agent, request } from 'undici';

/**
 * Concurrent streaming requests for the load test and `pnpm bench:load`: the same requests sent straight
 * to an upstream and through the proxy, every stream read to its last byte with undici (a plain loop
 * rather than autocannon, because each stream's bytes must be kept and compared, not just counted).
 */

/** One streaming request: where it goes and what it carries. */
export interface LoadRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One stream as the client read it. */
export interface StreamResult {
  readonly status: number;
  readonly bytes: Buffer;
  /** Milliseconds to the response headers, and to the last byte. */
  readonly headersMs: number;
  readonly totalMs: number;
  readonly error?: string;
}

/** A ~300-line build log with one failure: a tool result the proxy folds. */
function buildLog(seed: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 300; i++) {
    lines.push(
      i === 150
        ? `ERROR job-${seed}: test_widget_${i} failed: expected 3, got 4`
        : `[INFO] job-${seed} step ${i}: compiled module_${i}.ts in ${(i * 7 + seed) % 50} ms`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `count` streaming requests, alternating Anthropic Messages and OpenAI Chat Completions, each its own
 * conversation (its own first message and log) with a tool result long enough to be compressed.
 */
export function loadRequests(count: number, apiKey = 'sk-load-test'): LoadRequest[] {
  return Array.from({ length: count }, (_, i): LoadRequest => {
    const log = buildLog(i);
    if (i % 2 === 0) {
      return {
        path: '/v1/messages',
        headers: {
          'content-type': 'application/json',
          'x-api-key': apiKey,
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({
          model: 'claude-sonnet-4-5',
          max_tokens: 256,
          stream: true,
          messages: [
            { role: 'user', content: `fix job ${i}` },
            {
              role: 'assistant',
              content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'make' } }],
            },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: log }] },
          ],
        }),
      };
    }
    return {
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({
        model: 'gpt-4o',
        stream: true,
        messages: [
          { role: 'user', content: `fix job ${i}` },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"make"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: log },
        ],
      }),
    };
  });
}

/** A connection pool wide enough for `concurrency` streams at once, on loopback. */
export function loadAgent(concurrency: number): Agent {
  return new Agent({ connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
}

/** Sends every request at once and reads every stream to its end. */
export async function fireWave(
  base: string,
  requests: readonly LoadRequest[],
  agent: Agent,
): Promise<StreamResult[]> {
  return Promise.all(
    requests.map(async (r): Promise<StreamResult> => {
      const started = performance.now();
      try {
        const response = await request(`${base}${r.path}`, {
          method: 'POST',
          dispatcher: agent,
          headers: r.headers,
          body: r.body,
        });
        const headersMs = performance.now() - started;
        const chunks: Buffer[] = [];
        for await (const chunk of response.body) chunks.push(chunk as Buffer);
        return {
          status: response.statusCode,
          bytes: Buffer.concat(chunks),
          headersMs,
          totalMs: performance.now() - started,
        };
      } catch (error) {
        const elapsed = performance.now() - started;
        const reason = error instanceof Error ? error.message : String(error);
        return { status: 0, bytes: Buffer.alloc(0), headersMs: elapsed, totalMs: elapsed, error: reason };
      }
    }),
  );
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** How many results failed (a transport error, or a status other than 200). */
export function errorsIn(results: readonly StreamResult[]): number {
  return results.filter((r) => r.error !== undefined || r.status !== 200).length;
}

/** How many proxied streams differ in any byte from the direct stream of the same request. */
export function mismatches(direct: readonly StreamResult[], proxied: readonly StreamResult[]): number {
  return proxied.filter((r, i) => !r.bytes.equals(direct[i]!.bytes)).length;
}
