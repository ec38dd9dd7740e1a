import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '@distil/contract';
import { Tokenizer } from '@huggingface/tokenizers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceScore } from './bert-reference.test-helper.js';
import { type WrittenModel, writeBertModelFolder } from './tiny-model.test-helper.js';
import { TransformerKeepModel } from './transformer-keep-model.js';

const root = mkdtempSync(join(tmpdir(), 'distil-transformer-'));
let written: WrittenModel;
let model: TransformerKeepModel;
let reference: Tokenizer;

/** The reference ids: @huggingface/tokenizers, truncated the way a max_length would, [SEP] kept. */
function referenceIds(line: string, maxTokens: number): number[] {
  const ids = reference.encode(line).ids;
  return ids.length <= maxTokens ? ids : [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]!];
}

const LINES = [
  'ERROR: disk at 94% capacity',
  'tests passed',
  '',
  'DEBUG cache hit for key 12',
  'Café naïve 错误',
  'tests passed',
  'x',
  'a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 and more words past the limit',
  '| name | status |',
];

beforeAll(async () => {
  written = writeBertModelFolder(join(root, 'tiny'));
  reference = new Tokenizer(
    JSON.parse(readFileSync(join(written.folder, 'tokenizer.json'), 'utf8')),
    JSON.parse(readFileSync(join(written.folder, 'tokenizer_config.json'), 'utf8')),
  );
  model = await TransformerKeepModel.fromPretrained(written.folder);
  await model.warmUp();
});

afterAll(async () => {
  await model?.release();
  rmSync(root, { recursive: true, force: true });
});

describe('TransformerKeepModel on a real ONNX session', () => {
  it('reads its sequence length from the folder and names itself by the model hash', () => {
    expect(model.maxTokens).toBe(32);
    expect(model.id).toMatch(/^transformer:[0-9a-f]{12}$/);
  });

  it('scores every line as the mean of its top-3 token keep-probabilities, as a JS forward pass does', async () => {
    const scores = await model.scoreLines(LINES, 'tool_output');
    expect(scores).toBeInstanceOf(Float32Array);
    expect(scores).toHaveLength(LINES.length);
    LINES.forEach((line, i) => {
      const expected = referenceScore(written.weights, referenceIds(line, model.maxTokens));
      expect(scores[i], line).toBeCloseTo(expected, 5);
      expect(scores[i]).toBeGreaterThanOrEqual(0);
      expect(scores[i]).toBeLessThanOrEqual(1);
    });
    // Different lines get different scores: the model, not a constant, decides.
    expect(new Set(Array.from(scores).map((s) => s.toFixed(4))).size).toBeGreaterThan(5);
  });

  it('gives each line the same score alone, in a batch, or padded into tiny batches', async () => {
    const together = await model.scoreLines(LINES, 'log');
    const small = await TransformerKeepModel.fromPretrained(written.folder, {
      batch: { rows: 2, tokens: 40 },
    });
    try {
      const inSmallBatches = await small.scoreLines(LINES, 'log');
      for (let i = 0; i < LINES.length; i++) {
        expect(await model.score(LINES[i]!, 'log')).toBeCloseTo(together[i]!, 5);
        expect(inSmallBatches[i]).toBeCloseTo(together[i]!, 5);
      }
    } finally {
      await small.release();
    }
  });

  it('floors any line containing DECISION: at 1', async () => {
    const scores = await model.scoreLines(['noise', 'DECISION: roll back', 'more noise DECISION: x'], 'log');
    expect(scores[1]).toBe(1);
    expect(scores[2]).toBe(1);
    expect(scores[0]).toBeLessThan(1);
  });

  it('scores more distinct lines than one encoding window holds, each as it would alone', async () => {
    const many = Array.from({ length: 17_000 }, (_, i) => `n${i}`);
    const scores = await model.scoreLines(many, 'log');
    for (const i of [0, 9_999, 16_383, 16_384, 16_999]) {
      expect(scores[i], many[i]).toBeCloseTo(await model.score(many[i]!, 'log'), 5);
    }
  });

  it('scores an empty batch', async () => {
    expect(await model.scoreLines([], 'log')).toEqual(new Float32Array(0));
  });

  it('truncates to a shorter maxTokens when asked', async () => {
    const short = await TransformerKeepModel.fromPretrained(written.folder, {
      maxTokens: 6,
      intraOpThreads: 1,
    });
    try {
      const line = LINES[7]!;
      expect(await short.score(line, 'log')).toBeCloseTo(
        referenceScore(written.weights, referenceIds(line, 6)),
        5,
      );
    } finally {
      await short.release();
    }
  });
});

describe('TransformerKeepModel.fromPretrained errors', () => {
  it('names a missing folder', async () => {
    const missing = join(root, 'no-such-model');
    await expect(TransformerKeepModel.fromPretrained(missing)).rejects.toThrow(
      `transformer model folder not found: ${missing}`,
    );
  });

  it('names every missing file', async () => {
    const folder = writeBertModelFolder(join(root, 'partial')).folder;
    rmSync(join(folder, 'onnx', 'model.onnx'));
    rmSync(join(folder, 'tokenizer_config.json'));
    const error = await TransformerKeepModel.fromPretrained(folder).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(join(folder, 'onnx', 'model.onnx'));
    expect((error as Error).message).toContain(join(folder, 'tokenizer_config.json'));
    expect((error as Error).message).not.toContain(join(folder, 'config.json,'));
  });

  it('names a corrupt ONNX file', async () => {
    const folder = writeBertModelFolder(join(root, 'corrupt-onnx')).folder;
    writeFileSync(join(folder, 'onnx', 'model.onnx'), 'this is not a protobuf');
    await expect(TransformerKeepModel.fromPretrained(folder)).rejects.toThrow(
      `cannot load ONNX model ${join(folder, 'onnx', 'model.onnx')}`,
    );
  });

  it('names a corrupt JSON file and the bad field of a wrong one', async () => {
    const folder = writeBertModelFolder(join(root, 'corrupt-json')).folder;
    writeFileSync(join(folder, 'config.json'), '{ "model_type": ');
    await expect(TransformerKeepModel.fromPretrained(folder)).rejects.toThrow(join(folder, 'config.json'));

    const other = writeBertModelFolder(join(root, 'wrong-tokenizer')).folder;
    const tokenizer = JSON.parse(readFileSync(join(other, 'tokenizer.json'), 'utf8'));
    tokenizer.model.type = 'BPE';
    writeFileSync(join(other, 'tokenizer.json'), JSON.stringify(tokenizer));
    const error = await TransformerKeepModel.fromPretrained(other).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(join(other, 'tokenizer.json'));
    expect((error as ValidationError).issues.map((i) => i.path)).toContain('model.type');
  });
});
