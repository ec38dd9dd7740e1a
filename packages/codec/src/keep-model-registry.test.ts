import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ValidationError } from '@distil/contract';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TRANSFORMER_MODEL,
  KEEP_MODEL_NAMES,
  KEEP_MODELS,
  keepModelConfigFromFlag,
  loadKeepModel,
} from './keep-model-registry.js';
import { LogisticKeepModel } from './logistic-keep-model.js';
import { SalienceKeepModel } from './salience-keep-model.js';
import { writeBertModelFolder } from './transformer/tiny-model.test-helper.js';

const root = mkdtempSync(join(tmpdir(), 'distil-registry-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('KEEP_MODELS', () => {
  it('is a frozen table of salience, logistic and transformer', () => {
    expect(Object.isFrozen(KEEP_MODELS)).toBe(true);
    expect(KEEP_MODEL_NAMES).toEqual(['salience', 'logistic', 'transformer']);
    for (const name of KEEP_MODEL_NAMES) expect(KEEP_MODELS[name].description.length).toBeGreaterThan(0);
  });

  it('defaults the transformer to the demo checkpoint shipped in the package', () => {
    expect(DEFAULT_TRANSFORMER_MODEL).toMatch(/codec[/\\]models[/\\]keep-transformer$/);
  });
});

describe('loadKeepModel', () => {
  it('loads each configured model', async () => {
    expect(await loadKeepModel({ type: 'salience' })).toBeInstanceOf(SalienceKeepModel);
    const logistic = await loadKeepModel({ type: 'logistic' });
    expect(logistic).toBeInstanceOf(LogisticKeepModel);
    expect(await logistic.score('DECISION: go', 'log')).toBe(1);
    const folder = writeBertModelFolder(join(root, 'model')).folder;
    const transformer = await loadKeepModel({ type: 'transformer', model: folder });
    expect(transformer.id).toMatch(/^transformer:/);
    const scores = await transformer.scoreLines(['ERROR: x', 'DECISION: y'], 'log');
    expect(scores[1]).toBe(1);
    await (transformer as unknown as { release(): Promise<void> }).release();
  });

  it('fails with a message naming the missing path, never a silent swap', async () => {
    const missing = join(root, 'nowhere.json');
    await expect(loadKeepModel({ type: 'logistic', weights: missing })).rejects.toThrow(missing);
    const folder = join(root, 'no-model');
    await expect(loadKeepModel({ type: 'transformer', model: folder })).rejects.toThrow(folder);
  });

  it('loads the repository demo checkpoint when no folder is configured, or names its path', async () => {
    if (existsSync(DEFAULT_TRANSFORMER_MODEL)) {
      const model = await loadKeepModel({ type: 'transformer' });
      expect(model.id).toMatch(/^transformer:/);
      await (model as unknown as { release(): Promise<void> }).release();
    } else {
      await expect(loadKeepModel({ type: 'transformer' })).rejects.toThrow(DEFAULT_TRANSFORMER_MODEL);
    }
  });

  it('falls back to salience with a logged reason when the config asks for it', async () => {
    const messages: string[] = [];
    const folder = join(root, 'absent-model');
    const model = await loadKeepModel({ type: 'transformer', model: folder, fallback: 'salience' }, (m) =>
      messages.push(m),
    );
    expect(model).toBeInstanceOf(SalienceKeepModel);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('transformer');
    expect(messages[0]).toContain(folder);

    const broken = join(root, 'broken.json');
    writeFileSync(broken, '[]');
    const fallback = await loadKeepModel({ type: 'logistic', weights: broken, fallback: 'salience' }, (m) =>
      messages.push(m),
    );
    expect(fallback.id).toBe('salience');
    expect(messages[1]).toContain(broken);
  });
});

describe('keepModelConfigFromFlag', () => {
  it('maps a model name to its config', () => {
    expect(keepModelConfigFromFlag('salience')).toEqual({ type: 'salience' });
    expect(keepModelConfigFromFlag('logistic')).toEqual({ type: 'logistic' });
    expect(keepModelConfigFromFlag('transformer')).toEqual({ type: 'transformer' });
  });

  it('rejects an unknown name, listing the valid ones', () => {
    expect(() => keepModelConfigFromFlag('bert')).toThrow(ValidationError);
    expect(() => keepModelConfigFromFlag('bert')).toThrow(/salience \| logistic \| transformer, got "bert"/);
    expect(() => keepModelConfigFromFlag('toString')).toThrow(ValidationError);
  });
});

describe('the main entry', () => {
  it('never loads onnxruntime', () => {
    const entry = pathToFileURL(fileURLToPath(new URL('./index.ts', import.meta.url))).href;
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const script = [
      `const codec = await import(${JSON.stringify(entry)});`,
      `await codec.loadKeepModel({ type: 'logistic' });`,
      `const { createRequire } = await import('node:module');`,
      `const loaded = Object.keys(createRequire(import.meta.url).cache);`,
      `console.log(JSON.stringify(loaded.filter((p) => p.includes('onnxruntime'))));`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
