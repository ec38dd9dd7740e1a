import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The folder Distil keeps state in: `$DISTIL_HOME`, else `~/.distil`. */
export function distilHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env['DISTIL_HOME'];
  return configured && configured.length > 0 ? resolve(configured) : join(homedir(), '.distil');
}
