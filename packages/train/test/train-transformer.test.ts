/**
 * End to end through the public API, on a corpus and a model small enough for CI: a generated folder of
 * logs with a labels.jsonl and a trajectory in the contract's format → train (2 worker threads) → export →
 * parity → the folder loads in the codec's TransformerKeepModel and in transformers.js, offline.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransformerKeepModel } from '@distil/codec/transformer';
import { env, pipeline } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../src/bert-params.js';
import { type TrainTransformerOptions, type TrainTransformerReport, trainTransformer } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'distil-train-e2e-'));
const corpus = join(root, 'corpus');
const out = join(root, 'model');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SERVICES = ['api', 'worker', 'billing', 'auth', 'search', 'gateway'];
const NOISE = [
  'DEBUG cache hit key={k} ttl=300',
  'INFO request served in {n}ms',
  'DEBUG heartbeat ok seq={n}',
  'INFO connection pool size={n}',
  'TRACE span {k} closed',
];
const SIGNAL = [
  'ERROR {s} failed: connection refused to db-{n}:5432',
  'FAILED tests/test_{s}.py::test_{k} - AssertionError: expected {n}',
  'panic: runtime error: index out of range [{n}] in {s}.go',
  'Exception in thread "main" java.lang.NullPointerException at {s}.Handler',
];

/** Deterministic log files: mostly noise, a few signal lines, which labels.jsonl records as keep. */
function writeCorpus(): void {
  const random = seededRandom(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const fill = (t: string) =>
    t
      .replace('{s}', pick(SERVICES))
      .replace('{k}', Math.floor(random() * 1e6).toString(36))
      .replace(/\{n\}/g, () => String(Math.floor(random() * 9000) + 10));
  mkdirSync(join(corpus, 'logs'), { recursive: true });
  mkdirSync(join(corpus, 'trajectories'), { recursive: true });
  const records: string[] = [];
  for (let f = 0; f < 12; f++) {
    const lines: string[] = [];
    const keep: number[] = [];
    for (let i = 0; i < 60; i++) {
      const signal = random() < 0.2;
      lines.push(fill(pick(signal ? SIGNAL : NOISE)));
      if (signal) keep.push(i + 1);
    }
    writeFileSync(join(corpus, 'logs', `run-${f}.log`), `${lines.join('\n')}\n`);
    records.push(JSON.stringify({ file: `logs/run-${f}.log`, lines: lines.length, keep }));
  }
  writeFileSync(join(corpus, 'labels.jsonl'), `${records.join('\n')}\n`);
  const trajectory = {
    format: 'distil.trajectory/v1',
    id: 'fix-login',
    turns: [
      {
        blocks: [{ id: 'task', role: 'user', kind: 'chat', text: 'make the login test pass', trusted: true }],
        decision: { type: 'tool_call', tool: 'bash', arguments: { command: 'pytest -q' } },
      },
      {
        blocks: [
          {
            id: 'out',
            role: 'tool',
            kind: 'tool_output',
            text: 'collected 4 items\nFAILED tests/test_login.py::test_token - KeyError: user_id\n3 passed, 1 failed',
            trusted: false,
          },
        ],
        decision: { type: 'tool_call', tool: 'read', arguments: { path: 'tests/test_login.py' } },
      },
      {
        blocks: [
          { id: 'why', role: 'assistant', kind: 'chat', text: 'The token lacks user_id.', trusted: false },
        ],
        decision: { type: 'final', text: 'done' },
      },
    ],
  };
  writeFileSync(join(corpus, 'trajectories', 'fix-login.json'), JSON.stringify(trajectory));
}

const TINY: Partial<TrainTransformerOptions> = {
  layers: 1,
  hidden: 32,
  heads: 2,
  intermediate: 64,
  seqLen: 32,
  learningRate: 3e-3,
  threads: 2,
  backend: 'wasm',
};

let report: TrainTransformerReport;
const logged: string[] = [];

beforeAll(async () => {
  writeCorpus();
  report = await trainTransformer({
    ...TINY,
    corpus: [corpus],
    out,
    epochs: 4,
    patience: 4,
    log: (l) => logged.push(l),
  });
}, 120_000);

describe('trainTransformer on a tiny corpus', () => {
  it('trains on decision labels, and the loss falls', () => {
    expect(report.labelSource).toBe('decision');
    const losses = report.training.history.map((h) => h.trainLoss);
    expect(losses.at(-1)).toBeLessThan((losses[0] as number) * 0.8);
    expect(report.training.threads).toBe(2);
    expect(report.model.trimmedVocabulary).toBe(true);
  });

  it('exports an ONNX model whose logits match tfjs within 1e-4 on a padded batch', () => {
    expect(report.parity.ok).toBe(true);
    expect(report.parity.maxAbsDiff).toBeLessThan(1e-4);
  });

  it('writes the Hugging Face layout, metrics.json, and ends with the table and a Load with line', () => {
    for (const file of [
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model.onnx',
      'model.safetensors',
      'metrics.json',
    ]) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as TrainTransformerReport;
    expect(metrics.evaluation.map((r) => `${r.model}/${r.labels}`)).toEqual(
      expect.arrayContaining([
        'salience/salience',
        'logistic (lines, salience-distilled)/decision',
        'transformer/decision',
      ]),
    );
    expect(logged.some((l) => l.startsWith('model ') && l.includes('F1'))).toBe(true);
    expect(logged.at(-1)).toMatch(/^Load with: TransformerKeepModel\.fromPretrained\(/);
  });

  it('scores lines through the codec’s TransformerKeepModel', async () => {
    const model = await TransformerKeepModel.fromPretrained(out, { intraOpThreads: 1 });
    try {
      const [error, noise] = await model.scoreLines(
        ['ERROR billing failed: connection refused to db-77:5432', 'DEBUG heartbeat ok seq=12'],
        'log',
      );
      expect(error).toBeGreaterThan(noise as number);
      expect((await model.scoreLines(['DECISION: roll back'], 'log'))[0]).toBe(1);
    } finally {
      await model.release();
    }
  }, 30_000);

  it('loads offline in transformers.js as a token-classification pipeline', async () => {
    env.allowRemoteModels = false;
    env.localModelPath = root;
    const classify = await pipeline('token-classification', 'model');
    const tokens = (await classify('ERROR auth failed: connection refused', { ignore_labels: [] })) as {
      entity: string;
    }[];
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((t) => t.entity === 'O' || t.entity === 'KEEP')).toBe(true);
    await classify.dispose();
  }, 30_000);

  it('fine-tunes further from its own output folder with --base', async () => {
    const again = await trainTransformer({
      corpus: [corpus],
      out: join(root, 'again'),
      base: out,
      epochs: 1,
      threads: 1,
      backend: 'wasm',
      seqLen: 32,
    });
    expect(again.model.base).toBe(out);
    expect(again.parity.ok).toBe(true);
  }, 60_000);
});

describe('bad input', () => {
  const run = (options: Partial<TrainTransformerOptions>) =>
    trainTransformer({
      ...TINY,
      corpus: [corpus],
      out: join(root, 'unused'),
      epochs: 1,
      threads: 1,
      ...options,
    });

  it('names a missing, non-folder or empty corpus', async () => {
    await expect(run({ corpus: [join(root, 'nope')] })).rejects.toThrow(
      `corpus folder not found: ${join(root, 'nope')}`,
    );
    await expect(run({ corpus: [join(corpus, 'labels.jsonl')] })).rejects.toThrow('corpus is not a folder');
    mkdirSync(join(root, 'empty'));
    await expect(run({ corpus: [join(root, 'empty')] })).rejects.toThrow(/holds no text/);
  });

  it('says which kind is missing and which kinds there are', async () => {
    await expect(run({ kinds: ['diff'] })).rejects.toThrow(
      /no lines of kind diff \(it has: log, tool_output\)/,
    );
  });

  it('names the labels file line that does not fit its file', async () => {
    const bad = join(root, 'badlabels');
    mkdirSync(bad);
    writeFileSync(join(bad, 'a.log'), 'one\ntwo\n');
    writeFileSync(join(bad, 'labels.jsonl'), `${JSON.stringify({ file: 'a.log', keep: [5] })}\n`);
    await expect(run({ corpus: [bad] })).rejects.toThrow(
      /labels\.jsonl line 1: keep line 5 is past the end of a\.log/,
    );
  });

  it('names the tensor and the shapes when a --base folder does not fit its config.json', async () => {
    const base = join(root, 'wrong-base');
    mkdirSync(base);
    for (const file of ['model.safetensors', 'vocab.txt'])
      writeFileSync(join(base, file), readFileSync(join(out, file)));
    const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(base, 'config.json'), JSON.stringify({ ...config, intermediate_size: 48 }));
    await expect(
      run({ base, layers: undefined, hidden: undefined, heads: undefined, intermediate: undefined }),
    ).rejects.toThrow(
      /tensor bert\.encoder\.layer\.0\.intermediate\.dense\.weight has shape \[64, 32\], but .*config\.json implies \[48, 32\]/,
    );
  });
});
