import { readFileSync } from 'node:fs';

/**
 * Request bodies the real agent CLIs sent (fixtures/wire, see its README): the parsed JSON, and the
 * bytes the CLI put on the wire — compact JSON, which is what JSON.stringify of the parsed body gives.
 */
export interface WireFixture {
  // biome-ignore lint/suspicious/noExplicitAny: provider JSON of many shapes, read by path in tests
  readonly json: any;
  readonly bytes: string;
}

function load(name: string): WireFixture {
  const json = JSON.parse(readFileSync(new URL(`./fixtures/wire/${name}`, import.meta.url), 'utf8'));
  return { json, bytes: JSON.stringify(json) };
}

/** The last request of a real Claude Code 2.1.199 session on its default model (Opus 4.8). */
export function claudeCodeRequest(): WireFixture {
  return load('claude-code-2.1.199-messages.json');
}

/** The last request of a real Codex 0.171.0 `exec` session (Responses API, store: false). */
export function codexRequest(): WireFixture {
  return load('codex-0.171.0-responses.json');
}
