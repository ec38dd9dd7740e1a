import { join } from 'node:path';
import { readTrainingCorpus } from '@distil/codec';
import { importSessions, labelledOutputs } from '@distil/savings';
import { corpusPath } from './corpus-path.js';

/** One set of lines a keep model scores, in the order a tool produced them. */
export interface LineSet {
  readonly name: string;
  readonly lines: readonly string[];
}

/** CI log folders of the corpus, each a tool output an agent would read whole. */
const CI_LOGS = ['cidiff_breakages', 'logchunks', 'bugswarm_gha_logs'];

/**
 * Real tool-output lines: every tool output of the corpus's recorded agent sessions, and CI logs, each cut
 * to `limit` lines taken in order (repeats kept: a log repeats lines, and scoring sees them as they come).
 * With no corpus, generated log lines stand in, and the name says so.
 */
export function keepSpeedLines(limit: number): LineSet[] {
  const corpus = corpusPath();
  if (corpus === null)
    return [{ name: 'generated log lines (no corpus found)', lines: generatedLines(limit) }];
  const { sessions } = importSessions([join(corpus, 'trajectories')]);
  const agent: string[] = [];
  for (const session of sessions) {
    for (const output of labelledOutputs(session)) {
      for (const line of output.lines) agent.push(line);
      if (agent.length >= limit) break;
    }
    if (agent.length >= limit) break;
  }
  const ci: string[] = [];
  for (const folder of CI_LOGS) {
    const { lines } = readTrainingCorpus(join(corpus, 'tool_outputs', folder));
    ci.push(...lines.slice(0, Math.ceil(limit / CI_LOGS.length)));
  }
  return [
    { name: 'agent tool outputs (corpus trajectories)', lines: agent.slice(0, limit) },
    { name: `CI logs (corpus ${CI_LOGS.join(', ')})`, lines: ci.slice(0, limit) },
  ];
}

/** Log-like lines of the shapes CI output has, with enough variety that most are distinct. */
function generatedLines(count: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const kinds = [
      `2024-05-01T12:00:${String(i % 60).padStart(2, '0')}Z INFO worker ${i % 17} processed batch ${i}`,
      `ERROR request ${i} failed: connection refused (attempt ${i % 5})`,
      `  at Object.<anonymous> (/app/src/handler-${i % 40}.js:${i % 300}:${i % 80})`,
      `    status: ${i % 3 === 0 ? 'Running' : 'Pending'}`,
      `Downloading package-${i % 300}-1.0.${i % 10}.tar.gz (${i % 900} kB)`,
      `${i % 50} passed, ${i % 3} failed in ${(i % 97) / 10}s`,
      '',
    ];
    lines.push(kinds[i % kinds.length]!);
  }
  return lines;
}
