import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import {
  type BlockLogisticWeights,
  type BlockTrainingResult,
  formatLogisticWeights,
  type LabelledBlock,
  trainBlockLogistic,
} from '@distil/codec';
import type { ContentKind, KeepContext } from '@distil/contract';
import { detectKind } from '@distil/core';
import { importSessions, labelledOutputs, type RecordedSession } from '@distil/savings';
import { formatTable } from '../table.js';

/** The label the block model learns, as the weights file records it. */
export const NEEDED_LABEL =
  'needed: the line shares a token [A-Za-z0-9_./:-]{4,} with an assistant text or tool input written after it was read (labelledOutputs, @distil/savings)';

/** What one session-trained run wrote and measured. */
export interface SessionTrainRun {
  readonly out: string;
  readonly weights: BlockLogisticWeights;
  readonly result: BlockTrainingResult;
}

/** The recorded agent sessions of a folder, or none when it holds no session log Distil reads. */
export function sessionsIn(folder: string): RecordedSession[] {
  return importSessions([folder]).sessions;
}

/**
 * Trains the block logistic model on recorded sessions: each tool output of two or more lines, labelled
 * by what the agent wrote afterwards, with the task, the call's input and the agent's earlier text as
 * its context; held-out figures by session. Writes the weights with their provenance: the sessions by
 * source, the files (relative to the corpus), `licence`, the label, the date, the held-out figures.
 */
export async function runSessionTrain(options: {
  readonly corpus: string;
  readonly corpusLabel: string;
  readonly sessions: readonly RecordedSession[];
  readonly out: string;
  /** L2 penalty; when left out, the one that removes most held out (trainBlockLogistic). */
  readonly l2?: number;
  readonly licence: string;
  readonly today?: Date;
}): Promise<SessionTrainRun> {
  const blocks: LabelledBlock[] = [];
  const bySource: Record<string, number> = {};
  const files = new Set<string>();
  for (const session of options.sessions) {
    bySource[session.source] = (bySource[session.source] ?? 0) + 1;
    files.add(relative(options.corpus, session.file));
    // a subagent's session id starts with its main session's: both go to the same fold
    const group = session.id.split('/')[0]!;
    for (const o of labelledOutputs(session)) {
      if (o.lines.length < 2) continue;
      blocks.push({
        lines: o.lines,
        needed: o.needed,
        group,
        context: { task: o.task, input: o.input, recent: [o.earlier] },
        writtenAfter: o.writtenAfter,
      });
    }
  }
  if (blocks.length === 0)
    throw new Error(`no tool output of two or more lines in the sessions of ${options.corpus}`);
  const result = trainBlockLogistic(blocks, options.l2 === undefined ? {} : { l2: options.l2 });
  const weights: BlockLogisticWeights = {
    ...result.weights,
    provenance: {
      corpus: options.corpusLabel,
      sessions: bySource,
      files: [...files].sort(),
      licence: options.licence,
      label: NEEDED_LABEL,
      trainedOn: (options.today ?? new Date()).toISOString().slice(0, 10),
      outputs: blocks.length,
      lines: result.lines,
      neededShare: result.neededShare,
      l2: result.l2,
      picked: result.picked,
      heldOut: result.heldOut,
    },
  };
  try {
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, formatLogisticWeights(weights));
  } catch (error) {
    throw new Error(`cannot write weights to ${options.out}: ${(error as Error).message}`);
  }
  return { out: options.out, weights, result };
}

/** The report `distil train` prints for a sessions corpus. */
export function formatSessionTrainReport(run: SessionTrainRun): string {
  const p = run.weights.provenance!;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const sources = Object.entries(p.sessions)
    .map(([source, n]) => `${n} ${source}`)
    .join(', ');
  const header = [
    `corpus   ${p.corpus}: recorded sessions (${sources}); ${p.outputs} tool outputs, ${p.lines} lines, ${pct(p.neededShare)} needed`,
    `weights  ${run.out} (block model, ${run.weights.features.length} features and a hashed token prior, L2 ${p.l2}, cost exponent ${run.weights.costExponent})`,
    `labels   ${p.label}`,
    `held out ${p.heldOut.folds} folds ${p.heldOut.split}`,
    '',
  ].join('\n');
  return `${header}\n${formatTable(
    ['ROC-AUC', 'removed @99% recall', 'removed @95% recall', 'ceiling'],
    [
      [
        p.heldOut.rocAuc.toFixed(3),
        pct(p.heldOut.removedAt99),
        pct(p.heldOut.removedAt95),
        pct(p.heldOut.ceiling),
      ],
    ],
  )}\nremoved: share of tool-output characters removed, least likely needed first, while that share of the needed lines stays\n`;
}

/** One tool output of a recorded session, as `distil train-transformer` reads corpus documents. */
export interface SessionDocument {
  /** The session file, then `#<output id>`. */
  readonly source: string;
  readonly kind: ContentKind;
  readonly lines: readonly string[];
  /** 1 where the agent's later text or tool input names a token of the line (labelledOutputs). */
  readonly decision: Uint8Array;
  readonly decisionOrigin: 'session';
  /** The main session (a subagent goes with it), so that no session straddles train and test. */
  readonly group: string;
  /** The trusted context known before the output was read, as the proxy hands it to a keep model. */
  readonly context: KeepContext;
}

/**
 * Every tool output of two or more lines of the sessions, labelled line by line by what the agent wrote
 * after reading it — the same labels and grouping as the block model's (runSessionTrain).
 */
export function sessionDocuments(corpus: string, sessions: readonly RecordedSession[]): SessionDocument[] {
  const out: SessionDocument[] = [];
  for (const session of sessions) {
    const group = session.id.split('/')[0]!;
    for (const o of labelledOutputs(session)) {
      if (o.lines.length < 2) continue;
      out.push({
        source: `${relative(corpus, session.file)}#${o.id}`,
        kind: detectKind(o.lines.join('\n')),
        lines: o.lines,
        decision: o.needed,
        decisionOrigin: 'session',
        group,
        context: { task: o.task, input: o.input, recent: [o.earlier] },
      });
    }
  }
  return out;
}
