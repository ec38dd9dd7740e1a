import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DistilConfig, FieldIssue } from '@distil/contract';

/**
 * The keep-model files a config names that are not there: a logistic `weights` file, a transformer
 * `model` folder. Checked by `distil config check` because at run time a missing file only shows as the
 * fallback to the salience rules — a config that names a model must fail where it is written.
 * Relative paths are read from the working folder, as the loader reads them.
 */
export function missingKeepModelFiles(config: DistilConfig, cwd = process.cwd()): FieldIssue[] {
  const keepModel = config.keepModel;
  if (keepModel.type === 'logistic' && keepModel.weights !== undefined) {
    const path = resolve(cwd, keepModel.weights);
    if (!existsSync(path) || !statSync(path).isFile())
      return [{ path: 'keepModel.weights', message: `no such weights file: ${path}` }];
  }
  if (keepModel.type === 'transformer' && keepModel.model !== undefined) {
    const path = resolve(cwd, keepModel.model);
    if (!existsSync(path) || !statSync(path).isDirectory())
      return [{ path: 'keepModel.model', message: `no such model folder: ${path}` }];
  }
  return [];
}
