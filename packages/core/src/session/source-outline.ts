/** A top-level item of a source file, fingerprinted by its syntax tree. */
export interface Definition {
  /** Stable identity across versions: kind and name (`function:foo`), or the fingerprint for anonymous items. */
  readonly key: string;
  /** How to name it to a reader: `def foo`, `class Foo`, `import os`. */
  readonly label: string;
  /** The syntax tree without positions, whitespace or comments: equal for a reformat-only change. */
  readonly fingerprint: string;
  /** Character offsets of the item in the source (with its decorators / doc comment). */
  readonly start: number;
  readonly end: number;
}

/** Lines a skeleton may fold: 0-based, `first` to `last` inclusive (a body between its header and end). */
export interface FoldRange {
  readonly first: number;
  readonly last: number;
}

/** What a language's parser says about one source text. */
export interface SourceOutline {
  readonly definitions: readonly Definition[];
  readonly folds: readonly FoldRange[];
}

/** Source languages with a real parser behind them. */
export type SourceLanguage = 'python' | 'typescript';

const PYTHON_HINTS =
  /^(def \w+\s*\(|class \w+[(:]|from [\w.]+ import |import \w+(\.\w+)*\s*$|if __name__ == )/m;
const PYTHON_BLOCK = /^\s*(def|class|if|for|while|with|try|elif|else|except)\b[^\n]*:\s*(#[^\n]*)?$/m;
const TS_HINTS =
  /^(import [^\n]*from ['"]|import ['"]|export |(async )?function[ *]|const \w+\s*[:=]|let \w+|interface \w+|type \w+\s*=|class \w+[^\n]*\{)/m;

/**
 * The language of a source text, from its shape (a block has no file name): Python by `def`/`class ...:`
 * and its imports, TypeScript/JavaScript by ES imports, exports and declarations. Null when neither fits.
 */
export function detectSourceLanguage(text: string): SourceLanguage | null {
  const head = text.length > 20000 ? text.slice(0, 20000) : text;
  const python = PYTHON_HINTS.test(head) && PYTHON_BLOCK.test(head);
  const typescript = TS_HINTS.test(head) && /[{};]\s*$/m.test(head);
  if (python && !typescript) return 'python';
  if (typescript && !python) return 'typescript';
  if (python && typescript) return /^\s*(def|class) \w+[^\n]*:\s*$/m.test(head) ? 'python' : 'typescript';
  return null;
}
