import { writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { TransformerKeepModel } from '@distil/codec/transformer';
import type { ContentKind } from '@distil/contract';
import { loadBaseCheckpoint, trimEmbeddingRows } from './base-checkpoint.js';
import { type EncodedLine, padBatch } from './batching.js';
import { type BertDims, DEFAULT_DIMS } from './bert-config.js';
import { type BertParams, initBertParams } from './bert-params.js';
import { type EpochSummary, trainBert } from './bert-trainer.js';
import { evaluateOnHeldOut, salienceModel, trainLogisticOn } from './evaluate-models.js';
import type { GradientEngine } from './gradient-engine.js';
import { InProcessGradientEngine } from './gradient-engine.js';
import { batchLogits } from './gradient-step.js';
import type { KeepBiasCalibration } from './keep-bias-calibration.js';
import { type EvaluationRow, formatEvaluationTable } from './keep-metrics.js';
import {
  type LabelAgreement,
  labelAgreement,
  labelCorpusLines,
  SALIENCE_KEEP_THRESHOLD,
  splitOf,
} from './line-dataset.js';
import { writeModelFolder } from './model-folder-writer.js';
import { checkOnnxParity, type ParityReport } from './onnx-parity.js';
import {
  evaluateSessionBlocks,
  fitSessionLogistic,
  formatSessionBlockTable,
  type SessionBlockRow,
} from './session-block-evaluation.js';
import { type BackendPreference, ensureBackend } from './tfjs-runtime.js';
import { readTraceCorpus, type TraceDocument } from './trace-corpus.js';
import { buildTrainingData, type TrainingLabels } from './training-data.js';
import { progressObserver } from './training-progress.js';
import { bertBaseUncasedVocabulary, type Vocabulary } from './vocabulary.js';
import { WorkerGradientEngine } from './worker-gradient-engine.js';

/** Options of {@link trainTransformer}; every optional one says its default. */
export interface TrainTransformerOptions {
  /** Corpus folders: text/log files, trajectories, optionally a labels.jsonl. */
  readonly corpus: readonly string[];
  /**
   * Tool outputs of recorded agent sessions, each labelled line by line by what the agent wrote after it
   * (decisionOrigin `session`) and split by its session (`group`); default none. The CLI builds them
   * from Claude Code, Codex, SWE-agent and OpenHands logs.
   */
  readonly sessionDocuments?: readonly TraceDocument[];
  /** The folders `sessionDocuments` were read from, for the report; default none. */
  readonly sessionRoots?: readonly string[];
  /** Output model folder (created). */
  readonly out: string;
  /** Default 3. */
  readonly epochs?: number;
  /** A local checkpoint folder (config.json + model.safetensors [+ vocab.txt]) to fine-tune from. */
  readonly base?: string;
  /** Cap on training lines (evenly sampled); default all. */
  readonly maxLines?: number;
  /** Longest sequence, [CLS] and [SEP] included; default 64. */
  readonly seqLen?: number;
  /** Model shape for random initialisation (not with `base`): defaults 2 layers, hidden 64, 2 heads, 256. */
  readonly layers?: number;
  readonly hidden?: number;
  readonly heads?: number;
  readonly intermediate?: number;
  /** Trim the vocabulary to the pieces the training lines use; default on without `base`, off with it. */
  readonly trimVocabulary?: boolean;
  /** Which labels to learn; default `auto` (decision labels when the corpus has them). */
  readonly labels?: TrainingLabels;
  /** Only lines of these kinds; default all. */
  readonly kinds?: readonly ContentKind[];
  /** Peak learning rate; default 1e-3 from random init, 1e-4 from a base. */
  readonly learningRate?: number;
  /** Loss weight of keep tokens; default √(drop lines / keep lines) of the training split, within [1, 4]. */
  readonly keepWeight?: number;
  /** Epochs without a better dev F1 before stopping; default 2. */
  readonly patience?: number;
  /** Worker threads (1 = train on this thread); default 2. */
  readonly threads?: number;
  readonly backend?: BackendPreference;
  /** Keep threshold used for every model in the evaluation; default 0.6 (the compression core's). */
  readonly threshold?: number;
  /** Seed of initialisation and batch order; default 42. */
  readonly seed?: number;
  /** Summary lines (stdout). */
  readonly log?: (line: string) => void;
  /** Where the progress bar draws (stderr); none when absent or not a TTY. */
  readonly progress?: NodeJS.WriteStream;
}

/** Everything `metrics.json` records. */
export interface TrainTransformerReport {
  readonly out: string;
  readonly corpus: {
    readonly roots: readonly string[];
    readonly textFiles: number;
    readonly trajectories: number;
    readonly lines: number;
  };
  readonly labelSource: string;
  readonly tokenLabels: string;
  readonly agreement: LabelAgreement;
  readonly split: {
    readonly train: number;
    readonly trainAvailable: number;
    readonly dev: number;
    readonly test: number;
  };
  readonly model: BertDims & {
    readonly parameters: number;
    readonly base: string | null;
    readonly trimmedVocabulary: boolean;
  };
  readonly training: {
    readonly backend: string;
    readonly threads: number;
    readonly learningRate: number;
    readonly keepWeight: number;
    readonly seqLen: number;
    readonly history: readonly EpochSummary[];
    readonly stoppedEarly: boolean;
    readonly seconds: number;
    readonly calibration: KeepBiasCalibration | null;
  };
  readonly parity: ParityReport;
  readonly threshold: number;
  readonly evaluation: readonly EvaluationRow[];
  /**
   * With recorded sessions: each model on the test sessions' tool outputs, every output scored as a
   * block with its context, the block logistic fitted on the same training sessions as the transformer.
   */
  readonly sessionEvaluation?: readonly SessionBlockRow[];
  readonly files: Readonly<Record<string, number>>;
}

function startParams(
  options: TrainTransformerOptions,
  vocabulary: Vocabulary,
  sourceIds: Int32Array | undefined,
  base: ReturnType<typeof loadBaseCheckpoint> | undefined,
): BertParams {
  const seed = options.seed ?? 42;
  if (base) return sourceIds ? trimEmbeddingRows(base.params, sourceIds) : base.params;
  const dims: BertDims = {
    ...DEFAULT_DIMS,
    vocabSize: vocabulary.size,
    hiddenSize: options.hidden ?? DEFAULT_DIMS.hiddenSize,
    numLayers: options.layers ?? DEFAULT_DIMS.numLayers,
    numHeads: options.heads ?? DEFAULT_DIMS.numHeads,
    intermediateSize: options.intermediate ?? DEFAULT_DIMS.intermediateSize,
  };
  if (dims.hiddenSize % dims.numHeads !== 0) {
    throw new Error(`--hidden ${dims.hiddenSize} must be a multiple of --heads ${dims.numHeads}`);
  }
  return initBertParams(dims, seed, vocabulary.padId);
}

/** A path as the user would type it here: relative to the working directory when inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** A padded batch of up to 8 lines of spread-out lengths: the parity check's input. */
function parityLines(lines: readonly EncodedLine[]): EncodedLine[] {
  const sorted = [...lines].sort((a, b) => a.ids.length - b.ids.length);
  const n = Math.min(8, sorted.length);
  return Array.from(
    { length: n },
    (_, i) => sorted[Math.floor((i * (sorted.length - 1)) / Math.max(1, n - 1))] as EncodedLine,
  );
}

/**
 * The whole `distil train-transformer` job: corpus → lines with both label sources → SHA-256 split →
 * WordPiece (bert-base-uncased, optionally trimmed) → BERT token classification in tfjs (worker threads,
 * early stopping) → model folder with ONNX export → parity check (onnxruntime vs tfjs within 1e-4) →
 * evaluation of salience, logistic and transformer on the held-out split → `metrics.json`.
 */
export async function trainTransformer(options: TrainTransformerOptions): Promise<TrainTransformerReport> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const out = resolve(options.out);
  const seqLen = options.seqLen ?? 64;
  if (
    options.base &&
    [options.layers, options.hidden, options.heads, options.intermediate].some((v) => v !== undefined)
  ) {
    throw new Error(
      '--layers/--hidden/--heads/--intermediate cannot be combined with --base: its config.json sets the shape',
    );
  }
  const base = options.base ? loadBaseCheckpoint(resolve(options.base), options.seed ?? 42) : undefined;
  if (base && seqLen > base.dims.maxPositions) {
    throw new Error(
      `--seq-len ${seqLen} exceeds the base's max_position_embeddings ${base.dims.maxPositions}`,
    );
  }
  const fullVocabulary = base?.vocabulary ?? bertBaseUncasedVocabulary();
  const common = bertBaseUncasedVocabulary();
  const sessionDocuments = options.sessionDocuments ?? [];
  const read =
    options.corpus.length > 0 || sessionDocuments.length === 0
      ? readTraceCorpus(
          options.corpus.map((c) => resolve(c)),
          (word) => common.has(word),
        )
      : { roots: [], documents: [], textFiles: 0, trajectoryFiles: 0, trajectories: 0 };
  const corpus = {
    ...read,
    roots: [...read.roots, ...(options.sessionRoots ?? []).map((r) => resolve(r))],
    documents: [...read.documents, ...sessionDocuments],
  };
  const sessions = new Set(sessionDocuments.map((d) => d.group)).size;
  const lines = labelCorpusLines(corpus);
  const agreement = labelAgreement(lines);
  const data = buildTrainingData(lines, fullVocabulary, {
    labels: options.labels ?? 'auto',
    seqLen,
    trimVocabulary: options.trimVocabulary ?? !base,
    ...(options.maxLines ? { maxLines: options.maxLines } : {}),
    ...(options.kinds ? { kinds: options.kinds } : {}),
  });
  log(
    `Corpus: ${corpus.textFiles} text files, ${corpus.trajectories} trajectories, ` +
      (sessions > 0
        ? `${sessions} agent sessions (${sessionDocuments.length} tool outputs, split by session), `
        : '') +
      `${lines.length} lines; ` +
      `training on ${data.labelSource} labels: ${data.train.length} train / ${data.dev.length} dev / ${data.test.length} test lines`,
  );
  if (agreement.lines > 0) {
    log(
      `Label agreement (salience vs decision) on ${agreement.lines} lines: ${(agreement.agreement * 100).toFixed(1)}%, ` +
        `kappa ${agreement.kappa.toFixed(3)}`,
    );
  }
  if (base) {
    log(
      `Fine-tuning ${shown(resolve(options.base as string))}: ${base.dims.numLayers} layers, hidden ${base.dims.hiddenSize}, ` +
        `${base.hadClassifier ? 'its 2-label head' : 'a new 2-label head'}, vocabulary ${data.vocabulary.size}` +
        (data.sourceIds ? ' (trimmed)' : ''),
    );
  }
  let params = startParams(options, data.vocabulary, data.sourceIds, base);
  const threads = options.threads ?? 2;
  const learningRate = options.learningRate ?? (base ? 1e-4 : 1e-3);
  const engine: GradientEngine =
    threads > 1
      ? await WorkerGradientEngine.start(params.dims, params.count, threads, options.backend ?? 'auto')
      : await InProcessGradientEngine.start(options.backend ?? 'auto');
  const keepLines = data.train.filter((l) => l.label === 1).length;
  // Few keep lines make the keep class easy to ignore; a moderate weight (not the full ratio, which
  // over-predicts keep) helps it learn, and the bias calibration below restores the operating point.
  const keepWeight =
    options.keepWeight ??
    Math.min(4, Math.max(1, Math.sqrt((data.train.length - keepLines) / Math.max(1, keepLines))));
  let result: Awaited<ReturnType<typeof trainBert>>;
  const trainStarted = performance.now();
  try {
    result = await trainBert(params, data.train, data.dev, {
      engine,
      epochs: options.epochs ?? 3,
      learningRate,
      keepWeight,
      patience: options.patience ?? 2,
      seed: options.seed ?? 42,
      calibrateThreshold: options.threshold ?? SALIENCE_KEEP_THRESHOLD,
      observer: progressObserver({ log, ...(options.progress ? { bar: options.progress } : {}) }),
    });
  } finally {
    await engine.close();
  }
  const trainSeconds = (performance.now() - trainStarted) / 1000;
  params = result.params;
  const calibration = result.calibration;
  if (calibration) {
    log(
      `Keep bias shifted by ${calibration.delta.toFixed(2)} so that keeping at ${calibration.threshold} is dev-F1 best ` +
        `(dev F1 ${calibration.devF1Before.toFixed(4)} → ${calibration.devF1After.toFixed(4)})`,
    );
  }

  const { onnx, files } = writeModelFolder(out, params, data.vocabulary, seqLen);
  log(`Exported ONNX to ${shown(join(out, 'onnx', 'model.onnx'))}`);
  await ensureBackend(options.backend ?? 'auto');
  const parityBatch = padBatch(
    parityLines(
      data.test.length > 0
        ? data.test.slice(0, 4000).map((l) => ({ ids: data.tokenizer.encode(l.text, seqLen), label: 0 }))
        : data.train,
    ),
  );
  const parity = await checkOnnxParity(onnx, parityBatch, batchLogits(params, parityBatch));
  if (!parity.ok) {
    throw new Error(
      `ONNX export does not match tfjs: max |Δlogit| ${parity.maxAbsDiff.toExponential(2)} > ${parity.tolerance} ` +
        `on a padded batch of ${parity.rows}×${parity.seqLen}`,
    );
  }
  log(
    `Parity: onnxruntime vs tfjs max |Δlogit| ${parity.maxAbsDiff.toExponential(2)} on a padded ${parity.rows}×${parity.seqLen} batch`,
  );

  const threshold = options.threshold ?? SALIENCE_KEEP_THRESHOLD;
  const transformer = await TransformerKeepModel.fromPretrained(out, { intraOpThreads: threads });
  let evaluation: EvaluationRow[];
  let sessionEvaluation: SessionBlockRow[] | undefined;
  try {
    evaluation = await evaluateOnHeldOut(
      [
        { name: 'salience', model: salienceModel() },
        { name: 'logistic (lines, salience-distilled)', model: trainLogisticOn(lines) },
        { name: 'transformer', model: transformer },
      ],
      data.test,
      threshold,
    );
    // sessions split as the lines are (by their group), so both models train and test on the same ones
    const heldOut = sessionDocuments.filter((d) => splitOf(d.group ?? '') === 'test');
    const blockModel = fitSessionLogistic(sessionDocuments.filter((d) => splitOf(d.group ?? '') !== 'test'));
    if (blockModel && heldOut.length > 0)
      sessionEvaluation = await evaluateSessionBlocks(
        [
          { name: 'rules (salience)', model: salienceModel() },
          { name: 'logistic (block + context + prior)', model: blockModel },
          { name: 'transformer', model: transformer },
        ],
        heldOut,
      );
  } finally {
    await transformer.release();
  }
  const report: TrainTransformerReport = {
    out: shown(out),
    corpus: {
      roots: corpus.roots.map(shown),
      textFiles: corpus.textFiles,
      trajectories: corpus.trajectories,
      lines: lines.length,
    },
    labelSource: data.labelSource,
    tokenLabels:
      'every token of a keep line ([CLS] and [SEP] included) is labelled 1; padding is ignored by the loss',
    agreement,
    split: {
      train: data.train.length,
      trainAvailable: data.availableTrainLines,
      dev: data.dev.length,
      test: data.test.length,
    },
    model: {
      ...params.dims,
      parameters: params.count,
      base: options.base ? shown(resolve(options.base)) : null,
      trimmedVocabulary: Boolean(data.sourceIds),
    },
    training: {
      backend: engine.backend,
      threads: engine.parallelism,
      learningRate,
      keepWeight,
      seqLen,
      history: result.history,
      stoppedEarly: result.stoppedEarly,
      seconds: trainSeconds,
      calibration: calibration ?? null,
    },
    parity,
    threshold,
    evaluation,
    ...(sessionEvaluation ? { sessionEvaluation } : {}),
    files,
  };
  writeFileSync(join(out, 'metrics.json'), `${JSON.stringify(report, null, 2)}\n`);
  log('');
  log(`Held-out evaluation (keep when score >= ${threshold}):`);
  log(formatEvaluationTable(evaluation));
  if (sessionEvaluation) {
    log('');
    log(
      'Held-out sessions, each tool output scored as a block with its context (tokens removed, least likely needed first, while that share of the needed lines stays):',
    );
    log(formatSessionBlockTable(sessionEvaluation));
  }
  const mine = evaluation.find((r) => r.model === 'transformer' && r.labels === data.labelSource);
  if (mine)
    log(
      `Accuracy=${mine.metrics.accuracy.toFixed(4)}  F1=${mine.metrics.f1.toFixed(4)}  (${data.labelSource} labels)`,
    );
  log(
    `Metrics written to ${shown(join(out, 'metrics.json'))} (${((performance.now() - started) / 1000).toFixed(0)} s in all)`,
  );
  log(
    `Load with: TransformerKeepModel.fromPretrained('${shown(out)}')  or config {"keepModel": {"type": "transformer", "model": "${shown(out)}"}}`,
  );
  return report;
}
