import type { KeepModel } from '@distil/contract';
import { splitSegments } from '../pipeline/lines.js';

/**
 * The naive strategy's compressor: the whole conversation treated as one document under one budget, the
 * way budget-driven prompt compressors work (keep a target fraction of the text, LLMLingua's `rate`, 0.5
 * by default there). Lines are ranked by the same KeepModel Distil uses, equal scores going to the most
 * recent line, and the best `keepRatio` of them are kept in their order; the rest are dropped, as those
 * compressors drop them (no stub, no handle).
 *
 * This is the shared budget spec/threat-model.txt rules out, and it is what makes the strategy naive for
 * the cache: every new turn re-ranks every line, the cut-off moves, and lines near the start of the
 * context change from kept to dropped, so the bytes the previous request cached are rewritten.
 */
export async function compressWholeContext(
  text: string,
  keepModel: KeepModel,
  keepRatio: number,
): Promise<string> {
  const { segments, lines } = splitSegments(text);
  if (lines.length === 0) return text;
  const scores = await keepModel.scoreLines(lines, 'tool_output');
  const order = lines.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || b - a);
  const keep = new Uint8Array(lines.length);
  const budget = Math.ceil(keepRatio * lines.length);
  for (let k = 0; k < budget; k++) keep[order[k]!] = 1;
  let out = '';
  for (let i = 0; i < segments.length; i++) if (keep[i] === 1) out += segments[i];
  return out;
}
