import { createHash } from 'node:crypto';
import { salienceOf } from '@distil/codec';
import type { ContentKind } from '@distil/contract';
import type { DecisionOrigin, TraceCorpus } from './trace-corpus.js';

/** Which split a line belongs to. */
export type Split = 'train' | 'dev' | 'test';

/** Where a label comes from: the salience rules (distilled) or what the agent did next. */
export type LabelSource = 'salience' | 'decision';
export const LABEL_SOURCES: readonly LabelSource[] = Object.freeze(['salience', 'decision']);

/** Salience labels: keep when the rules score a line at least this (the spec's distillation threshold). */
export const SALIENCE_KEEP_THRESHOLD = 0.6;
/** Share of the hash range held out for testing: the same lines the codec's logistic trainer holds out. */
export const TEST_FRACTION = 0.2;
/** Share of the hash range after the test split used for early stopping. */
export const DEV_FRACTION = 0.1;

/** One corpus line with both labels (the decision label only where the corpus provides one). */
export interface LabelledLine {
  readonly text: string;
  readonly kind: ContentKind;
  readonly source: string;
  readonly split: Split;
  readonly salience: 0 | 1;
  readonly decision?: 0 | 1;
  readonly decisionOrigin?: DecisionOrigin;
}

/**
 * The split of a line (or of a session, by its id) from the first 32 bits of the SHA-256 of its text, read as a fraction: below 0.2 is
 * test (exactly the codec's `isHeldOut(line, 0.2)`), below 0.3 dev, the rest train. Reproducible on any
 * machine with no seed, and a repeated line never straddles two splits.
 */
export function splitOf(line: string): Split {
  const u = createHash('sha256').update(line, 'utf8').digest().readUInt32BE(0) / 0x1_0000_0000;
  if (u < TEST_FRACTION) return 'test';
  return u < TEST_FRACTION + DEV_FRACTION ? 'dev' : 'train';
}

/**
 * Every non-blank line of the corpus with its split (by session for a document that came from one, see
 * TraceDocument.group), its salience label and, where the corpus says what the
 * agent did next, its decision label. Blank lines are left out: every model scores them ~0 and they
 * would only inflate accuracy.
 */
export function labelCorpusLines(corpus: TraceCorpus): LabelledLine[] {
  const out: LabelledLine[] = [];
  for (const doc of corpus.documents) {
    doc.lines.forEach((text, i) => {
      if (text.trim() === '') return;
      const decision = doc.decision ? ((doc.decision[i] ? 1 : 0) as 0 | 1) : undefined;
      out.push({
        text,
        kind: doc.kind,
        source: doc.source,
        split: splitOf(doc.group ?? text),
        salience: salienceOf(text) >= SALIENCE_KEEP_THRESHOLD ? 1 : 0,
        ...(decision === undefined ? {} : { decision, decisionOrigin: doc.decisionOrigin as DecisionOrigin }),
      });
    });
  }
  return out;
}

/** The label of a line under a source, or undefined when that source does not cover it. */
export function labelOf(line: LabelledLine, source: LabelSource): 0 | 1 | undefined {
  return source === 'salience' ? line.salience : line.decision;
}

/** How far the two label sources agree on the lines both cover (Cohen's kappa corrects for chance). */
export interface LabelAgreement {
  readonly lines: number;
  readonly bothKeep: number;
  readonly salienceOnly: number;
  readonly decisionOnly: number;
  readonly neither: number;
  readonly agreement: number;
  readonly kappa: number;
}

/** Agreement between salience and decision labels (Cohen 1960). */
export function labelAgreement(lines: readonly LabelledLine[]): LabelAgreement {
  let bothKeep = 0;
  let salienceOnly = 0;
  let decisionOnly = 0;
  let neither = 0;
  for (const line of lines) {
    if (line.decision === undefined) continue;
    if (line.salience && line.decision) bothKeep++;
    else if (line.salience) salienceOnly++;
    else if (line.decision) decisionOnly++;
    else neither++;
  }
  const n = bothKeep + salienceOnly + decisionOnly + neither;
  const agreement = n === 0 ? Number.NaN : (bothKeep + neither) / n;
  const pSalience = (bothKeep + salienceOnly) / (n || 1);
  const pDecision = (bothKeep + decisionOnly) / (n || 1);
  const chance = pSalience * pDecision + (1 - pSalience) * (1 - pDecision);
  const kappa = n === 0 || chance === 1 ? Number.NaN : (agreement - chance) / (1 - chance);
  return { lines: n, bothKeep, salienceOnly, decisionOnly, neither, agreement, kappa };
}
