import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { loadKeepModel } from '@distil/codec';
import { type DistilConfig, DistilConfig as DistilConfigSchema, parseOrThrow } from '@distil/contract';
import { distilHome, expand, openRestoreStore } from '@distil/core';
import { isLoopback } from '@distil/proxy';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config-file.js';
import { progressBar } from '../replay-flags.js';
import { formatTable } from '../table.js';

interface DoctorFlags {
  config?: string;
  anthropicUpstream?: string;
  openaiUpstream?: string;
  only?: string;
  timeout?: string;
  json?: boolean;
}

/** The verdict of one check: ok, a warning (works, but probably not what you want), or a failure. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One line of the doctor's report. */
export interface CheckResult {
  readonly check: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

/** What every check gets: the config (defaults when the file is broken), the home, and the flags. */
interface DoctorContext {
  readonly config: DistilConfig;
  readonly home: string;
  readonly upstreams: { readonly anthropic: string; readonly openai: string };
  readonly providers: readonly ('anthropic' | 'openai')[];
  readonly timeoutMs: number;
}

interface Check {
  readonly name: string;
  readonly run: (context: DoctorContext) => Promise<Omit<CheckResult, 'check'>>;
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const ok = (detail: string) => ({ status: 'ok' as const, detail });
const warn = (detail: string) => ({ status: 'warn' as const, detail });
const fail = (detail: string) => ({ status: 'fail' as const, detail });

async function checkHome({ home }: DoctorContext) {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const probe = join(home, `.doctor-${process.pid}-${randomBytes(4).toString('hex')}`);
    writeFileSync(probe, 'ok', { mode: 0o600 });
    rmSync(probe);
    return ok(`${home} is writable`);
  } catch (error) {
    return fail(`cannot write to ${home}: ${reason(error)}. Set DISTIL_HOME to a folder you own.`);
  }
}

async function checkStore({ config, home }: DoctorContext) {
  const kind = config.restoreStore.type;
  let store: Awaited<ReturnType<typeof openRestoreStore>>;
  try {
    store = await openRestoreStore(config.restoreStore, home, { sweep: false });
  } catch (error) {
    return fail(`the ${kind} restore store does not open: ${reason(error)}`);
  }
  try {
    const probe = new TextEncoder().encode(`distil doctor probe ${randomBytes(16).toString('hex')}\n`);
    const handle = await store.put(probe);
    const back = await store.get(handle);
    const expanded = await expand(store, handle);
    const same = (a: Uint8Array) => Buffer.from(a).equals(Buffer.from(probe));
    if (!same(back) || !same(expanded))
      return fail(`the ${kind} store returned different bytes for ${handle}: folds could not be expanded`);
    if (kind === 'memory')
      return warn(
        'memory store works, but folds vanish when the process stops and `distil expand` / `distil mcp` cannot see them; use disk or redis',
      );
    return ok(`${kind} store: write, read and expand give the bytes back exactly`);
  } catch (error) {
    return fail(`the ${kind} store failed a write/read/expand round trip: ${reason(error)}`);
  } finally {
    await store.close().catch(() => undefined);
  }
}

async function checkKeepModel({ config }: DoctorContext) {
  const wanted = config.keepModel.type;
  try {
    // No fallback here: the doctor must say when the configured model is not the one that would run.
    const { fallback: _fallback, ...exact } = config.keepModel;
    const model = await loadKeepModel(exact, () => {});
    const scores = await model.scoreLines(
      ['ERROR test_widget failed: expected 3, got 4', 'INFO step 4 ok'],
      'log',
    );
    if (scores.length !== 2 || ![...scores].every((s) => s >= 0 && s <= 1))
      return fail(`keep model ${model.id} loaded but returned scores outside [0, 1]`);
    return ok(`${model.id} loads and scores lines`);
  } catch (error) {
    return fail(
      `keep model "${wanted}" does not load: ${reason(error)}. fallback: the proxy would fall back to the salience rules.`,
    );
  }
}

/** Any HTTP answer means the route works (credentials are the client's, so 401 is expected). */
async function checkUpstream(provider: 'anthropic' | 'openai', context: DoctorContext) {
  const base = context.upstreams[provider];
  const url = `${base.replace(/\/+$/, '')}/v1/models`;
  const started = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(context.timeoutMs), redirect: 'manual' });
    await response.body?.cancel();
    const ms = Math.round(performance.now() - started);
    if (response.status >= 500)
      return warn(
        `${base} answered ${response.status} in ${ms} ms: reachable, but the upstream reports an error`,
      );
    return ok(
      `${base} answered ${response.status} in ${ms} ms (reachable; requests carry the client's own key)`,
    );
  } catch (error) {
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${context.timeoutMs} ms`
        : reason((error as { cause?: unknown }).cause ?? error);
    return fail(
      `cannot reach ${base}: ${why}. Check the network or proxy.${provider}Upstream (or --only the provider you use).`,
    );
  }
}

async function checkPort({ config }: DoctorContext) {
  const { host, port, adminToken } = config.proxy;
  if (!isLoopback(host) && !adminToken)
    return fail(`proxy.host is ${host} but no proxy.adminToken is set: the proxy refuses to start that way`);
  if (port === 0) return ok('proxy.port is 0: a free port is picked at start');
  const free = await new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
  if (free) return ok(`${host}:${port} is free for \`distil proxy\``);
  try {
    const response = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/distil/health`, {
      signal: AbortSignal.timeout(1000),
    });
    const body = (await response.json()) as { ok?: unknown };
    if (response.ok && body.ok === true) return ok(`a Distil proxy is already running on ${host}:${port}`);
  } catch {
    // not a Distil proxy: fall through
  }
  return fail(
    `${host}:${port} is taken by another program; set proxy.port or pass --port to \`distil proxy\``,
  );
}

const CHECKS: readonly Check[] = Object.freeze([
  { name: 'distil home', run: checkHome },
  { name: 'restore store', run: checkStore },
  { name: 'keep model', run: checkKeepModel },
  { name: 'anthropic upstream', run: (c: DoctorContext) => checkUpstream('anthropic', c) },
  { name: 'openai upstream', run: (c: DoctorContext) => checkUpstream('openai', c) },
  { name: 'proxy port', run: checkPort },
]);

const Flags = z.object({
  anthropicUpstream: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'expected an http:// or https:// URL')
    .optional(),
  openaiUpstream: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'expected an http:// or https:// URL')
    .optional(),
  only: z.enum(['anthropic', 'openai']).optional(),
  timeout: z.coerce.number().int().min(100).max(60_000).default(3000),
});

/** Runs every check; the config check first, since the others need its result (defaults when it fails). */
export async function runDoctor(
  flags: DoctorFlags,
  onProgress?: (done: number, total: number) => void,
): Promise<CheckResult[]> {
  const given = parseOrThrow(
    Flags,
    {
      anthropicUpstream: flags.anthropicUpstream,
      openaiUpstream: flags.openaiUpstream,
      only: flags.only,
      timeout: flags.timeout,
    },
    'distil doctor flags',
  );
  const results: CheckResult[] = [];
  let config: DistilConfig;
  try {
    const loaded = loadConfig(flags.config);
    config = loaded.config;
    results.push({
      check: 'config',
      status: 'ok',
      detail: loaded.source ? `${loaded.source} is valid` : 'no distil.config.json here: using the defaults',
    });
  } catch (error) {
    config = DistilConfigSchema.parse({});
    results.push({
      check: 'config',
      status: 'fail',
      detail: `${reason(error)} (the other checks use the defaults)`,
    });
  }
  const context: DoctorContext = {
    config,
    home: distilHome(),
    upstreams: {
      anthropic: given.anthropicUpstream ?? config.proxy.anthropicUpstream,
      openai: given.openaiUpstream ?? config.proxy.openaiUpstream,
    },
    providers: given.only ? [given.only] : ['anthropic', 'openai'],
    timeoutMs: given.timeout,
  };
  const checks = CHECKS.filter(
    (c) => !c.name.endsWith(' upstream') || context.providers.some((p) => c.name.startsWith(p)),
  );
  onProgress?.(1, checks.length + 1);
  for (const [i, check] of checks.entries()) {
    results.push({ check: check.name, ...(await check.run(context)) });
    onProgress?.(i + 2, checks.length + 1);
  }
  return results;
}

/** `distil doctor`: is this machine ready to run Distil? Says plainly what is wrong; exits 1 if anything is. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'check the config, the restore store, the keep model, the upstream routes and the proxy port',
    )
    .option('--anthropic-upstream <url>', 'Anthropic origin to check (default: proxy.anthropicUpstream)')
    .option('--openai-upstream <url>', 'OpenAI origin to check (default: proxy.openaiUpstream)')
    .option('--only <provider>', 'check only this upstream route: anthropic | openai')
    .option('--timeout <ms>', 'how long an upstream may take to answer (default 3000)')
    .option('--json', 'print the checks as JSON')
    .action(async (_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<DoctorFlags>();
      const bar = progressBar('distil doctor');
      let results: CheckResult[];
      try {
        results = await runDoctor(flags, bar.onProgress);
      } finally {
        bar.stop();
      }
      const failed = results.filter((r) => r.status === 'fail');
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ ok: failed.length === 0, checks: results }, null, 2)}\n`);
      } else {
        const mark = { ok: 'ok', warn: 'warn', fail: 'FAIL' };
        process.stdout.write(
          formatTable(
            ['check', 'status', 'detail'],
            results.map((r) => [r.check, mark[r.status], r.detail]),
          ),
        );
        process.stdout.write(
          failed.length === 0
            ? '\nEverything Distil needs is in place.\n'
            : `\n${failed.length} problem(s) to fix: ${failed.map((r) => r.check).join(', ')} (marked FAIL above).\n`,
        );
      }
      if (failed.length > 0) process.exitCode = 1;
    });
}
