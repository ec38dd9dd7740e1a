import { countO200k } from './o200k/count-o200k.js';
import { buildO200kTable } from './o200k/o200k-table.js';
import { type TokenTable, viewTable } from './o200k/token-table.js';

/** This thread's o200k table: handed in by `useTokenTable`, else built on the first count. */
let table: TokenTable | undefined;

function tokenTable(): TokenTable {
  table ??= buildO200kTable();
  return table;
}

/**
 * Tokens in `text` under OpenAI's o200k_base encoding, exactly: tiktoken's `encode_ordinary`, so every
 * special-token string (`<|endoftext|>`, …) counts as the plain text it is — a tool output is data, and
 * ML code prints these strings. Claude's tokenizer is not public; o200k is a stable, reproducible
 * yardstick for before/after comparisons, and billed figures come from the provider's own `usage`.
 * The table (~4 MB, see `sharedTokenTable`) is built on the first count, not when the package is imported.
 */
export function countTokens(text: string): number {
  return countO200k(tokenTable(), text);
}

/**
 * The memory of this thread's o200k table, built now if it was not yet: a SharedArrayBuffer to hand to
 * worker threads (in `workerData` or a message; it is shared, not copied), where `useTokenTable` counts
 * with it instead of building a table of its own.
 */
export function sharedTokenTable(): SharedArrayBuffer {
  return tokenTable().buffer;
}

/**
 * Counts with the table in `buffer` (another thread's `sharedTokenTable()`) from now on. Returns false,
 * changing nothing, when `buffer` is not such a table (absent, or from another version): this thread then
 * builds its own on the first count, as it would without this call.
 */
export function useTokenTable(buffer: unknown): boolean {
  const shared = viewTable(buffer);
  if (shared) table = shared;
  return shared !== null;
}
