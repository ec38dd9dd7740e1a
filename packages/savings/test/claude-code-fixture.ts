/**
 * A Claude Code session log written the way Claude Code writes one, generated here: the agent cats a
 * failing CI job's log (hundreds of passing test lines and one failure), reads the module the failure
 * names, and answers. Each streamed reply is split over several lines sharing its message id and usage.
 */

export interface ClaudeCodeLogOptions {
  /** Passing test lines in the CI log (default 400). */
  readonly passingTests?: number;
  /** Write the lines a subagent's log has (`isSidechain: true`). */
  readonly sidechain?: boolean;
  /** End the file with a line cut off mid-write. */
  readonly truncatedTail?: boolean;
  /** The model the replies name (default claude-sonnet-4-5). */
  readonly model?: string;
}

/** The failing test's line in the generated CI log; the final answer refers to it. */
export const FAILURE_LINE =
  "✖ parser/readString keeps escaped quotes: expected 'a\\\\b' but got 'ab' (3.1ms)";

export function ciLog(passing: number): string {
  const lines = ['> lexer@1.4.2 test', '> node --test --test-reporter=spec test/', ''];
  for (let i = 1; i <= passing; i++) {
    lines.push(`✔ suite_${i % 17}/case_${i} returns the expected tokens (${(i * 7) % 90}.${i % 10}ms)`);
    if (i === 216) {
      lines.push(FAILURE_LINE);
      lines.push('  at readString (src/lexer/read-string.js:41:11)');
      lines.push('  at Object.<anonymous> (test/parser.test.js:88:5)');
    }
  }
  lines.push(`ℹ tests ${passing + 1}`, `ℹ pass ${passing}`, 'ℹ fail 1');
  return lines.join('\n');
}

const SOURCE = Array.from({ length: 60 }, (_, i) =>
  i === 40 ? '      out += text[i + 1]; i += 2; continue;' : `  const line${i} = tokens[${i}] ?? null;`,
)
  .map((line, i) => `${String(i + 1).padStart(6)}→${line}`)
  .join('\n');

export function claudeCodeLog(options: ClaudeCodeLogOptions = {}): string {
  const sidechain = options.sidechain ?? false;
  const model = options.model ?? 'claude-sonnet-4-5';
  const base = { sessionId: 'session-0001', isSidechain: sidechain, cwd: '/work/project' };
  const usage = (input: number, write: number, read: number, output: number) => ({
    input_tokens: input,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    output_tokens: output,
  });
  const reply = (id: string, parts: unknown[], u: ReturnType<typeof usage>) =>
    parts.map((part) => ({
      ...base,
      type: 'assistant',
      message: { id, type: 'message', role: 'assistant', model, content: [part], usage: u },
    }));
  const user = (content: unknown) => ({ ...base, type: 'user', message: { role: 'user', content } });
  const records: unknown[] = [
    { type: 'summary', summary: 'CI failure in the lexer', leafUuid: 'x' },
    user('The CI job "test (20.x)" failed; its log is in ci/test.log. Find the failing test.'),
    ...reply(
      'msg_01',
      [
        { type: 'thinking', thinking: 'Read the log first.', signature: 'c2ln' },
        { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'cat ci/test.log' } },
      ],
      usage(3, 14_000, 0, 60),
    ),
    user([{ type: 'tool_result', tool_use_id: 'toolu_01', content: ciLog(options.passingTests ?? 400) }]),
    { type: 'file-history-snapshot', snapshot: {} },
    ...reply(
      'msg_02',
      [
        {
          type: 'text',
          text: 'The failing test is parser/readString keeps escaped quotes (test/parser.test.js:88).',
        },
        { type: 'tool_use', id: 'toolu_02', name: 'Read', input: { file_path: 'src/lexer/read-string.js' } },
      ],
      usage(3, 9_000, 14_000, 90),
    ),
    user([{ type: 'tool_result', tool_use_id: 'toolu_02', content: SOURCE }]),
    ...reply(
      'msg_03',
      [
        {
          type: 'text',
          text: 'readString in src/lexer/read-string.js:41 skips the escaped character: `out += text[i + 1]; i += 2; continue;` drops the backslash.',
        },
      ],
      usage(3, 800, 23_000, 70),
    ),
    {
      ...base,
      type: 'assistant',
      message: {
        id: 'msg_x',
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: 'No response requested.' }],
      },
    },
  ];
  const text = records.map((r) => JSON.stringify(r)).join('\n');
  return options.truncatedTail ? `${text}\n{"type":"user","message":{"role":"us` : `${text}\n`;
}
