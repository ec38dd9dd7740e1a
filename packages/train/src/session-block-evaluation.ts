import {
  DEFAULT_COST_EXPONENT,
  DEFAULT_L2,
  fitBlockLogistic,
  type LabelledBlock,
  LogisticKeepModel,
  removedAtRecall,
  rocAuc,
} from '@distil/codec';
import type { KeepModel } from '@distil/contract';
import { countTokens } from '@distil/core';
import { formatColumns } from './keep-metrics.js';
import type { TraceDocument } from './trace-corpus.js';

/** One model's figures on the held-out sessions' tool outputs, each scored as the whole block it was. */
export interface SessionBlockRow {
  readonly model: string;
  readonly lines: number;
  readonly neededShare: number;
  readonly rocAuc: number;
  /** Share of the outputs' tokens (o200k) removed, least likely needed first, while 99% of needed lines stay. */
  readonly removedAt99: number;
  readonly removedAt95: number;
  /** Share of tokens in unneeded lines: what removing exactly those would save. */
  readonly ceiling: number;
}

/** A session document with the labels the block model learns from. */
type LabelledDocument = TraceDocument & { readonly decision: Uint8Array; readonly group: string };

const labelled = (d: TraceDocument): d is LabelledDocument =>
  d.decision !== undefined && d.group !== undefined;

/**
 * The block logistic model as `distil train --corpus` fits it (block features, the trusted context, the
 * hashed token prior, the shipped L2 and cost exponent), fitted on `documents` alone: the comparison the
 * transformer has to beat, trained on the very sessions the transformer trained on.
 */
export function fitSessionLogistic(documents: readonly TraceDocument[]): LogisticKeepModel | null {
  const blocks: LabelledBlock[] = documents.filter(labelled).map((d) => ({
    lines: d.lines,
    needed: d.decision,
    group: d.group,
    ...(d.context ? { context: d.context } : {}),
  }));
  if (blocks.length === 0) return null;
  return new LogisticKeepModel(
    fitBlockLogistic(blocks, { l2: DEFAULT_L2, costExponent: DEFAULT_COST_EXPONENT }),
  );
}

/**
 * Scores every held-out session document as the pipeline would (one call per tool output, with its
 * context) with each model, and measures what `pnpm bench:keep` measures: ROC-AUC and the tokens removed
 * at 99% and 95% recall of the needed lines. The F1 table beside it scores lines pooled by kind, which a
 * model that reads the whole block cannot be judged by.
 */
export async function evaluateSessionBlocks(
  models: readonly { readonly name: string; readonly model: KeepModel }[],
  documents: readonly TraceDocument[],
): Promise<SessionBlockRow[]> {
  const held = documents.filter(labelled);
  const needed = Uint8Array.from(held.flatMap((d) => [...d.decision]));
  const tokens = Float64Array.from(
    held.flatMap((d) => d.lines.map((line) => (line.length === 0 ? 1 : countTokens(line)))),
  );
  if (needed.length === 0) return [];
  let total = 0;
  let unneeded = 0;
  for (let i = 0; i < needed.length; i++) {
    total += tokens[i]!;
    if (needed[i] === 0) unneeded += tokens[i]!;
  }
  const rows: SessionBlockRow[] = [];
  for (const { name, model } of models) {
    const scores = new Float64Array(needed.length);
    let at = 0;
    for (const d of held) {
      scores.set(await model.scoreLines(d.lines, d.kind, d.context), at);
      at += d.lines.length;
    }
    rows.push({
      model: name,
      lines: needed.length,
      neededShare: needed.reduce((s, v) => s + v, 0) / needed.length,
      rocAuc: rocAuc(scores, needed),
      removedAt99: removedAtRecall(scores, needed, tokens, 0.99),
      removedAt95: removedAtRecall(scores, needed, tokens, 0.95),
      ceiling: total === 0 ? 0 : unneeded / total,
    });
  }
  return rows;
}

/** The rows as a table. */
export function formatSessionBlockTable(rows: readonly SessionBlockRow[]): string {
  const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
  const header = [
    'model',
    'lines',
    'needed',
    'ROC-AUC',
    'removed @99% recall',
    'removed @95% recall',
    'ceiling',
  ];
  const body = rows.map((r) => [
    r.model,
    String(r.lines),
    pct(r.neededShare),
    r.rocAuc.toFixed(3),
    pct(r.removedAt99),
    pct(r.removedAt95),
    pct(r.ceiling),
  ]);
  return formatColumns(header, body, 1);
}
