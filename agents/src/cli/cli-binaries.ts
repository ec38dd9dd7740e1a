import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** An agent CLI as installed from npm: how to start it and which version it is. */
export interface InstalledCli {
  readonly command: string;
  /** Arguments that come before the CLI's own (e.g. the script for `node`). */
  readonly prefixArgs: readonly string[];
  readonly version: string;
}

function packageDir(name: string, from?: string): string {
  const manifest = require.resolve(`${name}/package.json`, from ? { paths: [from] } : undefined);
  return dirname(manifest);
}

function versionOf(dir: string): string {
  return (require(join(dir, 'package.json')) as { version: string }).version;
}

/**
 * Claude Code (`@anthropic-ai/claude-code`): a native binary. Its postinstall copies the platform
 * package's binary over `bin/claude.exe`; when that script did not run, the binary is taken from the
 * platform package (`@anthropic-ai/claude-code-<os>-<arch>`) directly, as the package's own wrapper does.
 */
export function claudeCodeCli(): InstalledCli {
  const dir = packageDir('@anthropic-ai/claude-code');
  const placed = join(dir, 'bin', 'claude.exe');
  if (statSync(placed).size > 1_000_000) return { command: placed, prefixArgs: [], version: versionOf(dir) };
  const platform = packageDir(`@anthropic-ai/claude-code-${process.platform}-${process.arch}`, dir);
  return { command: join(platform, 'claude'), prefixArgs: [], version: versionOf(dir) };
}

/**
 * Codex (`@openai/codex`): `bin/codex.js` finds the Rust binary of this platform in the optional
 * dependency `@openai/codex-<os>-<arch>` (the same package at a platform version, from the npm registry)
 * and runs it; the harness starts it the same way a user's `codex` does.
 */
export function codexCli(): InstalledCli {
  const dir = packageDir('@openai/codex');
  return { command: process.execPath, prefixArgs: [join(dir, 'bin', 'codex.js')], version: versionOf(dir) };
}
