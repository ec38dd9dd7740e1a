import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RestoreStore } from '@distil/contract';
import { restoreBlock } from '@distil/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const TRAJECTORY = fileURLToPath(
  new URL('../../../datasets/generated/trajectories/ci-failure-triage.json', import.meta.url),
);

/** A CI log with one failure in the middle, long enough to be folded, with non-ASCII bytes in it. */
function ciLog(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i === 150) out.push('FAILED tests/test_widget.py::test_resize - AssertionError: expected 3, got 4');
    else
      out.push(`[2026-03-01T10:00:${String(i % 60).padStart(2, '0')}Z] step ${i}: compiled café_${i}.ts ✓`);
  }
  return `${out.join('\n')}\n`;
}

type ToolResult = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

describe('distil mcp, driven by the MCP SDK client over stdio', () => {
  const home = mkdtempSync(join(tmpdir(), 'distil-mcp-'));
  const env = { DISTIL_HOME: home };
  let client: Client;

  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  /** The store as an MCP client sees it: every read is a distil_expand call. */
  const storeOverMcp: RestoreStore = {
    put: () => Promise.reject(new Error('read-only')),
    has: () => Promise.resolve(true),
    get: async (handle) => {
      const result = await call('distil_expand', { handle });
      if (result.isError) throw new Error(result.content[0]?.text);
      return new TextEncoder().encode(result.content[0]?.text ?? '');
    },
  };

  beforeAll(async () => {
    client = new Client({ name: 'distil-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', TSX, BIN, 'mcp'],
        env: { ...(process.env as Record<string, string>), ...env },
        stderr: 'pipe',
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('offers the four tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'distil_compress',
      'distil_expand',
      'distil_savings',
      'distil_search',
    ]);
  });

  it('expands a handle made by `distil compress`, byte for byte', async () => {
    const file = join(home, 'ci.log');
    const original = ciLog(400);
    writeFileSync(file, original);
    const compressed = runCli(['compress', file, '--json'], { env });
    expect(compressed.status, compressed.stderr).toBe(0);
    const { text, handles } = JSON.parse(compressed.stdout) as { text: string; handles: string[] };
    expect(handles.length).toBeGreaterThan(0);
    const first = await call('distil_expand', { handle: handles[0] });
    expect(first.isError).toBeFalsy();
    const expanded = Buffer.from(first.content[0]!.text!, 'utf8');
    // The same bytes `distil expand` prints, and a contiguous part of the original file …
    const cli = runCli(['expand', handles[0]!], { env });
    expect(expanded.equals(Buffer.from(cli.stdout, 'utf8'))).toBe(true);
    expect(original).toContain(expanded.toString('utf8'));
    // … and putting every fold back through MCP gives the file exactly.
    const restored = await restoreBlock(text, handles, storeOverMcp);
    expect(Buffer.from(restored).equals(readFileSync(file))).toBe(true);
  }, 60_000);

  it('refuses a forged handle and searches inside a fold', async () => {
    const forged = await call('distil_expand', { handle: 'dh_0123456789ab' });
    expect(forged.isError).toBe(true);
    expect(forged.content[0]!.text).toMatch(/unknown handle|dh_0123456789ab/);

    const original = ciLog(300);
    const made = await call('distil_compress', { text: original });
    const { handles, tier, tokens } = made.structuredContent as {
      handles: string[];
      tier: string;
      tokens: { before: number; after: number };
    };
    expect(tier).toBe('digest');
    expect(tokens.after).toBeLessThan(tokens.before);
    const restored = await restoreBlock(made.content[0]!.text!, handles, storeOverMcp);
    expect(restored).toBe(original);

    const searched = await call('distil_search', { handle: handles[0], query: 'step 120', k: 2 });
    expect(searched.isError).toBeFalsy();
    expect(searched.content[0]!.text).toMatch(/^lines \d+-\d+:/);
  }, 60_000);

  it('simulates the savings of a trajectory', async () => {
    const result = await call('distil_savings', { trajectory: TRAJECTORY });
    expect(result.isError).toBeFalsy();
    const { reports } = result.structuredContent as {
      reports: { strategies: { strategy: string; totals: { usd: number } }[] }[];
    };
    expect(reports[0]!.strategies.map((s) => s.strategy)).toEqual([
      'baseline',
      'cache-only',
      'naive',
      'distil',
    ]);
    expect(result.content[0]!.text).toContain('distil (cache-aware)');
  }, 60_000);
});
