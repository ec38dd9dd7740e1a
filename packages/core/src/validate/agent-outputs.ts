/**
 * Tool results as the current agents deliver them, built from text the caller chooses: the formats
 * tool-envelope.ts and line-numbers.ts recognise, written out the way each client writes them, so tests
 * and benchmarks exercise the real shapes without recorded third-party data.
 */

/** A generated CI log and the lines that say why it failed (each appears once, verbatim). */
export interface CiLog {
  readonly text: string;
  readonly keyLines: readonly string[];
}

/** A note a client appends to a tool result for the model, in a system-reminder element. */
export const READ_REMINDER =
  '<system-reminder>\nWhen you read a file, consider whether it could be malicious; you may explain what it does, but do not improve or extend such code.\n</system-reminder>\n';

/**
 * A GitHub Actions job log of `lines` lines (default 1,836): runner set-up, a dependency install and a
 * font-cache rebuild (hundreds of alike lines naming generic words — cache, directory, public, objects),
 * a build that fails, and the clean-up (so the failure sits outside a digest's head and tail).
 * Deterministic for a given `lines`.
 */
export function ciLog(lines = 1836): CiLog {
  const keyLines = [
    'src/render/layout.ts(214,17): error TS2345: Argument of type "string | undefined" is not assignable to parameter of type "string".',
    'Found 1 error in src/render/layout.ts:214',
    '##[error]Process completed with exit code 2.',
  ];
  const setup = [
    'Requested labels: ubuntu-latest',
    'Job defined at: acme/site/.github/workflows/build.yml@refs/heads/main',
    'Waiting for a runner to pick up this job...',
    "Current runner version: '2.311.0'",
    '##[group]Operating System',
    'Ubuntu',
    '22.04.3',
    'LTS',
    '##[endgroup]',
    '##[group]Run actions/checkout@v4',
    'Syncing repository: acme/site',
    '[command]/usr/bin/git init /home/runner/work/site/site',
    '[command]/usr/bin/git remote add origin https://github.com/acme/site',
    '##[endgroup]',
    '##[group]Run npm ci',
  ];
  const tail = [
    '> site@1.4.0 build',
    '> tsc -p tsconfig.build.json && node scripts/bundle.mjs',
    '',
    keyLines[0]!,
    '',
    keyLines[1]!,
    keyLines[2]!,
    'Post job cleanup.',
    '[command]/usr/bin/git version',
    'git version 2.43.0',
    "Temporarily overriding HOME='/home/runner/work/_temp/3f1c' before making global git config changes",
    ...Array.from(
      { length: 30 },
      (_, i) => `[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader-${i}`,
    ),
    'Cleaning up orphan processes',
  ];
  const middle = lines - setup.length - tail.length;
  const body: string[] = [];
  for (let i = 0; i < middle; i++) {
    const n = i + 1;
    if (i < middle * 0.35) {
      const pkg = `pkg-${(n * 7919) % 997}`;
      body.push(
        `npm http fetch GET 200 https://registry.npmjs.org/${pkg}/-/${pkg}-1.${n % 17}.${n % 5}.tgz ${20 + (n % 180)}ms (cache hit)`,
      );
    } else if (i < middle * 0.9) {
      const dir = ['public', 'dist', 'objects', 'fonts/type1', 'fonts/opentype'][n % 5];
      body.push(
        `/home/runner/.cache/fontconfig/${dir}/family-${n % 211}: caching, new cache contents: ${n % 41} fonts, ${n % 3} dirs`,
      );
    } else {
      body.push(`added directory public/assets/chunk-${n} (${(n * 37) % 900} objects, ${n % 13} kB)`);
    }
  }
  const all = [...setup, ...body, ...tail];
  const stamp = (i: number): string => {
    const seconds = 13 * 60 + Math.floor(i / 9);
    const mm = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
    const ss = String(seconds % 60).padStart(2, '0');
    return `2024-05-07T08:${mm}:${ss}.${String(1000000 + ((i * 7717) % 8999999)).padStart(7, '0')}Z`;
  };
  return { text: `${all.map((line, i) => `${stamp(i)} ${line}`).join('\n')}\n`, keyLines };
}

/** Options of {@link asReadOutput}. */
export interface ReadOutputOptions {
  /** 1-based number of the first line shown (Read's `offset`; default 1). */
  readonly offset?: number;
  /** How many lines to show (Read's `limit`; default all). */
  readonly limit?: number;
  /** A note appended after the lines, after a blank line (default none). */
  readonly reminder?: string;
  /** Numbers right-aligned in six columns, as `cat -n` and `nl -ba` print them. */
  readonly padded?: boolean;
}

/**
 * A file as Claude Code's Read tool returns it (as captured from 2.1.332): each line as `N\t<line>` from
 * `offset`, the empty line after a final newline numbered too; `padded` numbers `cat -n` style.
 */
export function asReadOutput(file: string, options: ReadOutputOptions = {}): string {
  const first = options.offset ?? 1;
  const end = options.limit === undefined ? undefined : first - 1 + options.limit;
  const shown = file.split('\n').slice(first - 1, end);
  const width = options.padded ? 6 : 0;
  const numbered = shown.map((line, i) => `${String(first + i).padStart(width)}\t${line}`).join('\n');
  return options.reminder === undefined ? numbered : `${numbered}\n\n${options.reminder}`;
}

/** Options of {@link asCodexExec}. */
export interface CodexExecOptions {
  readonly exitCode?: number;
  readonly wallSeconds?: number;
  /** `shell` (the classic tool) or `unified` (`exec_command`); default `shell`. */
  readonly style?: 'shell' | 'unified';
  /** Cut the output to about this many characters, head and tail, as Codex caps it (default: no cap). */
  readonly maxChars?: number;
}

/**
 * A command's output as Codex hands it to the model: its header (exit code, wall time, and when capped
 * the line count and token count), `Output:`, then the output — cut in the middle with
 * `…N tokens truncated…` when over `maxChars` (Codex counts about 4 characters a token).
 */
export function asCodexExec(output: string, options: CodexExecOptions = {}): string {
  const exitCode = options.exitCode ?? 0;
  const wall = (options.wallSeconds ?? 1.2).toFixed(4);
  const max = options.maxChars;
  const capped = max !== undefined && output.length > max;
  const lines = output.split('\n').length;
  let body = output;
  if (capped) {
    const head = Math.floor(max / 2);
    const cut = output.length - max;
    body = `${output.slice(0, head)}…${Math.ceil(cut / 4)} tokens truncated…${output.slice(output.length - (max - head))}`;
  }
  if (options.style === 'unified') {
    const header = ['Chunk ID: 4f2a9c', `Wall time: ${wall} seconds`, `Process exited with code ${exitCode}`];
    if (capped) header.push(`Original token count: ${Math.ceil(output.length / 4)}`);
    return `${header.join('\n')}\nOutput:\n${body}`;
  }
  const header = [`Exit code: ${exitCode}`, `Wall time: ${wall} seconds`];
  if (capped) header.push(`Total output lines: ${lines}`);
  return `${header.join('\n')}\nOutput:\n${body}`;
}

/**
 * A shell call's output as earlier Codex releases send it (`function_call_output` of the `shell` tool):
 * a JSON object with the output as a string and the exit code and duration beside it.
 */
export function asCodexJson(output: string, options: { exitCode?: number; seconds?: number } = {}): string {
  const metadata = { exit_code: options.exitCode ?? 0, duration_seconds: options.seconds ?? 0.4 };
  return JSON.stringify({ output, metadata });
}

/**
 * What Claude Code sends in place of a Bash output over 30,000 characters: where the full output was
 * saved, and a preview of its first 2 KB.
 */
export function asPersistedOutput(output: string, savedTo: string): string {
  const kb = (output.length / 1024).toFixed(1);
  const preview = output.slice(0, 2048);
  const cut = preview.lastIndexOf('\n');
  return `<persisted-output>\nOutput too large (${kb}KB). Full output saved to: ${savedTo}\n\nPreview (first 2KB):\n${cut > 0 ? preview.slice(0, cut) : preview}\n...\n</persisted-output>`;
}
