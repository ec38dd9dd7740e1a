import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import type { ContentKind, KeepContext } from '@distil/contract';
import { detectTrajectoryFormat, importTrajectories } from '@distil/trajectories';
import { guessContentKind } from './content-kind-guess.js';
import {
  LINE_LABELS_FILE,
  looksLikeLineLabels,
  type RecordedKeepLines,
  readLineLabels,
} from './line-labels-file.js';
import { labelToolOutputs, splitLines } from './trajectory-lines.js';

/**
 * Where a document's decision-derived labels came from: a trajectory's next action, a labels file, or a
 * recorded agent session (a line is needed when the agent's later text or tool input names a token of it).
 */
export type DecisionOrigin = 'trajectory' | 'labels-file' | 'session';

/** One block of text from the corpus: a file, or one tool output of a trajectory. */
export interface TraceDocument {
  /** Corpus-relative path, plus `#<trajectory>#<turn>.<block>` for a tool output. */
  readonly source: string;
  readonly kind: ContentKind;
  readonly lines: readonly string[];
  /** Decision-derived keep labels per line, when the corpus says what the agent did next. */
  readonly decision?: Uint8Array;
  readonly decisionOrigin?: DecisionOrigin;
  /**
   * The session the document came from, when it came from one: its lines take their split from it, so
   * no session has lines on both sides of the evaluation (otherwise each line's split is its own).
   */
  readonly group?: string;
  /**
   * What was known before the output was read (the task, the call's input, what the agent wrote), for a
   * tool output of a recorded session: what the block keep model conditions on.
   */
  readonly context?: KeepContext;
  /**
   * For a text file: the 1-based `\n`-counted line each line came from. A labels file counts lines by
   * `\n`, while lines here (as in the compression core) also end at a lone `\r`, where progress bars redraw.
   */
  readonly recordLine?: Int32Array;
  /** For a text file: its number of `\n`-separated lines. */
  readonly recordLines?: number;
}

/** A corpus folder (or several) read into documents. */
export interface TraceCorpus {
  readonly roots: readonly string[];
  readonly documents: readonly TraceDocument[];
  readonly textFiles: number;
  readonly trajectoryFiles: number;
  readonly trajectories: number;
}

/** Extensions that may hold a trajectory (the contract's JSON, SWE-agent .traj, JSON Lines sessions). */
const TRAJECTORY_EXTENSIONS = new Set(['.traj', '.json', '.jsonl']);
/** A file whose first 8 KiB hold a NUL byte is binary and skipped, as git and grep decide. */
const BINARY_SNIFF_BYTES = 8192;

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
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) out.push(...listFiles(path));
    else if (stat?.isFile()) out.push(path);
  }
  return out;
}

function readText(path: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(`cannot read corpus file ${path}: ${(error as Error).message}`);
  }
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
  return bytes.toString('utf8');
}

function checkRoot(root: string): void {
  const stat = statSync(root, { throwIfNoEntry: false });
  if (!stat) throw new Error(`corpus folder not found: ${root}`);
  if (!stat.isDirectory()) throw new Error(`corpus is not a folder: ${root}`);
}

/** A text file's lines (split at `\r\n`, `\n` and lone `\r`) and the `\n`-counted line of each. */
function textDocument(source: string, path: string, text: string): TraceDocument {
  const records = splitLines(text, /\r?\n/);
  const lines: string[] = [];
  const recordLine: number[] = [];
  records.forEach((record, i) => {
    for (const part of record.split('\r')) {
      lines.push(part);
      recordLine.push(i + 1);
    }
  });
  return {
    source,
    kind: guessContentKind(path, lines),
    lines,
    recordLine: Int32Array.from(recordLine),
    recordLines: records.length,
  };
}

function applyRecordedLabels(documents: TraceDocument[], recorded: RecordedKeepLines): TraceDocument[] {
  return documents.map((doc) => {
    const entry = recorded.get(doc.source);
    if (!entry || doc.decision || !doc.recordLine) return doc;
    const count = doc.recordLines ?? doc.lines.length;
    if (entry.lines !== undefined && entry.lines !== count) {
      throw new Error(`${entry.at}: says ${doc.source} has ${entry.lines} lines, the file has ${count}`);
    }
    for (const n of entry.keep) {
      if (n > count)
        throw new Error(`${entry.at}: keep line ${n} is past the end of ${doc.source} (${count} lines)`);
    }
    const recordLine = doc.recordLine;
    const decision = Uint8Array.from(doc.lines, (_, i) => (entry.keep.has(recordLine[i] as number) ? 1 : 0));
    return { ...doc, decision, decisionOrigin: 'labels-file' as const };
  });
}

/**
 * Reads one or more corpus folders recursively (sorted, hidden entries and binary files skipped):
 * plain text and log files become one document each; trajectory files (the contract's JSON, SWE-agent
 * `.traj`, OpenHands and Claude Code `.jsonl`, via @distil/trajectories) give one document per tool
 * output, labelled by what the agent did next; a `labels.jsonl` adds recorded keep lines to the files it
 * names. Errors name the folder or file: missing, not a folder, unreadable, or holding no text at all.
 */
export function readTraceCorpus(
  roots: readonly string[],
  isCommonWord: (word: string) => boolean,
): TraceCorpus {
  if (roots.length === 0) throw new Error('no corpus folder given');
  const documents: TraceDocument[] = [];
  let textFiles = 0;
  let trajectoryFiles = 0;
  let trajectories = 0;
  for (const root of roots) {
    checkRoot(root);
    const recorded: RecordedKeepLines = new Map();
    const fromRoot: TraceDocument[] = [];
    for (const path of listFiles(root)) {
      const text = readText(path);
      if (text === undefined || text.length === 0) continue;
      const rel = relative(root, path);
      if (basename(path) === LINE_LABELS_FILE && looksLikeLineLabels(text)) {
        for (const [file, entry] of readLineLabels(path, root, text)) recorded.set(file, entry);
        continue;
      }
      if (TRAJECTORY_EXTENSIONS.has(extname(path).toLowerCase()) && detectTrajectoryFormat(text) !== null) {
        trajectoryFiles++;
        for (const trajectory of importTrajectories(text, rel)) {
          trajectories++;
          for (const output of labelToolOutputs(trajectory, isCommonWord)) {
            fromRoot.push({
              source: `${rel}#${output.source}`,
              kind: output.kind,
              lines: output.lines,
              decision: output.decision,
              decisionOrigin: 'trajectory',
            });
          }
        }
        continue;
      }
      textFiles++;
      fromRoot.push(textDocument(rel, path, text));
    }
    const missing = [...recorded.keys()].filter((file) => !fromRoot.some((d) => d.source === file));
    if (missing.length > 0) {
      throw new Error(
        `${recorded.get(missing[0] as string)?.at}: names ${missing[0]}, which is not in ${root}`,
      );
    }
    documents.push(...applyRecordedLabels(fromRoot, recorded));
  }
  if (!documents.some((d) => d.lines.some((line) => line.trim() !== ''))) {
    throw new Error(
      `corpus ${roots.join(', ')} holds no text: no text, log or trajectory files with any lines`,
    );
  }
  return { roots, documents, textFiles, trajectoryFiles, trajectories };
}
