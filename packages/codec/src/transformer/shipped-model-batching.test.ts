import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordPieceTokenizerJson } from './tokenizer-json.js';
import { TransformerKeepModel } from './transformer-keep-model.js';
import { WordPieceTokenizer } from './wordpiece-tokenizer.js';

// The checkpoint the package ships: batching, padding and reused feeds must not move its scores.
const FOLDER = fileURLToPath(new URL('../../models/keep-transformer', import.meta.url));

/** Lines of the shapes tool outputs have: short and long (past the 64-token limit), blank, non-ASCII. */
const POOL = [
  'ERROR: connection refused (attempt 3 of 5)',
  '  at Object.<anonymous> (/app/src/handler.js:12:7)',
  '',
  'tests passed',
  '===== 12 passed, 1 failed in 3.41s =====',
  'Downloading numpy-2.1.0-cp312-cp312-manylinux_2_17_x86_64.whl (16.3 MB)',
  'Café naïve 错误 — résumé',
  'x',
  Array.from({ length: 90 }, (_, i) => `word${i}`).join(' '),
  'src/pipeline/compress-block.ts:41:9 - error TS2345: Argument of type string is not assignable',
  'DECISION: keep the retry loop',
  '{"level":"warn","msg":"slow request","ms":812}',
];

let model: TransformerKeepModel;
let raw: ort.InferenceSession;
let tokenizer: WordPieceTokenizer;
/** Each pool line scored alone, unpadded, straight through onnxruntime. */
let alone: number[];

/**
 * The one-line reference, written without the model's batching, feeds or score reader: [CLS] line [SEP]
 * truncated to the model's length, run as a [1, n] batch, softmax per token, mean of the top 3.
 */
async function scoreAlone(line: string): Promise<number> {
  if (line.includes('DECISION:')) return 1;
  const ids = tokenizer.encode(line, model.maxTokens);
  const content = ids.length - tokenizer.specialCount;
  const dims = [1, ids.length];
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), dims),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), dims),
  };
  if (raw.inputNames.includes('token_type_ids')) {
    feeds['token_type_ids'] = new ort.Tensor('int64', new BigInt64Array(ids.length), dims);
  }
  const logits = (await raw.run(feeds))['logits']!.data as Float32Array;
  const from = content > 0 ? tokenizer.prefix.length : 0;
  const to = content > 0 ? from + content : ids.length;
  const keep: number[] = [];
  for (let t = from; t < to; t++) keep.push(1 / (1 + Math.exp(logits[2 * t]! - logits[2 * t + 1]!)));
  const top = keep.sort((a, b) => b - a).slice(0, 3);
  return top.reduce((s, p) => s + p, 0) / top.length;
}

beforeAll(async () => {
  model = await TransformerKeepModel.fromPretrained(FOLDER);
  raw = await ort.InferenceSession.create(readFileSync(`${FOLDER}/onnx/model.onnx`), {
    intraOpNumThreads: 1,
  });
  tokenizer = new WordPieceTokenizer(
    WordPieceTokenizerJson.parse(JSON.parse(readFileSync(`${FOLDER}/tokenizer.json`, 'utf8'))),
  );
  alone = [];
  for (const line of POOL) alone.push(await scoreAlone(line));
});

afterAll(async () => {
  await model?.release();
  await raw?.release();
});

describe('the shipped transformer, batched against one line at a time', () => {
  it('scores the pool in one call as each line alone scores (within 1e-5)', async () => {
    const scores = await model.scoreLines(POOL, 'tool_output');
    POOL.forEach((line, i) => {
      expect(Math.abs(scores[i]! - alone[i]!), line).toBeLessThan(1e-5);
    });
    // The model decides, not a constant: the pool spreads over several scores.
    expect(new Set(alone.map((s) => s.toFixed(3))).size).toBeGreaterThan(5);
  });

  it('keeps every score, whatever the order, the repeats and the batch limits', async () => {
    const limited = await Promise.all(
      [{ rows: 1 }, { rows: 3, tokens: 96 }, { tokens: 4096 }].map((batch) =>
        TransformerKeepModel.fromPretrained(FOLDER, { batch, intraOpThreads: 1 }),
      ),
    );
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.nat(POOL.length - 1), { minLength: 1, maxLength: 30 }),
          fc.nat(limited.length - 1),
          async (picks, m) => {
            const scores = await limited[m]!.scoreLines(
              picks.map((p) => POOL[p]!),
              'tool_output',
            );
            picks.forEach((p, i) => {
              expect(Math.abs(scores[i]! - alone[p]!)).toBeLessThan(1e-5);
            });
          },
        ),
        { numRuns: 25 },
      );
    } finally {
      await Promise.all(limited.map((m) => m.release()));
    }
  });

  it('runs each distinct line once, in batches padded only to their own longest line', () => {
    const lines = [...POOL, ...POOL];
    const batches = model.batchesOf(lines);
    const rows = batches.reduce((s, b) => s + b.rows, 0);
    expect(rows).toBe(POOL.length - 1); // every distinct line but the DECISION one
    for (const b of batches) {
      expect(b.width).toBeLessThanOrEqual(model.maxTokens);
      expect(b.inputIds).toHaveLength(b.rows * b.width);
      // Some row fills the batch's width: no column is padding for every row.
      let longest = 0;
      for (let r = 0; r < b.rows; r++) {
        let n = 0;
        for (let k = 0; k < b.width; k++) n += Number(b.attentionMask[r * b.width + k]);
        longest = Math.max(longest, n);
      }
      expect(longest).toBe(b.width);
    }
  });
});
