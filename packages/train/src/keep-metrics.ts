/** Binary classification figures with keep as the positive class. */
export interface KeepMetrics {
  readonly lines: number;
  readonly keep: number;
  readonly accuracy: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Accuracy, precision, recall and F1 of `scores ≥ threshold` against 0/1 `labels`. */
export function keepMetrics(
  scores: ArrayLike<number>,
  labels: ArrayLike<number>,
  threshold: number,
): KeepMetrics {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (let i = 0; i < labels.length; i++) {
    const keep = (scores[i] as number) >= threshold;
    const label = labels[i] === 1;
    if (keep && label) tp++;
    else if (keep) fp++;
    else if (label) fn++;
    else tn++;
  }
  const lines = tp + fp + tn + fn;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  return {
    lines,
    keep: tp + fn,
    accuracy: lines === 0 ? Number.NaN : (tp + tn) / lines,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
  };
}

/** One row of the evaluation table. */
export interface EvaluationRow {
  readonly model: string;
  readonly labels: string;
  readonly metrics: KeepMetrics;
}

const fixed = (x: number, digits = 4) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

/** The evaluation table as aligned text: one row per model and label source. */
export function formatEvaluationTable(rows: readonly EvaluationRow[]): string {
  const header = ['model', 'labels', 'lines', 'keep', 'accuracy', 'precision', 'recall', 'F1'];
  const body = rows.map((r) => [
    r.model,
    r.labels,
    String(r.metrics.lines),
    String(r.metrics.keep),
    fixed(r.metrics.accuracy),
    fixed(r.metrics.precision),
    fixed(r.metrics.recall),
    fixed(r.metrics.f1),
  ]);
  return formatColumns(header, body, 2);
}

/** A plain-text table: the first `textColumns` columns left-aligned, the rest (figures) right-aligned. */
export function formatColumns(
  header: readonly string[],
  body: readonly (readonly string[])[],
  textColumns: number,
): string {
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((row) => (row[c] as string).length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) =>
        c < textColumns ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number),
      )
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
