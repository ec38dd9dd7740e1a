/**
 * The requests `pnpm bench:proxy` sends: a ~200 KB agent conversation of 40 tool results in each of the
 * three dialects the proxy rewrites, with the route and credentials header each is posted with.
 */

/** The three request dialects the proxy rewrites, and the routes they are posted to. */
export type Dialect = 'messages' | 'chat' | 'responses';
export const DIALECTS: readonly Dialect[] = ['messages', 'chat', 'responses'];
export const ROUTE: Readonly<Record<Dialect, string>> = {
  messages: '/v1/messages',
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
};
/** Each dialect's credentials header, as its SDK sends it (the proxy forwards it untouched). */
export const AUTH: Readonly<Record<Dialect, Record<string, string>>> = {
  messages: { 'x-api-key': 'bench', 'anthropic-version': '2023-06-01' },
  chat: { authorization: 'Bearer bench' },
  responses: { authorization: 'Bearer bench' },
};

/** An ~5 KB tool log, distinct per conversation and turn, one error line among 86. */
function toolLog(seed: number, turn: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 86; i++) {
    lines.push(
      i === 41
        ? `ERROR worker ${seed}.${turn}: case_${i} failed: expected 200, got 503`
        : `INFO worker ${seed}.${turn} step ${i}: handled request ${(i * 7919 + turn) % 100000} in ${i % 17} ms`,
    );
  }
  return lines.join('\n');
}

/**
 * A ~200 KB agent conversation: 40 turns, each a `bash` call and its ~5 KB log, written in `dialect`:
 * Messages `tool_use` / `tool_result` blocks, Chat Completions assistant `tool_calls` and `role: "tool"`
 * messages, or Responses `function_call` / `function_call_output` items.
 */
export function conversation(seed: number, dialect: Dialect = 'messages'): string {
  const task = `fix the failing job (${seed})`;
  const turns: unknown[] = [];
  for (let turn = 0; turn < 40; turn++) {
    const id = `${dialect === 'messages' ? 'toolu' : 'call'}_${seed}_${turn}`;
    const log = toolLog(seed, turn);
    if (dialect === 'messages') {
      turns.push(
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id, name: 'bash', input: { cmd: `run ${turn}` } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: log }] },
      );
    } else if (dialect === 'chat') {
      const call = { id, type: 'function', function: { name: 'bash', arguments: `{"cmd":"run ${turn}"}` } };
      turns.push(
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: id, content: log },
      );
    } else {
      turns.push(
        { type: 'function_call', call_id: id, name: 'bash', arguments: `{"cmd":"run ${turn}"}` },
        { type: 'function_call_output', call_id: id, output: log },
      );
    }
  }
  if (dialect === 'messages')
    return JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      messages: [{ role: 'user', content: task }, ...turns],
    });
  if (dialect === 'chat')
    return JSON.stringify({
      model: 'gpt-5.4',
      max_completion_tokens: 64,
      messages: [{ role: 'user', content: task }, ...turns],
    });
  return JSON.stringify({
    model: 'gpt-5.4',
    max_output_tokens: 64,
    store: false,
    input: [{ type: 'message', role: 'user', content: task }, ...turns],
  });
}

/**
 * An Anthropic Messages request that starts a conversation with one ~200 KB tool result (a build log of
 * ~2,400 lines, distinct per seed): everything in it is new to the proxy, so all of it is compressed now.
 */
export function bigToolResult(seed: number): string {
  const lines: string[] = [];
  // the joined length, kept as lines are added (joining to measure made this the client's largest cost
  // in the cold scenarios, on the cores the proxy uses)
  let joined = 0;
  for (let i = 0; joined < 200 * 1024 && i < 100_000; i += 50) {
    for (let j = i; j < i + 50; j++) {
      const line =
        j % 97 === 41
          ? `ERROR build ${seed}: module_${j} failed: cannot resolve ./dep_${(j * 31) % 977}`
          : `INFO build ${seed} step ${j}: compiled src/module_${j}.ts in ${(j * 13) % 211} ms (${(j * 7919) % 100000} bytes)`;
      joined += (lines.length > 0 ? 1 : 0) + line.length;
      lines.push(line);
    }
  }
  const id = `toolu_big_${seed}`;
  return JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 64,
    messages: [
      { role: 'user', content: `why does the build fail (${seed})` },
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'bash', input: { cmd: 'pnpm build' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: lines.join('\n') }] },
    ],
  });
}
