import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DistilConfig, parseOrThrow, ValidationError } from '@distil/contract';

/** Where a config came from: a file, or the built-in defaults when no file exists. */
export interface LoadedConfig {
  readonly config: DistilConfig;
  readonly source: string | null;
}

/** The config file used when none is given: `./distil.config.json` in the working directory. */
export const DEFAULT_CONFIG_FILE = 'distil.config.json';

/**
 * Loads the config: `file` when given (it must exist), else `./distil.config.json` when present, else
 * defaults. Throws ValidationError naming every bad field.
 */
export function loadConfig(file: string | undefined, cwd: string = process.cwd()): LoadedConfig {
  const path = file ? resolve(cwd, file) : resolve(cwd, DEFAULT_CONFIG_FILE);
  if (!existsSync(path)) {
    if (file) throw new ValidationError('config', [{ path: '(file)', message: `no such file: ${path}` }]);
    return { config: DistilConfig.parse({}), source: null };
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`config ${path}`, [{ path: '(file)', message: `not valid JSON: ${reason}` }]);
  }
  return { config: parseOrThrow(DistilConfig, json, `config ${path}`), source: path };
}
