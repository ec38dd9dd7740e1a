import { createHash } from 'node:crypto';
import type { Node } from 'web-tree-sitter';
import { loadPythonParser } from './parser-loaders.js';
import type { Definition, FoldRange, SourceOutline } from './source-outline.js';

/** Statements whose body a skeleton may fold even outside a function (`if __name__ == "__main__":`). */
const COMPOUND = new Set([
  'if_statement',
  'for_statement',
  'while_statement',
  'with_statement',
  'try_statement',
]);

/**
 * Outlines Python with tree-sitter: each top-level statement fingerprinted the way the original used
 * `ast.dump` with attributes off (node types and token text, no positions, no whitespace, no comments),
 * and the function bodies a skeleton may fold. Null when the parse has errors (mid-edit source).
 */
export async function outlinePython(text: string, withDefinitions: boolean): Promise<SourceOutline | null> {
  const parser = await loadPythonParser();
  const tree = parser.parse(text);
  if (!tree) return null;
  try {
    const root = tree.rootNode;
    if (root.hasError) return null;
    // tree-sitter reports positions in UTF-16 code units for JS strings (the parse input), as slice() wants.
    const definitions: Definition[] = [];
    const folds: FoldRange[] = [];
    for (const node of root.namedChildren) {
      if (!node || node.type === 'comment') continue;
      if (withDefinitions) definitions.push(definitionOf(node));
      collectFolds(node, folds);
    }
    return { definitions, folds };
  } finally {
    tree.delete();
  }
}

function definitionOf(node: Node): Definition {
  const fingerprint = fingerprintOf(node);
  const inner = unwrap(node);
  const name = inner.childForFieldName('name')?.text;
  const isDef = inner.type === 'function_definition' || inner.type === 'class_definition';
  const key = isDef && name ? `${inner.type}:${name}` : `${node.type}:${shortHash(fingerprint)}`;
  const label =
    isDef && name ? `${inner.type === 'class_definition' ? 'class' : 'def'} ${name}` : firstLine(node.text);
  return { key, label, fingerprint, start: node.startIndex, end: node.endIndex };
}

function fingerprintOf(node: Node): string {
  // A string literal is atomic: its content nodes do not cover the raw text between escape sequences.
  if (node.childCount === 0 || node.type === 'string') return `(${node.type} ${JSON.stringify(node.text)})`;
  let out = `(${node.type}`;
  for (const child of node.children) {
    if (child && child.type !== 'comment') out += fingerprintOf(child);
  }
  return `${out})`;
}

function collectFolds(node: Node, folds: FoldRange[]): void {
  const inner = unwrap(node);
  if (inner.type === 'function_definition') foldBody(inner, folds);
  else if (inner.type === 'class_definition') {
    for (const member of inner.childForFieldName('body')?.namedChildren ?? []) {
      if (!member) continue;
      const method = unwrap(member);
      if (method.type === 'function_definition') foldBody(method, folds);
    }
  } else if (COMPOUND.has(node.type)) {
    const last = lastRow(node);
    if (last > node.startPosition.row) folds.push({ first: node.startPosition.row + 1, last });
  }
}

/** Folds a function body after its docstring; a one-line body (`def f(): pass`) stays. */
function foldBody(definition: Node, folds: FoldRange[]): void {
  const body = definition.childForFieldName('body');
  if (!body || body.startPosition.row === definition.startPosition.row) return;
  const firstStatement = body.namedChildren[0];
  const docstring =
    firstStatement?.type === 'expression_statement' && firstStatement.namedChildren[0]?.type === 'string'
      ? firstStatement
      : null;
  const first = docstring ? docstring.endPosition.row + 1 : body.startPosition.row;
  const last = lastRow(body);
  if (last >= first) folds.push({ first, last });
}

function lastRow(node: Node): number {
  return node.endPosition.column === 0 ? node.endPosition.row - 1 : node.endPosition.row;
}

function unwrap(node: Node): Node {
  return node.type === 'decorated_definition' ? (node.childForFieldName('definition') ?? node) : node;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
