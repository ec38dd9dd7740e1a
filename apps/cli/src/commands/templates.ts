import { mineTemplates, splitSegments } from '@distil/core';
import type { Command } from 'commander';
import { readInput } from '../read-input.js';
import { formatTable } from '../table.js';

interface TemplatesFlags {
  json?: boolean;
}

/**
 * `distil templates FILE [--json]`: mines the log templates of FILE (lines end at `\r\n`, `\r` or `\n`).
 * Default: the templates with their line counts, most frequent first, as an aligned table.
 * `--json`: JSON Lines, one object per input line: `{"line": <1-based number>, "cluster": <id>,
 * "template": "<text with <*> for variables>"}`.
 */
export function registerTemplates(program: Command): void {
  program
    .command('templates')
    .description('group the lines of a log by template (Drain family, no per-system settings)')
    .argument('<file>', 'log file, or - for stdin')
    .option('--json', 'one JSON object per input line: { "line", "cluster", "template" }')
    .action((file: string, _opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<TemplatesFlags>();
      const input = readInput(file);
      if (input.text === null || input.text.includes('\u0000')) {
        throw new Error(`${input.name} is binary (not UTF-8 text): no templates to mine`);
      }
      const { lines } = splitSegments(input.text);
      if (lines.length === 0) {
        process.stderr.write(`distil: ${input.name} is empty: no lines, no templates\n`);
        return;
      }
      const { clusterOf, templates } = mineTemplates(lines);
      if (flags.json) {
        writeJsonLines(clusterOf, templates);
        return;
      }
      const counts = new Array<number>(templates.length).fill(0);
      for (const c of clusterOf) counts[c]!++;
      const order = templates.map((_, i) => i).sort((a, b) => counts[b]! - counts[a]! || a - b);
      process.stdout.write(
        formatTable(
          ['lines', 'cluster', 'template'],
          order.map((c) => [counts[c]!, c, templates[c]!]),
        ),
      );
      process.stderr.write(`${lines.length} lines, ${templates.length} templates\n`);
    });
}

/** Writes the per-line objects in large chunks (a log can have millions of lines). */
function writeJsonLines(clusterOf: Int32Array, templates: readonly string[]): void {
  const encoded = templates.map((t) => JSON.stringify(t));
  let chunk = '';
  for (let i = 0; i < clusterOf.length; i++) {
    const c = clusterOf[i]!;
    chunk += `{"line":${i + 1},"cluster":${c},"template":${encoded[c]}}\n`;
    if (chunk.length > 1 << 20) {
      process.stdout.write(chunk);
      chunk = '';
    }
  }
  process.stdout.write(chunk);
}
