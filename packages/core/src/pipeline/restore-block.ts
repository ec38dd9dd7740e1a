import type { Handle, RestoreStore } from '@distil/contract';
import { findStubs } from '../tier1/stub.js';
import { mapJsonFields } from './json-envelope.js';
import { LOSSLESS_TRAILER } from './lossless-block.js';

/**
 * Gives back the original of a compressed block: a lossless trailer's handle gives the whole original;
 * otherwise every stub whose handle Distil issued for it (`handles`) is replaced by the stored bytes. Stubs with other handles are left as they are: they were part of the
 * input, and a forged handle is never vouched for.
 */
export async function restoreBlock(
  text: string,
  handles: readonly Handle[],
  store: RestoreStore,
): Promise<string> {
  if (handles.length === 0) return text;
  const issued = new Set(handles);
  const decoder = new TextDecoder();
  // a losslessly re-encoded block names its whole original in its trailer
  const trailer = LOSSLESS_TRAILER.exec(text);
  if (trailer && issued.has(trailer[1]!)) return decoder.decode(await store.get(trailer[1]!));
  // a digest of a JSON object's text field restores inside the field, written back as JSON
  const fields = await mapJsonFields(text, (body) =>
    findStubs(body).some((stub) => issued.has(stub.handle))
      ? restoreBlock(body, handles, store)
      : Promise.resolve(null),
  );
  if (fields !== null) return fields;
  let out = '';
  let cursor = 0;
  for (const stub of findStubs(text)) {
    if (!issued.has(stub.handle)) continue;
    const original = decoder.decode(await store.get(stub.handle));
    out += text.slice(cursor, stub.index) + original;
    cursor = stub.index + stub.length;
    // foldRuns ends a stub with '\n' exactly when the folded run ended with a line terminator
    const terminated = original.endsWith('\n') || original.endsWith('\r');
    if (terminated && text.charCodeAt(cursor) === 10) cursor++;
  }
  return out + text.slice(cursor);
}
