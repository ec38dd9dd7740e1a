import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The lines of a folder of text and log files, with the files they came from. */
export interface TrainingCorpus {
  /** The folder that was read. */
  readonly root: string;
  /** Text files read, relative to `root`, in the order their lines appear. */
  readonly files: readonly string[];
  readonly lines: readonly string[];
}

/** A file is treated as binary (and skipped) when its first 8 KiB hold a NUL byte, as git and grep do. */
const BINARY_SNIFF_BYTES = 8192;

/** `\r\n`, lone `\r` (progress bars redraw with it) and `\n` all end a line. */
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Reads every text file under `root`, recursively, in sorted path order so a corpus always yields the same
 * lines in the same order (the trainer's determinism rests on it). Hidden entries (`.git`, `.DS_Store`) and
 * binary files are skipped. Throws an Error naming the path when the folder is missing, is not a folder,
 * cannot be read, or holds no text.
 */
export function readTrainingCorpus(root: string): TrainingCorpus {
  let rootStat: ReturnType<typeof statSync>;
  try {
    rootStat = statSync(root);
  } catch (error) {
    throw new Error(
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `corpus folder not found: ${root}`
        : `cannot read corpus folder ${root}: ${(error as Error).message}`,
    );
  }
  if (!rootStat.isDirectory()) throw new Error(`corpus is not a folder: ${root}`);
  const files: string[] = [];
  const lines: string[] = [];
  for (const file of listFiles(root)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      throw new Error(`cannot read corpus file ${file}: ${(error as Error).message}`);
    }
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) continue;
    const text = bytes.toString('utf8');
    if (text.length === 0) continue;
    files.push(relative(root, file));
    const fileLines = text.split(LINE_BREAK);
    // A final line break ends the last line; it does not start an empty one.
    if (fileLines.length > 1 && fileLines[fileLines.length - 1] === '') fileLines.pop();
    for (const line of fileLines) lines.push(line);
  }
  if (lines.length === 0) throw new Error(`corpus folder holds no text files: ${root}`);
  return { root, files, lines };
}

function listFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    throw new Error(`cannot read corpus folder ${dir}: ${(error as Error).message}`);
  }
  const out: string[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) out.push(...listFiles(path));
    else if (stat.isFile()) out.push(path);
  }
  return out;
}
