import { readFileSync } from 'node:fs';

/** Input read from a file or stdin: the raw bytes, and the text when they are valid UTF-8. */
export interface Input {
  readonly bytes: Uint8Array;
  readonly text: string | null;
  readonly name: string;
}

/** Reads FILE, or stdin for `-` or no argument. A missing file is an error naming the path. */
export function readInput(file: string | undefined): Input {
  const name = file === undefined || file === '-' ? '<stdin>' : file;
  let bytes: Uint8Array;
  try {
    bytes = name === '<stdin>' ? readFileSync(0) : readFileSync(file as string);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`no such file: ${name}`);
    if (code === 'EISDIR') throw new Error(`${name} is a folder, not a file`);
    throw new Error(`cannot read ${name}: ${(error as Error).message}`);
  }
  let text: string | null;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = null;
  }
  return { bytes, text, name };
}
