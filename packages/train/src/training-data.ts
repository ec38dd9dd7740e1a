import type { ContentKind } from '@distil/contract';
import type { EncodedLine } from './batching.js';
import { type LabelledLine, type LabelSource, labelOf } from './line-dataset.js';
import { trimVocabulary, type Vocabulary } from './vocabulary.js';
import { WordPieceTokenizer } from './wordpiece-tokenizer.js';

/** Which labels the transformer learns: `auto` takes decision labels when the corpus has enough of them. */
export type TrainingLabels = 'auto' | LabelSource;

/** A decision-labelled training split smaller than this falls back to salience labels under `auto`. */
export const MIN_DECISION_LINES = 200;
/** A line repeated more often than this (with the same label) is trained on this many times: logs repeat. */
export const MAX_REPEATS = 3;

/** Lines ready for training and evaluation. */
export interface TrainingData {
  readonly labelSource: LabelSource;
  readonly vocabulary: Vocabulary;
  /** For a trimmed vocabulary, each new id's id in the full one (to carry pretrained rows over). */
  readonly sourceIds?: Int32Array;
  readonly tokenizer: WordPieceTokenizer;
  readonly train: EncodedLine[];
  readonly dev: EncodedLine[];
  /** Every held-out line, with both labels, for the evaluation table. */
  readonly test: LabelledLine[];
  /** Training lines before `maxLines` sampling and after repeat capping. */
  readonly availableTrainLines: number;
}

export interface TrainingDataOptions {
  readonly labels: TrainingLabels;
  readonly seqLen: number;
  readonly trimVocabulary: boolean;
  readonly maxLines?: number;
  readonly kinds?: readonly ContentKind[];
}

/** Picks the label source: `auto` means decision labels when at least MIN_DECISION_LINES train lines have one. */
export function chooseLabelSource(lines: readonly LabelledLine[], wanted: TrainingLabels): LabelSource {
  if (wanted !== 'auto') return wanted;
  const decisionTrain = lines.filter((l) => l.split === 'train' && l.decision !== undefined).length;
  return decisionTrain >= MIN_DECISION_LINES ? 'decision' : 'salience';
}

/** Evenly spaced sample of `n` items, first included (deterministic, spreads over every file). */
function strideSample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)] as T);
}

function capRepeats(lines: readonly { text: string; label: 0 | 1 }[]): { text: string; label: 0 | 1 }[] {
  const seen = new Map<string, number>();
  return lines.filter((l) => {
    const key = `${l.label}\u0000${l.text}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n <= MAX_REPEATS;
  });
}

/**
 * Builds the training data: chooses the label source, filters to `kinds`, caps repeats, samples down to
 * `maxLines`, tokenizes, and (when asked) trims the vocabulary to the pieces the training lines use.
 * Every token of a keep line is labelled keep. Throws a clear error when nothing is left to learn from.
 */
export function buildTrainingData(
  all: readonly LabelledLine[],
  fullVocabulary: Vocabulary,
  options: TrainingDataOptions,
): TrainingData {
  let lines = all;
  if (options.kinds && options.kinds.length > 0) {
    const kinds = new Set(options.kinds);
    lines = all.filter((l) => kinds.has(l.kind));
    if (lines.length === 0) {
      const present = [...new Set(all.map((l) => l.kind))].sort().join(', ');
      throw new Error(
        `the corpus has no lines of kind ${options.kinds.join(', ')} (it has: ${present || 'none'})`,
      );
    }
  }
  const labelSource = chooseLabelSource(lines, options.labels);
  const labelled = (split: 'train' | 'dev') =>
    lines.flatMap((l) => {
      const label = l.split === split ? labelOf(l, labelSource) : undefined;
      return label === undefined ? [] : [{ text: l.text, label }];
    });
  const capped = capRepeats(labelled('train'));
  if (capped.length === 0) {
    throw new Error(
      labelSource === 'decision'
        ? 'no decision-labelled lines in the training split: the corpus needs trajectories or a labels.jsonl'
        : 'no lines in the training split',
    );
  }
  for (const label of [0, 1] as const) {
    if (!capped.some((l) => l.label === label)) {
      throw new Error(
        `no ${label ? 'keep' : 'drop'} lines in the training split (${labelSource} labels): ` +
          'a classifier cannot learn from one class',
      );
    }
  }
  const trainLines = options.maxLines ? strideSample(capped, options.maxLines) : capped;
  const devLines = capRepeats(labelled('dev'));

  const fullTokenizer = new WordPieceTokenizer(fullVocabulary);
  let vocabulary = fullVocabulary;
  let sourceIds: Int32Array | undefined;
  if (options.trimVocabulary) {
    const used = new Set<number>();
    for (const l of trainLines) for (const id of fullTokenizer.encode(l.text, options.seqLen)) used.add(id);
    const trimmed = trimVocabulary(fullVocabulary, used);
    vocabulary = trimmed.vocabulary;
    sourceIds = trimmed.sourceIds;
  }
  const tokenizer = vocabulary === fullVocabulary ? fullTokenizer : new WordPieceTokenizer(vocabulary);
  const encode = (l: { text: string; label: 0 | 1 }): EncodedLine => ({
    ids: tokenizer.encode(l.text, options.seqLen),
    label: l.label,
  });
  return {
    labelSource,
    vocabulary,
    ...(sourceIds ? { sourceIds } : {}),
    tokenizer,
    train: trainLines.map(encode),
    dev: devLines.map(encode),
    test: lines.filter((l) => l.split === 'test'),
    availableTrainLines: capped.length,
  };
}
