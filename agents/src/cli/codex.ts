import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AgentRun } from './claude-code.js';
import { codexCli } from './cli-binaries.js';
import { cleanEnv, jsonLines, runProcess } from './run-process.js';

/** Options of a Codex run. */
export interface CodexRunOptions {
  readonly cwd: string;
  /** The Responses API base, ending in `/v1`. */
  readonly baseUrl: string;
  readonly prompt: string;
  readonly scratch: string;
  /** Model to configure (Codex 0.171's own default is not in the pricing catalog; see the README). */
  readonly model: string;
  /**
   * `tool_output_token_limit` in config.toml. Unset, Codex cuts a tool output to 10,000 tokens (head and
   * tail); raising it also needs the call's own `max_output_tokens`, which the scripted model then sends.
   */
  readonly toolOutputTokenLimit?: number;
  readonly limitMs?: number;
}

const ItemCompleted = z.looseObject({
  type: z.literal('item.completed'),
  item: z.looseObject({ type: z.string(), text: z.string().optional() }),
});

/**
 * Runs the real Codex CLI headless (`codex exec --json`) with a CODEX_HOME whose config.toml points a
 * model provider at `baseUrl` over the Responses wire API, with a fake key in an environment variable.
 */
export async function runCodex(options: CodexRunOptions): Promise<AgentRun> {
  const cli = codexCli();
  const home = join(options.scratch, 'home');
  const stateDir = join(options.scratch, 'codex-home');
  mkdirSync(home, { recursive: true });
  mkdirSync(stateDir, { recursive: true });
  const config = [
    `model = ${JSON.stringify(options.model)}`,
    'model_provider = "distil-harness"',
    'check_for_update_on_startup = false',
    ...(options.toolOutputTokenLimit !== undefined
      ? [`tool_output_token_limit = ${options.toolOutputTokenLimit}`]
      : []),
    '',
    '[model_providers.distil-harness]',
    'name = "distil-harness"',
    `base_url = ${JSON.stringify(options.baseUrl)}`,
    'wire_api = "responses"',
    'env_key = "DISTIL_HARNESS_OPENAI_KEY"',
    '',
  ].join('\n');
  writeFileSync(join(stateDir, 'config.toml'), config);
  const env = { ...cleanEnv(home), CODEX_HOME: stateDir, DISTIL_HARNESS_OPENAI_KEY: 'sk-harness-not-a-key' };
  const args = [
    ...cli.prefixArgs,
    'exec',
    '--skip-git-repo-check',
    '--dangerously-bypass-approvals-and-sandbox',
    '--json',
    options.prompt,
  ];
  const result = await runProcess(cli.command, args, {
    cwd: options.cwd,
    env,
    limitMs: options.limitMs ?? 180_000,
  });
  let finalAnswer: string | null = null;
  for (const line of jsonLines(result.stdout)) {
    const event = ItemCompleted.safeParse(line);
    if (event.success && event.data.item.type === 'agent_message') finalAnswer = event.data.item.text ?? null;
  }
  return { ...result, finalAnswer, stateDir };
}
