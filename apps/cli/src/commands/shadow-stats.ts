import { distilHome } from '@distil/core';
import { readShadowStats, type ShadowStats, wilsonInterval } from '@distil/proxy';
import type { Command } from 'commander';
import { count, percent } from '../replay-flags.js';
import { formatTable } from '../table.js';

interface ShadowStatsFlags {
  confidence?: string;
  json?: boolean;
}

const DETECTOR_NOTE =
  'Shadow mode is a detector, not a gate: it measures how often compression changes what the model decides on a sampled ' +
  'fraction of requests; it never blocks, delays or alters a reply.';

const listing = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${count(n)}`)
    .join(', ');

/** The report a person reads: per endpoint and overall, the divergence rate with its Wilson interval. */
export function renderShadowStats(stats: ShadowStats, confidence: number): string {
  const level = `${Math.round(confidence * 1000) / 10}%`;
  let out = `shadow mode (${stats.folder}): ${count(stats.runs)} run(s), ${count(stats.sampled)} request(s) sampled\n\n`;
  if (stats.compared === 0) {
    out +=
      'No comparisons recorded yet. Shadow mode runs in `distil wrap` and in proxies started with shadow on, ' +
      'sampling proxy.shadowSampleRate of the requests (default 0: set it to sample).\n';
    return `${out}\n${DETECTOR_NOTE}\n`;
  }
  const row = (name: string, compared: number, diverged: number): (string | number)[] => {
    const interval = wilsonInterval(diverged, compared, confidence);
    return [
      name,
      count(compared),
      count(diverged),
      percent(interval.rate),
      `${percent(interval.low)}–${percent(interval.high)}`,
    ];
  };
  const rows = Object.entries(stats.endpoints)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([endpoint, c]) => row(endpoint, c.compared, c.diverged));
  if (rows.length > 1) rows.push(row('all', stats.compared, stats.diverged));
  out += formatTable(['endpoint', 'compared', 'diverged', 'rate', `${level} interval (Wilson)`], rows);
  out += '\n';
  if (Object.keys(stats.classes).length > 0) out += `how decisions differed: ${listing(stats.classes)}\n`;
  if (Object.keys(stats.skipped).length > 0) out += `sampled but not compared: ${listing(stats.skipped)}\n`;
  if (stats.lastDivergenceAt) out += `last divergence: ${stats.lastDivergenceAt}\n`;
  return `${out}\n${DETECTOR_NOTE}\n`;
}

/** `distil shadow-stats`: the shadow divergence rate over every recorded run, with a confidence interval. */
export function registerShadowStats(program: Command): void {
  program
    .command('shadow-stats')
    .description('how often compression changed a decision in shadow mode: the rate with a Wilson interval')
    .option('--confidence <level>', 'confidence level of the interval, in (0, 1)', '0.95')
    .option('--json', 'print the counts and the interval as JSON')
    .action((_opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<ShadowStatsFlags>();
      const confidence = Number(flags.confidence ?? '0.95');
      if (!(confidence > 0 && confidence < 1)) {
        throw new Error(`--confidence must be a number between 0 and 1, not ${flags.confidence}`);
      }
      const stats = readShadowStats(distilHome());
      for (const path of stats.unreadable) {
        process.stderr.write(`distil: ${path} is not a shadow record; left out of the figures\n`);
      }
      if (flags.json) {
        const interval = wilsonInterval(stats.diverged, stats.compared, confidence);
        const endpoints = Object.fromEntries(
          Object.entries(stats.endpoints).map(([name, c]) => [
            name,
            { ...c, interval: wilsonInterval(c.diverged, c.compared, confidence) },
          ]),
        );
        process.stdout.write(`${JSON.stringify({ ...stats, endpoints, interval }, null, 2)}\n`);
        return;
      }
      process.stdout.write(renderShadowStats(stats, confidence));
    });
}
