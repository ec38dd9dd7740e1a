import type { Block, Handle, KeepContext, KeepModel, RestoreStore } from '@distil/contract';
import { guardLines } from '../guard/guard-lines.js';
import { lineTable } from '../guard/line-table.js';
import { losslessEncode } from '../tier0/lossless.js';
import { isVerdictText } from '../tier1/verdicts.js';
import { analysisLines } from './analysis-lines.js';
import { splitSegments } from './lines.js';
import { splitEnvelope, type ToolEnvelope } from './tool-envelope.js';

/** A lossless re-encoding must save at least this share of the characters to be worth its trailer. */
const MIN_SAVING = 0.1;

/**
 * The trailer that closes a losslessly re-encoded block: what was applied, and the handle of the exact
 * original bytes (canonical JSON reorders keys, so the re-encoding alone cannot give them back).
 */
export function formatLosslessTrailer(transforms: readonly string[], handle: Handle): string {
  return `<< lossless: ${transforms.join(', ')}; original bytes: handle=${handle} >>`;
}

/** The trailer at the very end of a block, if there is one. */
export const LOSSLESS_TRAILER = /<< lossless: [^\n]*; original bytes: handle=(dh_[0-9a-f]{12}) >>\n$/;

/** A losslessly re-encoded block: its text (ending in the trailer) and the original's handle. */
export interface LosslessBlock {
  readonly text: string;
  readonly handle: Handle;
  readonly transforms: readonly string[];
}

/** What decides which lines a lossless re-encoding must leave verbatim. */
export interface LosslessOptions {
  readonly store: RestoreStore;
  readonly keepModel: KeepModel;
  /** The trusted context the keep model may condition on (see CompressOptions.context). */
  readonly context?: KeepContext;
  /**
   * Lines the keep model scores at least this high stay verbatim; undefined when only guarded lines and
   * verdicts must (an explicit lossless-only request, where every value is kept and nothing is elided).
   */
  readonly keepThreshold?: number;
  readonly anchors?: ReadonlySet<string>;
  /** Most lines the anchors may single out (see anchoredTexts; default 20). */
  readonly anchoredLines?: number;
  /** The block split into client wrapper and tool output, when the caller has it (see splitEnvelope). */
  readonly envelope?: ToolEnvelope;
}

/**
 * Tier 0 for one block: canonical and columnar JSON, template and repeat folding for logs, volatile
 * fields lifted out — every value kept, readable by a model. Lines the salience guard protects, verdicts
 * and lines the keep model would keep stay verbatim: folding them into a template table would keep their
 * values but hide the line an agent looks for. Null when nothing applies or the saving would not pay
 * for the trailer. Only the tool's output is re-encoded: a client's wrapper around it stays as it is.
 */
export async function encodeLossless(block: Block, options: LosslessOptions): Promise<LosslessBlock | null> {
  const { text, kind } = block;
  const { store } = options;
  if (kind === 'source') return null;
  const { prefix, body: output, suffix } = options.envelope ?? splitEnvelope(text);
  const { lines } = splitSegments(output);
  const view = analysisLines(lines);
  // One table for the guard and the verdict test: each distinct line's keywords are found once.
  const table = lineTable(view);
  const protect = guardLines(view, {
    kind,
    anchors: options.anchors,
    anchoredLines: options.anchoredLines,
    table,
  });
  const threshold = options.keepThreshold;
  const scores =
    threshold === undefined ? undefined : await options.keepModel.scoreLines(view, kind, options.context);
  for (let i = 0; i < view.length; i++) {
    const kept = scores !== undefined && threshold !== undefined && scores[i]! >= threshold;
    // guard reasons are bit flags; the encoder takes 1 for "leave verbatim"
    protect[i] = protect[i] !== 0 || isVerdictText(table, table.ids[i]!) || kept ? 1 : 0;
  }
  const encoded = losslessEncode(output, kind, protect);
  if (encoded.transforms.length === 0) return null;
  const handle = await store.put(new TextEncoder().encode(text));
  // the client's lines after the output start a line of their own, as they did
  const ends = suffix.length === 0 || /[\r\n]$/.test(encoded.text) ? '' : '\n';
  const wrapped = prefix + encoded.text + ends + suffix;
  const body = wrapped.endsWith('\n') ? wrapped : `${wrapped}\n`;
  const out = `${body}${formatLosslessTrailer(encoded.transforms, handle)}\n`;
  if (out.length > text.length * (1 - MIN_SAVING)) return null;
  return { text: out, handle, transforms: encoded.transforms };
}
