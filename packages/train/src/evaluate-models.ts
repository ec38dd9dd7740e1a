import { LogisticKeepModel, SalienceKeepModel, trainLogisticKeepModel } from '@distil/codec';
import type { KeepModel } from '@distil/contract';
import { type EvaluationRow, keepMetrics } from './keep-metrics.js';
import { LABEL_SOURCES, type LabelledLine, labelOf, TEST_FRACTION } from './line-dataset.js';

/**
 * Scores the held-out lines with a model, kind by kind (the KeepModel contract takes one kind per call,
 * as a block would).
 */
export async function scoreHeldOut(model: KeepModel, lines: readonly LabelledLine[]): Promise<Float32Array> {
  const scores = new Float32Array(lines.length);
  const byKind = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const list = byKind.get(line.kind) ?? [];
    list.push(i);
    byKind.set(line.kind, list);
  });
  for (const [kind, indices] of byKind) {
    const got = await model.scoreLines(
      indices.map((i) => (lines[i] as LabelledLine).text),
      kind as LabelledLine['kind'],
    );
    indices.forEach((i, k) => {
      scores[i] = got[k] as number;
    });
  }
  return scores;
}

/**
 * The logistic model as the codec's trainer makes it from this corpus: salience-distilled labels and the
 * same SHA-256 hold-out (test lines are never trained on), default settings.
 */
export function trainLogisticOn(lines: readonly LabelledLine[]): LogisticKeepModel {
  const { weights } = trainLogisticKeepModel(
    lines.map((l) => l.text),
    { testFraction: TEST_FRACTION },
  );
  return new LogisticKeepModel(weights);
}

/** Rows of the evaluation table: each model against each label source, on the held-out split. */
export async function evaluateOnHeldOut(
  models: readonly { readonly name: string; readonly model: KeepModel }[],
  test: readonly LabelledLine[],
  threshold: number,
): Promise<EvaluationRow[]> {
  const rows: EvaluationRow[] = [];
  for (const { name, model } of models) {
    const scores = await scoreHeldOut(model, test);
    for (const source of LABEL_SOURCES) {
      const idx = test.flatMap((line, i) => (labelOf(line, source) === undefined ? [] : [i]));
      if (idx.length === 0) continue;
      const labels = idx.map((i) => labelOf(test[i] as LabelledLine, source) as number);
      rows.push({
        model: name,
        labels: source,
        metrics: keepMetrics(
          idx.map((i) => scores[i] as number),
          labels,
          threshold,
        ),
      });
    }
  }
  return rows;
}

/** The salience rules, for the table's first rows. */
export function salienceModel(): KeepModel {
  return new SalienceKeepModel();
}
