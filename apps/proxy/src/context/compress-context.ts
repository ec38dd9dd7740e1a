import type { KeepContext } from '@distil/contract';
import { collectAnchors, findStubs } from '@distil/core';
import type { StringEdit } from '../json/body-edits.js';
import { savedTokens } from '../pool/block-tokens.js';
import type { ProxySession, SessionInput } from '../session/proxy-session.js';
import type { RequestContext } from './context-block.js';
import { keepContextFor, keepContextOf } from './keep-context.js';

/** What compressing one request's context did. */
export interface ContextOutcome {
  /** Whether any byte of the body changed. */
  readonly changed: boolean;
  /** The texts written over, with their paths in the request (see encodeBody). */
  readonly rewrites: readonly StringEdit[];
  /** Handles whose stubs the context shows (issued now or earlier, or printed by a tool). */
  readonly handles: ReadonlySet<string>;
  /**
   * The handles among them this proxy issued for this caller's own blocks: the ones the caller may expand
   * without a grant from an earlier request (see handle-owners.ts). A stub a tool printed is not among them.
   */
  readonly issued: ReadonlySet<string>;
  /**
   * Tokens removed (o200k): `fresh` over blocks first sent in this request, `repeat` over blocks sent in
   * earlier requests (now in the provider's cached prefix). Settles once a compress worker has counted
   * the blocks it compressed, which it does while the request is upstream; read for the reply.
   */
  readonly saved: Promise<SavedTokens>;
  /** Blocks that went through the session layer, and how many of them were new. */
  readonly blocks: number;
  readonly added: number;
  /** Blocks sent whole because compressing them failed (see ProxySession), with the first failure. */
  readonly failed: { readonly count: number; readonly error: unknown } | null;
}

/** Tokens a request's rewrites removed (see ContextOutcome.saved). */
export interface SavedTokens {
  readonly fresh: number;
  readonly repeat: number;
}

const STUB_MARK = 'handle=dh_';

/** Adds the handle of every stub in `text` (cheap when there is none: one substring search). */
function addStubHandles(text: string, handles: Set<string>): void {
  if (!text.includes(STUB_MARK)) return;
  for (const stub of findStubs(text)) handles.add(stub.handle);
}

/** The sum of counts, some of them still being made. */
async function sum(counts: readonly (number | Promise<number>)[]): Promise<number> {
  let total = 0;
  for (const count of counts) total += typeof count === 'number' ? count : await count;
  return total;
}

/**
 * Runs a request's tool texts through its session and writes back the bytes to send. Blocks sent before
 * come back with the bytes they had (prefix stability); new ones are compressed. Texts sent whole (and
 * those never compressed) are scanned for stubs too, since a tool may print one Distil made elsewhere;
 * such a handle is in context but not `issued`, so it expands only for a caller it was granted to
 * (handle-owners.ts). `continuation`: the request carries only new items
 * and the provider holds the history (Responses API with `previous_response_id`).
 */
export async function compressContext(
  context: RequestContext,
  session: ProxySession,
  mode: 'whole' | 'continuation' = 'whole',
): Promise<ContextOutcome> {
  const compressible = context.toolTexts.filter((text) => text.write !== undefined);
  // a tool text is a session input as it stands (the session keeps none of them past the call)
  const inputs: readonly SessionInput[] = compressible;
  // read once, and only when something new is compressed: both the anchors and the keep model's context
  let trusted: readonly string[] | undefined;
  const texts = () => (trusted ??= context.trustedTexts());
  const anchors = () => collectAnchors(texts());
  let base: KeepContext | undefined;
  let calls: ReadonlyMap<string, string> | undefined;
  const keep = (input: SessionInput): KeepContext => {
    base ??= keepContextOf(texts());
    calls ??= context.callInputs();
    return keepContextFor(base, input.id, calls);
  };
  const { sent, added, failed } =
    mode === 'whole'
      ? await session.encode(inputs, anchors, keep)
      : await session.append(inputs, anchors, keep);
  const handles = new Set<string>();
  const issued = new Set<string>();
  const rewrites: StringEdit[] = [];
  const fresh: (number | Promise<number>)[] = [];
  const repeat: (number | Promise<number>)[] = [];
  const firstNew = sent.length - added;
  sent.forEach((block, i) => {
    const target = compressible[i]!;
    for (const handle of block.handles) {
      handles.add(handle);
      issued.add(handle);
    }
    if (block.encoding === 'full') addStubHandles(block.text, handles);
    if (block.text === target.text) return;
    target.write!(block.text);
    rewrites.push({ path: target.path, text: block.text });
    (i >= firstNew ? fresh : repeat).push(savedTokens(block));
  });
  for (const text of context.toolTexts) if (!text.write) addStubHandles(text.text, handles);
  for (const handle of handles) session.shownHandles.add(handle);
  // A continuation's earlier items live upstream: every handle the session has shown is still in context.
  if (mode === 'continuation') for (const handle of session.shownHandles) handles.add(handle);
  return {
    changed: rewrites.length > 0,
    rewrites,
    handles,
    issued,
    saved: Promise.all([sum(fresh), sum(repeat)]).then(([f, r]) => ({ fresh: f, repeat: r })),
    blocks: compressible.length,
    added,
    failed,
  };
}
