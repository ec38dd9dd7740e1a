import {
  HANDLE_IN_TEXT,
  type Handle,
  handleFor,
  type RestoreStore,
  UnknownHandleError,
} from '@distil/contract';
import { splitSegments } from '../pipeline/lines.js';
import { LOSSLESS_TRAILER } from '../pipeline/lossless-block.js';
import { restoreBlock } from '../pipeline/restore-block.js';
import { splitEnvelope } from '../pipeline/tool-envelope.js';
import { STUB_IN_TEXT } from '../tier1/stub.js';

/**
 * How a tool result reached the model:
 * - `unchanged`: its own bytes;
 * - `folded`: kept lines and stubs `<< +N lines, handle=… >>` (tier 1, skeleton);
 * - `reference`: a back-reference or a delta against an earlier block, whose handle holds the original;
 * - `lossless`: re-encoded (tier 0), closed by a trailer naming the original's handle;
 * - `unrecognised`: none of these — an invariant has failed.
 */
export type ForwardedEncoding = 'unchanged' | 'folded' | 'reference' | 'lossless' | 'unrecognised';

/** A forwarded tool result read against its original. */
export interface ForwardedText {
  readonly encoding: ForwardedEncoding;
  /** Handles Distil issued for this text: in its stubs or reference header, absent from the original. */
  readonly issued: readonly Handle[];
  /**
   * For `folded` texts whose layout checks out: the issued stub covering each original line, or null
   * for a line sent verbatim. Null for other encodings.
   */
  readonly foldOf: readonly (Handle | null)[] | null;
  /** Every elided line is declared: stub line counts (or a reference's count) match the original. */
  readonly announced: boolean;
  /** Expanding the issued handles gives back the original, byte for byte. */
  readonly reversible: boolean;
  /** Why `announced` or `reversible` failed. */
  readonly problem?: string;
}

// The session layer's references and deltas: `<< same as #n (turn t): N lines unchanged, handle=… >>`,
// `<< lines a–b as in #n (turn t): unchanged, handle=… >>` and `<< re-read of #n … handle=… >>` (core
// session/references.ts), first in the text or right after a client's wrapper (tool-envelope.ts).
const REFERENCE =
  /^<< (?:same as #\d+ \(turn \d+\): (\d+) lines unchanged|lines \d+–\d+ as in #\d+ [^\n]*?|re-read of #\d+ [^\n]*?), handle=(dh_[0-9a-f]{12}) >>/;
/** A line-number gutter and indentation before a skeleton's stub (line-numbers.ts). */
const GUTTER_INDENT = /^[ \t]*(?:\d+(?:\t|→)[ \t]*)?/;

const decoder = new TextDecoder();

/** The original behind a handle, or null when the store does not resolve it. */
export async function resolveHandle(store: RestoreStore, handle: Handle): Promise<string | null> {
  try {
    return decoder.decode(await store.get(handle));
  } catch (error) {
    if (error instanceof UnknownHandleError) return null;
    throw error;
  }
}

/** Every handle-shaped string in `text`. */
export function handlesIn(text: string): Handle[] {
  return [...text.matchAll(HANDLE_IN_TEXT)].map((match) => match[0]);
}

/**
 * Reads a forwarded tool result against the original the agent produced, through the store: which
 * lines were kept verbatim and which were folded behind which issued stub, whether every elision is
 * declared, and whether the issued handles give the original back.
 */
export async function readForwarded(
  original: string,
  forwarded: string,
  store: RestoreStore,
): Promise<ForwardedText> {
  if (forwarded === original) {
    const lines = splitSegments(original).segments.length;
    return {
      encoding: 'unchanged',
      issued: [],
      foldOf: Array(lines).fill(null),
      announced: true,
      reversible: true,
    };
  }
  const printed = new Set(handlesIn(original));
  const { prefix, body } = splitEnvelope(original);
  const reference = forwarded.startsWith(prefix) ? REFERENCE.exec(forwarded.slice(prefix.length)) : null;
  if (reference && !printed.has(reference[2]!)) {
    const handle = reference[2]!;
    const behind = await resolveHandle(store, handle);
    const declared = reference[1] === undefined ? null : Number(reference[1]);
    // The session counts a re-sent output's lines as body.split('\n').length.
    const announced = declared === null || declared === body.split('\n').length;
    const reversible = behind === original;
    return {
      encoding: 'reference',
      issued: [handle],
      foldOf: null,
      announced,
      reversible,
      ...(!reversible || !announced
        ? { problem: !reversible ? 'the reference handle does not return the original' : 'wrong line count' }
        : {}),
    };
  }
  const trailer = LOSSLESS_TRAILER.exec(forwarded);
  if (trailer && !printed.has(trailer[1]!)) {
    // tier 0 re-encoded the block and its trailer names the exact original
    const reversible = (await resolveHandle(store, trailer[1]!)) === original;
    return {
      encoding: 'lossless',
      issued: [trailer[1]!],
      foldOf: null,
      announced: true,
      reversible,
      ...(!reversible && { problem: 'the lossless trailer handle does not return the original' }),
    };
  }
  const issued = [...new Set(handlesIn(forwarded).filter((h) => !printed.has(h)))];
  const foldOf = await walkFolds(original, forwarded, new Set(issued), store);
  if (foldOf !== null) return { encoding: 'folded', issued, foldOf, announced: true, reversible: true };
  const restored = await restoreBlock(forwarded, issued, store).catch((error: unknown) => {
    if (error instanceof UnknownHandleError) return null;
    throw error;
  });
  if (restored === original) {
    return {
      encoding: 'folded',
      issued,
      foldOf: null,
      announced: false,
      reversible: true,
      problem: 'the stubs restore the original but their line counts do not match what they fold',
    };
  }
  if (issued.length === 0 && (await resolveHandle(store, handleFor(original))) === original) {
    return { encoding: 'lossless', issued, foldOf: null, announced: true, reversible: true };
  }
  return {
    encoding: 'unrecognised',
    issued,
    foldOf: null,
    announced: false,
    reversible: false,
    problem: 'the forwarded text is neither the original nor a fold, reference or lossless form of it',
  };
}

/**
 * Walks the original's lines against the forwarded text: each line is either sent verbatim or covered
 * by an issued stub (after the line's indentation, as skeleton folds keep it) that declares exactly the
 * lines it stands for and whose handle returns exactly their bytes. Null when the layout does not check
 * out.
 */
async function walkFolds(
  original: string,
  forwarded: string,
  issued: ReadonlySet<Handle>,
  store: RestoreStore,
): Promise<(Handle | null)[] | null> {
  const { segments } = splitSegments(original);
  const foldOf: (Handle | null)[] = [];
  const stub = new RegExp(STUB_IN_TEXT.source, 'y');
  let p = 0;
  let i = 0;
  while (i < segments.length) {
    const segment = segments[i]!;
    const indent = /^[ \t]*/.exec(segment)![0];
    const numbered = GUTTER_INDENT.exec(segment)![0];
    let folded = false;
    const leads = [...new Set([0, indent.length, numbered.length])];
    for (const lead of leads) {
      const kept = segment.slice(0, lead);
      if (lead > 0 && !forwarded.startsWith(kept, p)) continue;
      stub.lastIndex = p + lead;
      const match = stub.exec(forwarded);
      if (!match || !issued.has(match[2]!)) continue;
      const count = Number(match[1]);
      if (count < 1 || i + count > segments.length) return null;
      const run = segments
        .slice(i, i + count)
        .join('')
        .slice(lead);
      if ((await resolveHandle(store, match[2]!)) !== run) return null;
      for (let k = 0; k < count; k++) foldOf.push(match[2]!);
      p = stub.lastIndex;
      const terminated = run.endsWith('\n') || run.endsWith('\r');
      if (terminated) {
        if (forwarded.charCodeAt(p) !== 10) return null;
        p += 1;
      }
      i += count;
      folded = true;
      break;
    }
    if (folded) continue;
    if (!forwarded.startsWith(segment, p)) return null;
    foldOf.push(null);
    p += segment.length;
    i += 1;
  }
  return p === forwarded.length ? foldOf : null;
}
