import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'distil-cli-'));

describe('distil (real binary)', () => {
  it('prints help and version', () => {
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: distil');
    expect(help.stdout).toContain('config');
    const version = runCli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('config check prints the resolved config of a good file', () => {
    const file = join(dir, 'good.json');
    writeFileSync(file, JSON.stringify({ keepModel: { type: 'logistic' }, tiers: { headLines: 4 } }));
    const run = runCli(['config', 'check', file]);
    expect(run.status).toBe(0);
    const config = JSON.parse(run.stdout);
    expect(config.keepModel).toEqual({ type: 'logistic' });
    expect(config.tiers).toMatchObject({ headLines: 4, tailLines: 12 });
    expect(run.stderr).toContain(file);
  });

  it('config check finds ./distil.config.json, or --config', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'distil-cwd-'));
    writeFileSync(join(cwd, 'distil.config.json'), JSON.stringify({ proxy: { port: 9999 } }));
    expect(JSON.parse(runCli(['config', 'check'], { cwd }).stdout).proxy.port).toBe(9999);
    writeFileSync(join(cwd, 'other.json'), JSON.stringify({ proxy: { port: 7777 } }));
    expect(JSON.parse(runCli(['--config', 'other.json', 'config', 'check'], { cwd }).stdout).proxy.port).toBe(
      7777,
    );
  });

  it('config check rejects a keep-model weights file or model folder that does not exist', () => {
    const weights = join(dir, 'weights-missing.json');
    const logistic = join(dir, 'missing-weights.json');
    writeFileSync(logistic, JSON.stringify({ keepModel: { type: 'logistic', weights } }));
    const run = runCli(['config', 'check', logistic]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`keepModel.weights: no such weights file: ${weights}`);

    const transformer = join(dir, 'missing-model.json');
    writeFileSync(
      transformer,
      JSON.stringify({ keepModel: { type: 'transformer', model: join(dir, 'nope') } }),
    );
    const folder = runCli(['config', 'check', transformer]);
    expect(folder.status).toBe(1);
    expect(folder.stderr).toContain('keepModel.model: no such model folder');
  });

  it('config check lists every error with its field path and exits 1', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ keepModel: { type: 'bert' }, restoreStore: { type: 'disk', maxBytes: -5 } }),
    );
    const run = runCli(['config', 'check', file]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('keepModel.type: expected type to be one of');
    expect(run.stderr).toContain('restoreStore.maxBytes: Too small');
  });

  it('config check explains a missing file and broken JSON', () => {
    const missing = runCli(['config', 'check', join(dir, 'nope.json')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no such file');
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "keepModel": ');
    const run = runCli(['config', 'check', broken]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('not valid JSON');
  });
});
