import { openRestoreStore, type SearchHit, search } from '@distil/core';
import { type Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config-file.js';

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1) {
    throw new InvalidArgumentError('expected a positive integer');
  }
  return parsed;
}

/**
 * Renders hits for a reader: a heading per hit (rank, line range, score) with the ranges and scores
 * aligned in columns, then the chunk with a line-number gutter so a hit can be found in the original.
 */
export function formatHits(hits: readonly SearchHit[]): string {
  if (hits.length === 0) return 'no chunk matches the query\n';
  const ranges = hits.map((hit) => `lines ${hit.lineStart}-${hit.lineEnd}`);
  const scores = hits.map((hit) => hit.score.toFixed(3));
  const rangeWidth = Math.max(...ranges.map((range) => range.length));
  const scoreWidth = Math.max(...scores.map((score) => score.length));
  const rankWidth = String(hits.length).length;
  const gutterWidth = String(Math.max(...hits.map((hit) => hit.lineEnd))).length;
  return hits
    .map((hit, rank) => {
      const heading = `#${String(rank + 1).padStart(rankWidth)}  ${(ranges[rank] as string).padEnd(rangeWidth)}  score ${(scores[rank] as string).padStart(scoreWidth)}`;
      const body = hit.chunk
        .split('\n')
        .map((line, offset) => `  ${String(hit.lineStart + offset).padStart(gutterWidth)} │ ${line}`)
        .join('\n');
      return `${heading}\n${body}\n`;
    })
    .join('\n');
}

/** `distil search HANDLE QUERY [-k N] [--json]`: the k best chunks of a folded original by BM25. */
export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('find the chunks of a folded original that best match a query (BM25)')
    .argument('<handle>', 'a handle from a fold stub, e.g. dh_0123456789ab')
    .argument('<query>', 'words to look for')
    .option('-k <n>', 'how many chunks to print', positiveInteger, 5)
    .option('--json', 'print { handle, query, results: [{ chunk, score, lineStart, lineEnd }] }')
    .action(async (handle: string, query: string, opts: { k: number; json?: boolean }, cmd: Command) => {
      const { config } = loadConfig(cmd.optsWithGlobals<{ config?: string }>().config);
      const store = await openRestoreStore(config.restoreStore, undefined, { sweep: false });
      try {
        const hits = await search(store, handle, query, opts.k);
        process.stdout.write(
          opts.json ? `${JSON.stringify({ handle, query, results: hits }, null, 2)}\n` : formatHits(hits),
        );
      } finally {
        await store.close();
      }
    });
}
