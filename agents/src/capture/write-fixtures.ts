import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profileFromRequest } from '@distil/savings';
import type { RouteRun } from '../run/run-session.js';

/** A request body as a real CLI sent it, kept as a fixture (no credentials, scratch paths replaced). */
export interface AgentFixture {
  readonly agent: string;
  readonly cliVersion: string;
  readonly note: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** The placeholder that stands for a run's scratch folder in fixtures. */
export const SCRATCH_PLACEHOLDER = '/tmp/distil-agents-scratch';

/**
 * Writes every model request of `run` to `dir` as `<prefix>-<n>.json`, replacing the earlier files of the
 * same prefix. Credentials never reach the tap's record; the scratch folder (random per run) becomes a
 * fixed placeholder so fixtures diff cleanly between captures.
 */
export function writeFixtures(
  run: RouteRun,
  dir: string,
  prefix: string,
  meta: { readonly cliVersion: string; readonly note: string },
): string[] {
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) {
    if (file.startsWith(`${prefix}-`) && file.endsWith('.json')) rmSync(join(dir, file));
  }
  const scratch = run.workdir.replace(/\/work$/, '');
  const written: string[] = [];
  let n = 0;
  for (const request of run.agentRequests) {
    if (request.method !== 'POST' || request.path.includes('count_tokens')) continue;
    const text = request.body.toString('utf8').replaceAll(scratch, SCRATCH_PLACEHOLDER);
    const headers = JSON.parse(JSON.stringify(request.headers).replaceAll(scratch, SCRATCH_PLACEHOLDER));
    const fixture: AgentFixture = {
      agent: prefix,
      cliVersion: meta.cliVersion,
      note: meta.note,
      method: request.method,
      path: request.path,
      headers,
      body: JSON.parse(text),
    };
    const file = join(dir, `${prefix}-${++n}.json`);
    writeFileSync(file, `${JSON.stringify(fixture, null, 1)}\n`);
    written.push(file);
  }
  return written;
}

/** Where `distil savings` finds the client profiles it ships. */
const PROFILES_DIR = fileURLToPath(new URL('../../../packages/savings/profiles', import.meta.url));

/**
 * Writes the client profile of `run` (its system prompt and tools, from the last model request it made) to
 * `packages/savings/profiles/<client>.json` and returns the file.
 */
export function writeClientProfile(run: RouteRun, client: string, cliVersion: string): string {
  const last = run.agentRequests
    .filter((r) => r.method === 'POST' && !r.path.includes('count_tokens'))
    .at(-1);
  if (!last) throw new Error(`${client}: the run made no model request to take a profile from`);
  const scratch = run.workdir.replace(/\/work$/, '');
  const body = JSON.parse(last.body.toString('utf8').replaceAll(scratch, SCRATCH_PLACEHOLDER));
  const file = join(PROFILES_DIR, `${client}.json`);
  writeFileSync(file, `${JSON.stringify(profileFromRequest(body, client, cliVersion), null, 1)}\n`);
  return file;
}
