import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';
import type { Language, Parser } from 'web-tree-sitter';

/**
 * The one module that owns Distil's parsers, all loaded lazily: importing `typescript` costs ~750 ms and
 * tree-sitter's first parse ~130 ms (STACK.md), which only a session that meets source re-reads or large
 * source files should pay. A long-running process can call preloadParsers() at start-up instead.
 */
const require = createRequire(import.meta.url);

let typescript: Promise<typeof TypeScript> | undefined;
let python: Promise<Parser> | undefined;

/** The TypeScript compiler API, imported on first use. */
export function loadTypeScript(): Promise<typeof TypeScript> {
  typescript ??= import('typescript').then(
    (m) => (m as unknown as { default?: typeof TypeScript }).default ?? m,
  );
  return typescript;
}

/**
 * A tree-sitter parser for Python, with the grammar shipped in `tree-sitter-python` (0.25.0; its grammar
 * is ABI 15, which needs web-tree-sitter ≥ 0.25 — STACK.md lists the combinations that fail).
 */
export function loadPythonParser(): Promise<Parser> {
  python ??= (async () => {
    const { Parser: ParserClass, Language: LanguageClass } = await import('web-tree-sitter');
    await ParserClass.init();
    const language: Language = await LanguageClass.load(
      require.resolve('tree-sitter-python/tree-sitter-python.wasm'),
    );
    const parser = new ParserClass();
    parser.setLanguage(language);
    return parser;
  })();
  return python;
}

/** Loads every parser now (for a server that would rather pay at start-up than on a request). */
export async function preloadParsers(): Promise<void> {
  await Promise.all([loadTypeScript(), loadPythonParser()]);
}
