import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { BLOCK_FEATURE_COUNT } from './block-features.js';
import { LogisticKeepModel } from './logistic-keep-model.js';
import { isHeldOut, trainLogisticKeepModel } from './logistic-trainer.js';
import { formatLogisticWeights, readLogisticWeights, SHIPPED_LOGISTIC_WEIGHTS } from './logistic-weights.js';

/** A deterministic synthetic build log: errors, verdicts, key: value lines, debug noise and prose. */
function syntheticLog(n: number): string[] {
  const lines: string[] = [];
  const words = ['cache', 'worker', 'module', 'request', 'index', 'bundle', 'schema', 'client'];
  for (let i = 0; i < n; i++) {
    const w = words[i % words.length]!;
    const v = (i * 7919) % 1000;
    switch (i % 10) {
      case 0:
        lines.push(`ERROR ${w} failed after ${v} ms`);
        break;
      case 1:
        lines.push(`DEBUG ${w} state=${v} tick`);
        break;
      case 2:
        lines.push(`  ${w}_count: ${v}`);
        break;
      case 3:
        lines.push(`Downloading ${w}-${v}.tar.gz (${v} kB)`);
        break;
      case 4:
        lines.push(`${v} passed, ${v % 7} failed in ${v / 100}s`);
        break;
      case 5:
        lines.push(`| ${w} | ${v} | ok |`);
        break;
      case 6:
        lines.push('');
        break;
      default:
        lines.push(`building the ${w} for target number ${v}`);
    }
  }
  return lines;
}

describe('trainLogisticKeepModel', () => {
  const lines = syntheticLog(4000);

  it('converges: the loss falls and the held-out split agrees with the salience labels', () => {
    const { weights, losses } = trainLogisticKeepModel(lines);
    expect(losses[0]).toBeCloseTo(Math.LN2, 6);
    expect(losses[losses.length - 1]!).toBeLessThan(0.2);
    for (let i = 1; i < losses.length; i++) expect(losses[i]!).toBeLessThanOrEqual(losses[i - 1]! + 1e-12);
    const t = weights.training!;
    expect(t.epochs).toBe(400);
    expect(t.l2).toBe(1e-4);
    expect(t.labelThreshold).toBe(0.6);
    expect(t.test.lines).toBeGreaterThan(0);
    expect(t.test.accuracy).toBeGreaterThan(0.95);
    expect(t.test.f1).toBeGreaterThan(0.9);
  });

  it('is deterministic: the same lines give the same weights file, byte for byte', () => {
    const a = formatLogisticWeights(trainLogisticKeepModel(lines, { epochs: 50 }).weights);
    const b = formatLogisticWeights(trainLogisticKeepModel([...lines], { epochs: 50 }).weights);
    expect(a).toBe(b);
  });

  it('splits by SHA-256 of the line: stable, about the requested share, duplicates together', () => {
    expect(isHeldOut('ERROR boom', 0.2)).toBe(isHeldOut('ERROR boom', 0.2));
    const distinct = [...new Set(lines)];
    const held = distinct.filter((line) => isHeldOut(line, 0.2)).length / distinct.length;
    expect(held).toBeGreaterThan(0.1);
    expect(held).toBeLessThan(0.3);
    expect(distinct.every((line) => !isHeldOut(line, 0))).toBe(true);
  });

  it('rejects bad options and an empty corpus', () => {
    expect(() => trainLogisticKeepModel(lines, { epochs: 0 })).toThrow(/epochs/);
    expect(() => trainLogisticKeepModel(lines, { testFraction: 1 })).toThrow(/testFraction/);
    expect(() => trainLogisticKeepModel([])).toThrow(/no training lines/);
  });

  it('trains a model that scores like the rules it was distilled from', async () => {
    const model = new LogisticKeepModel(trainLogisticKeepModel(lines).weights);
    const [error, debug, decision] = await model.scoreLines(
      ['ERROR cache failed after 12 ms', 'DEBUG worker state=1 tick', 'DECISION: retry'],
      'log',
    );
    expect(error).toBeGreaterThan(0.6);
    expect(debug).toBeLessThan(0.4);
    expect(decision).toBe(1);
    expect(model.id).toMatch(/^logistic:[0-9a-f]{12}$/);
  });
});

describe('logistic weights files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'distil-weights-'));

  it('ship inside the package and load by default', async () => {
    const shipped = readLogisticWeights();
    expect(shipped.version).toBe(4);
    expect(shipped.weights).toHaveLength(BLOCK_FEATURE_COUNT);
    expect(shipped.version === 4 && shipped.provenance?.heldOut.folds).toBe(5);
    expect(SHIPPED_LOGISTIC_WEIGHTS).toMatch(/codec[/\\]weights[/\\]logistic\.json$/);
    const model = LogisticKeepModel.load();
    expect(model.wholeBlock).toBe(true);
    const block = [
      ...Array.from({ length: 40 }, (_, i) => `${(i * 7919).toString(16)} ${i}.${i % 10}s`),
      'parseConfig throws when the config file names an unknown plugin',
    ];
    const plain = await model.scoreLines(block, 'log');
    const told = await model.scoreLines(block, 'log', { task: 'why does parseConfig throw?' });
    // a sentence outscores hashes and timings, and more so when it names what the task is about
    expect(plain[40]!).toBeGreaterThan(Math.max(...plain.slice(0, 40)));
    expect(told[40]!).toBeGreaterThan(plain[40]!);
    expect(await model.score('DECISION: ship it', 'log')).toBe(1);
  });

  it('name the path when missing and every bad field when malformed', () => {
    expect(() => readLogisticWeights(join(dir, 'nope.json'))).toThrow(
      `logistic weights not found: ${join(dir, 'nope.json')}`,
    );
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{ nope');
    expect(() => readLogisticWeights(notJson)).toThrow(/not valid JSON/);
    const wrong = join(dir, 'wrong.json');
    writeFileSync(
      wrong,
      JSON.stringify({
        format: 'distil-logistic-keep-model',
        version: 1,
        features: ['bias'],
        weights: [1, 2],
      }),
    );
    try {
      readLogisticWeights(wrong);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      const paths = (error as ValidationError).issues.map((i) => i.path);
      expect(paths).toEqual(expect.arrayContaining(['features', 'weights']));
      expect((error as Error).message).toContain(wrong);
    }
  });

  it('round-trip through formatLogisticWeights', () => {
    const { weights } = trainLogisticKeepModel(syntheticLog(500), { epochs: 5 });
    const file = join(dir, 'round.json');
    writeFileSync(file, formatLogisticWeights(weights));
    expect(readLogisticWeights(file)).toEqual(weights);
  });
});
