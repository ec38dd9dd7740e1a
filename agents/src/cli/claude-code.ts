import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { claudeCodeCli } from './cli-binaries.js';
import { cleanEnv, jsonLines, type ProcessResult, runProcess } from './run-process.js';

/** How one headless Claude Code run went. */
export interface AgentRun extends ProcessResult {
  /** The agent's final answer, or null when it printed none. */
  readonly finalAnswer: string | null;
  /** The folder the CLI kept its own state in (session logs, saved tool outputs). */
  readonly stateDir: string;
}

/** Options of a Claude Code run. */
export interface ClaudeCodeRunOptions {
  readonly cwd: string;
  /** `ANTHROPIC_BASE_URL`. */
  readonly baseUrl: string;
  readonly prompt: string;
  /** Scratch folder for HOME and CLAUDE_CONFIG_DIR. */
  readonly scratch: string;
  /**
   * `CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS` (Claude Code's default is 25,000). Raised, Read returns a
   * whole large file in one result; at the default a model pages through it with offset/limit.
   */
  readonly readLimitTokens?: number;
  readonly limitMs?: number;
}

const ResultLine = z.looseObject({
  type: z.literal('result'),
  result: z.string().optional(),
  is_error: z.boolean().optional(),
});

/**
 * Runs the real Claude Code CLI headless (`-p … --output-format stream-json --verbose
 * --dangerously-skip-permissions`) against `baseUrl`, with a fake key, a fresh config folder and every
 * optional network feature off, on its default model. As root it needs `IS_SANDBOX=1` to skip permissions.
 */
export async function runClaudeCode(options: ClaudeCodeRunOptions): Promise<AgentRun> {
  const cli = claudeCodeCli();
  const home = join(options.scratch, 'home');
  const stateDir = join(options.scratch, 'claude-config');
  mkdirSync(home, { recursive: true });
  mkdirSync(stateDir, { recursive: true });
  const env: Record<string, string> = {
    ...cleanEnv(home),
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-harness-not-a-key',
    CLAUDE_CONFIG_DIR: stateDir,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1',
  };
  if (options.readLimitTokens !== undefined) {
    env.CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS = String(options.readLimitTokens);
  }
  const args = [
    ...cli.prefixArgs,
    '-p',
    options.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--dangerously-skip-permissions',
  ];
  const result = await runProcess(cli.command, args, {
    cwd: options.cwd,
    env,
    limitMs: options.limitMs ?? 180_000,
  });
  let finalAnswer: string | null = null;
  for (const event of jsonLines(result.stdout)) {
    const outcome = ResultLine.safeParse(event);
    if (outcome.success && !outcome.data.is_error) finalAnswer = outcome.data.result ?? null;
  }
  return { ...result, finalAnswer, stateDir };
}
