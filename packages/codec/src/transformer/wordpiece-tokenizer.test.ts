import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bertTokenizerJson, tinyVocab } from './tiny-model.test-helper.js';
import { WordPieceTokenizerJson } from './tokenizer-json.js';
import { WordPieceTokenizer } from './wordpiece-tokenizer.js';

const vocab = [...tinyVocab(), 'cafe', 'naive', '错', '误', '##é'];
const json = bertTokenizerJson(vocab);
const ours = new WordPieceTokenizer(WordPieceTokenizerJson.parse(json));
const reference = new Tokenizer(json, { tokenizer_class: 'BertTokenizer', do_lower_case: true });

const referenceIds = (line: string): number[] => reference.encode(line).ids;

describe('WordPieceTokenizer', () => {
  it('encodes like @huggingface/tokenizers on crafted lines', () => {
    for (const line of [
      '',
      '   ',
      'ERROR: disk at 94% capacity',
      'Tests:  1 failed, 41 passed',
      'tests failed; exit code 2',
      '[CLS] literal specials [SEP] and [MASK]s',
      'a[SEP]b',
      'tab\tseparated\r\nlines\u000bvertical\u000cfeed',
      'null\u0000byte and bell\u0007 and del\u007f',
      'Café Naïve ÉCOLE',
      '错误 error 錯',
      'emoji 🚀 launch 👍',
      `${'x'.repeat(101)} ${'y'.repeat(100)}`,
      '   leading and trailing   ',
      'zero\u200bwidth and nbsp\u00a0space',
      '½ ² ℃ № ™',
      'DECISION: ship-it!!! (really?)',
    ]) {
      expect(ours.encode(line), JSON.stringify(line)).toEqual(referenceIds(line));
    }
  });

  it('encodes like @huggingface/tokenizers on arbitrary text', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '[CLS]',
        '[SEP]',
        '[UNK]',
        'error',
        'Failed',
        'TESTS',
        ' ',
        '\t',
        '\u0001',
        'é',
        '错',
        '##',
      ),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const line = parts.join('');
        expect(ours.encode(line)).toEqual(referenceIds(line));
      }),
      { numRuns: 2000 },
    );
  });

  it('truncates to the sequence length, keeping the specials', () => {
    const full = ours.encode('abc def ghi jkl');
    const cut = ours.encode('abc def ghi jkl', 5);
    expect(cut).toHaveLength(5);
    expect(cut).toEqual([...full.slice(0, 4), full[full.length - 1]]);
    const out: number[] = [9];
    expect(ours.encodeContent('abc def', out, 2)).toBe(2);
    expect(out).toEqual([9, ...full.slice(1, 3)]);
  });

  it('refuses a tokenizer that is not BERT WordPiece, naming the field', () => {
    const bpe = { ...json, model: { type: 'BPE', vocab: {}, merges: [] } };
    const result = WordPieceTokenizerJson.safeParse(bpe);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain('model.type');
    const noUnk = { ...json, model: { ...(json['model'] as object), unk_token: '[NOPE]' } };
    expect(() => new WordPieceTokenizer(WordPieceTokenizerJson.parse(noUnk))).toThrow(/unk_token/);
  });
});
