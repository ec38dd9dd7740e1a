import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ContentKind, type KeepModel, KeepModelConfig, ValidationError } from '@distil/contract';
import { LogisticKeepModel } from './logistic-keep-model.js';
import { SHIPPED_LOGISTIC_WEIGHTS } from './logistic-weights.js';
import { SalienceKeepModel } from './salience-keep-model.js';

/** A KeepModel with the one-line convenience every model of this package offers. */
export interface ScoringKeepModel extends KeepModel {
  /** Keep-probability of one line. */
  score(line: string, kind: ContentKind): Promise<number>;
}

/** The name of a keep model: the `type` of its config. */
export type KeepModelName = KeepModelConfig['type'];

/** One entry of {@link KEEP_MODELS}: what the model is and how it loads itself from its config. */
export interface KeepModelEntry<C extends KeepModelConfig = KeepModelConfig> {
  readonly description: string;
  /** Loads the model, or throws an Error naming what is missing (path, file). */
  load(config: C): Promise<ScoringKeepModel>;
}

/**
 * The demo transformer checkpoint, `models/keep-transformer` inside this package (published with it, so
 * it is there after `npm install`), used when a transformer config names no folder. One level up from
 * both `src/` and the bundled `dist/`.
 */
export const DEFAULT_TRANSFORMER_MODEL: string = fileURLToPath(
  new URL('../models/keep-transformer', import.meta.url),
);

/**
 * Every keep model, by config `type`: a frozen table and a resolver rather than a switch, so a model is
 * one entry (onnxruntime's registerBackend/resolveBackend works the same way). Relative paths in a config
 * resolve against the working directory.
 */
export const KEEP_MODELS: {
  readonly [K in KeepModelName]: KeepModelEntry<Extract<KeepModelConfig, { type: K }>>;
} = Object.freeze({
  salience: {
    description: 'deterministic rules: errors, verdicts, structured data, digits, debug noise',
    load: async () => new SalienceKeepModel(),
  },
  logistic: {
    description: 'logistic regression over nine line features; weights shipped in @distil/codec',
    load: async (config) =>
      LogisticKeepModel.load(config.weights ? resolve(config.weights) : SHIPPED_LOGISTIC_WEIGHTS),
  },
  transformer: {
    description: 'a small BERT token classifier run with onnxruntime (@distil/codec/transformer)',
    load: async (config) => {
      // Imported here, not at the top: the main entry must not pull in the ONNX side.
      const { TransformerKeepModel } = await import('./transformer/index.js');
      const model = await TransformerKeepModel.fromPretrained(
        config.model ? resolve(config.model) : DEFAULT_TRANSFORMER_MODEL,
      );
      await model.warmUp();
      return model;
    },
  },
});

/** The model names, in table order: `salience`, `logistic`, `transformer`. */
export const KEEP_MODEL_NAMES: readonly KeepModelName[] = Object.freeze(
  Object.keys(KEEP_MODELS) as KeepModelName[],
);

function isKeepModelName(name: string): name is KeepModelName {
  return Object.hasOwn(KEEP_MODELS, name);
}

/**
 * Loads the configured keep model. A load failure is an error naming what is missing — never a silent
 * swap — unless the config says `fallback: "salience"`: then the reason goes to `log` (default: stderr)
 * and the salience rules are returned.
 */
export async function loadKeepModel(
  config: KeepModelConfig,
  log: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): Promise<ScoringKeepModel> {
  const entry = KEEP_MODELS[config.type] as KeepModelEntry | undefined;
  if (entry === undefined) {
    throw new Error(
      `unknown keep model "${String(config.type)}": expected one of ${KEEP_MODEL_NAMES.join(', ')}`,
    );
  }
  try {
    return await entry.load(config);
  } catch (error) {
    if (config.fallback !== 'salience' || config.type === 'salience') throw error;
    const reason = error instanceof Error ? error.message : String(error);
    log(`keep model "${config.type}" did not load: fallback to the salience rules: ${reason}`);
    return new SalienceKeepModel();
  }
}

/**
 * The config a `--keep-model NAME` flag stands for (`salience`, `logistic` or `transformer`, each with its
 * default weights or folder). An unknown name is a ValidationError that lists the valid ones.
 */
export function keepModelConfigFromFlag(name: string): KeepModelConfig {
  if (!isKeepModelName(name)) {
    throw new ValidationError('--keep-model', [
      { path: '--keep-model', message: `expected one of ${KEEP_MODEL_NAMES.join(' | ')}, got "${name}"` },
    ]);
  }
  return KeepModelConfig.parse({ type: name });
}
