import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrainingCorpus } from './training-corpus.js';

describe('readTrainingCorpus', () => {
  it('reads text files recursively in sorted order, skipping hidden and binary files', () => {
    const root = mkdtempSync(join(tmpdir(), 'distil-corpus-'));
    mkdirSync(join(root, 'b', 'deep'), { recursive: true });
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'b', 'deep', 'z.log'), 'deep one\r\ndeep two\n');
    writeFileSync(join(root, 'a.txt'), 'first\rsecond');
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    writeFileSync(join(root, 'empty.txt'), '');
    const corpus = readTrainingCorpus(root);
    expect(corpus.files).toEqual(['a.txt', join('b', 'deep', 'z.log')]);
    expect(corpus.lines).toEqual(['first', 'second', 'deep one', 'deep two']);
  });

  it('names the path of a missing, non-folder or empty corpus', () => {
    const root = mkdtempSync(join(tmpdir(), 'distil-corpus-'));
    expect(() => readTrainingCorpus(join(root, 'missing'))).toThrow(
      `corpus folder not found: ${join(root, 'missing')}`,
    );
    writeFileSync(join(root, 'file.txt'), 'x');
    expect(() => readTrainingCorpus(join(root, 'file.txt'))).toThrow(
      `corpus is not a folder: ${join(root, 'file.txt')}`,
    );
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(() => readTrainingCorpus(empty)).toThrow(`corpus folder holds no text files: ${empty}`);
  });
});
