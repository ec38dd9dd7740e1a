import { join } from 'node:path';
import { distilHome } from '@distil/core';
import { AnthropicRunner } from './live/anthropic-runner.js';
import { OpenAIRunner } from './live/openai-runner.js';
import type { Runner } from './runner.js';
import { StructuralRunner } from './structural/structural-runner.js';

/** The name of a runner, as `--runner` takes it. */
export type RunnerName = 'structural' | 'anthropic' | 'openai';

/** What resolving a runner may use; everything defaults from the environment. */
export interface RunnerSettings {
  readonly model?: string;
  readonly baseUrl?: string;
  readonly concurrency?: number;
  /** Environment to read keys, base URLs and $DISTIL_HOME from (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Turn the live runners' response cache off (default: on, under $DISTIL_HOME/replay-cache). */
  readonly noCache?: boolean;
}

/** One entry of {@link RUNNERS}. */
export interface RunnerEntry {
  readonly description: string;
  create(settings: RunnerSettings): Runner;
}

function apiKey(env: NodeJS.ProcessEnv, name: string, runner: string): string {
  const key = env[name];
  if (key === undefined || key.length === 0)
    throw new Error(`--runner ${runner} needs ${name} in the environment`);
  return key;
}

const cacheFolder = (settings: RunnerSettings, env: NodeJS.ProcessEnv, provider: string): string | null =>
  settings.noCache ? null : join(distilHome(env), 'replay-cache', provider);

/**
 * Every runner, by name: a frozen table and a resolver rather than a switch. Live runners read their API
 * key from ANTHROPIC_API_KEY / OPENAI_API_KEY and their base URL from `baseUrl`, else ANTHROPIC_BASE_URL /
 * OPENAI_BASE_URL, else the public endpoint.
 */
export const RUNNERS: Readonly<Record<RunnerName, RunnerEntry>> = Object.freeze({
  structural: {
    description:
      'free and deterministic: a decision survives while every token it copied from the context is visible',
    create: () => new StructuralRunner(),
  },
  anthropic: {
    description: 'asks a Claude model (Messages API, temperature 0); answers cached by content hash',
    create: (settings) => {
      const env = settings.env ?? process.env;
      return new AnthropicRunner({
        apiKey: apiKey(env, 'ANTHROPIC_API_KEY', 'anthropic'),
        model: settings.model,
        baseUrl: settings.baseUrl ?? env['ANTHROPIC_BASE_URL'],
        concurrency: settings.concurrency,
        cacheFolder: cacheFolder(settings, env, 'anthropic'),
      });
    },
  },
  openai: {
    description: 'asks an OpenAI-compatible chat model (temperature 0); answers cached by content hash',
    create: (settings) => {
      const env = settings.env ?? process.env;
      return new OpenAIRunner({
        apiKey: apiKey(env, 'OPENAI_API_KEY', 'openai'),
        model: settings.model,
        baseUrl: settings.baseUrl ?? env['OPENAI_BASE_URL'],
        concurrency: settings.concurrency,
        cacheFolder: cacheFolder(settings, env, 'openai'),
      });
    },
  },
});

/** Every runner name. */
export const RUNNER_NAMES: readonly RunnerName[] = Object.freeze(Object.keys(RUNNERS) as RunnerName[]);

/** The runner called `name`; an unknown name is an error listing the known ones. */
export function resolveRunner(name: string, settings: RunnerSettings = {}): Runner {
  if (!Object.hasOwn(RUNNERS, name)) {
    throw new Error(`unknown runner ${JSON.stringify(name)}: expected one of ${RUNNER_NAMES.join(', ')}`);
  }
  return RUNNERS[name as RunnerName].create(settings);
}
