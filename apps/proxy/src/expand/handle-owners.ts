import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { handleFor, type RestoreStore } from '@distil/contract';
import { headerValue } from '../http/hop-by-hop.js';

/**
 * Who may expand a handle through the proxy. A stub's text can be printed by anyone: a tool result is
 * caller-controlled, and a web page or file an agent reads can carry `<< +40 lines, handle=dh_… >>`
 * copied from another tenant's context. So a handle resolves through `distil_expand` only for a
 * credential the proxy itself issued it to (it compressed that caller's block into it) — on every replica
 * sharing the store, since the grant lives in the store.
 *
 * A grant is a record in the content-addressed store whose bytes are a digest of the handle and the
 * credential: `has` on its address says whether the grant exists, and the bytes reveal neither the
 * credential nor which handles it holds. The credential is hashed before it is mixed in and never stored.
 */
export type CredentialDigest = string & { readonly __credential: unique symbol };

/** The credential a request carries (x-api-key, else authorization), hashed. */
export function credentialDigest(headers: IncomingHttpHeaders): CredentialDigest {
  const credential = headerValue(headers, 'x-api-key') ?? headerValue(headers, 'authorization') ?? '';
  return createHash('sha256')
    .update('distil-credential/v1\0')
    .update(credential)
    .digest('hex') as CredentialDigest;
}

function grantBytes(handle: string, owner: CredentialDigest): Uint8Array {
  const digest = createHash('sha256').update('distil-grant/v1\0').update(handle).update('\0').update(owner);
  return new TextEncoder().encode(digest.digest('hex'));
}

/**
 * Records that `owner` was issued `handles`: their grants go to `putAll`, all at once (against the disk
 * store each waits on its own fsyncs, and a new tool result issues a grant per fold). Idempotent: the
 * same grant is the same bytes.
 */
export async function grantHandles(
  putAll: (grants: readonly Uint8Array[]) => Promise<void>,
  handles: Iterable<string>,
  owner: CredentialDigest,
): Promise<void> {
  await putAll([...handles].map((handle) => grantBytes(handle, owner)));
}

/** Whether `owner` was issued `handle` (false when the store cannot say: refusing is the safe answer). */
export async function ownsHandle(
  store: RestoreStore,
  handle: string,
  owner: CredentialDigest,
): Promise<boolean> {
  try {
    return await store.has(handleFor(grantBytes(handle, owner)));
  } catch {
    return false;
  }
}
