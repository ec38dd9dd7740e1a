import { createHash } from 'node:crypto';
import type * as TypeScript from 'typescript';
import { loadTypeScript } from './parser-loaders.js';
import type { Definition, FoldRange, SourceOutline } from './source-outline.js';

/**
 * Outlines TypeScript or JavaScript with the TypeScript compiler API: each top-level statement
 * fingerprinted by its syntax tree (node kinds, identifier and literal text; comments and whitespace are
 * trivia, so they never count), and the function bodies a skeleton may fold. Tries `.ts`, then `.tsx`
 * for JSX; null when both have syntax errors.
 */
export async function outlineTypeScript(
  text: string,
  withDefinitions: boolean,
): Promise<SourceOutline | null> {
  const ts = await loadTypeScript();
  const source = parseClean(ts, text, ts.ScriptKind.TS) ?? parseClean(ts, text, ts.ScriptKind.TSX);
  if (!source) return null;
  const definitions: Definition[] = [];
  const folds: FoldRange[] = [];
  const fingerprint = (node: TypeScript.Node): string => fingerprintOf(ts, node);
  for (const statement of withDefinitions ? source.statements : []) {
    const print = fingerprint(statement);
    const name = nameOf(ts, statement);
    definitions.push({
      key: name
        ? `${ts.SyntaxKind[statement.kind]}:${name}`
        : `${ts.SyntaxKind[statement.kind]}:${shortHash(print)}`,
      label: labelOf(ts, statement, name, source),
      fingerprint: print,
      start: statement.getStart(source, true),
      end: statement.end,
    });
  }
  const visit = (node: TypeScript.Node): void => {
    if (isFunctionWithBlock(ts, node)) {
      const body = node.body as TypeScript.Block;
      const open = source.getLineAndCharacterOfPosition(body.getStart(source)).line;
      const close = source.getLineAndCharacterOfPosition(body.end - 1).line;
      if (close - open >= 2) folds.push({ first: open + 1, last: close - 1 });
      return; // nested functions fold with their enclosing body
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { definitions, folds };
}

/** The parse, or null when the parser reported syntax errors (`parseDiagnostics` is internal but stable). */
function parseClean(
  ts: typeof TypeScript,
  text: string,
  kind: TypeScript.ScriptKind,
): TypeScript.SourceFile | null {
  const name = kind === ts.ScriptKind.TSX ? 'block.tsx' : 'block.ts';
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, kind);
  const diagnostics = (source as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics;
  return diagnostics && diagnostics.length > 0 ? null : source;
}

function fingerprintOf(ts: typeof TypeScript, node: TypeScript.Node): string {
  let out = `(${node.kind}`;
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) out += ` ${node.text}`;
  else if (ts.isLiteralExpression(node) || ts.isTemplateLiteralToken(node))
    out += ` ${JSON.stringify(node.text)}`;
  ts.forEachChild(node, (child) => {
    out += fingerprintOf(ts, child);
  });
  return `${out})`;
}

function nameOf(ts: typeof TypeScript, statement: TypeScript.Statement): string | undefined {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.map((d) => d.name.getText()).join(',');
  }
  if (ts.isImportDeclaration(statement)) return `import ${statement.moduleSpecifier.getText()}`;
  const named = statement as { name?: TypeScript.Node };
  return named.name && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name))
    ? named.name.text
    : undefined;
}

function labelOf(
  ts: typeof TypeScript,
  statement: TypeScript.Statement,
  name: string | undefined,
  source: TypeScript.SourceFile,
): string {
  if (ts.isFunctionDeclaration(statement)) return `function ${name ?? '(default)'}`;
  if (ts.isClassDeclaration(statement)) return `class ${name ?? '(default)'}`;
  if (ts.isInterfaceDeclaration(statement)) return `interface ${name}`;
  if (ts.isTypeAliasDeclaration(statement)) return `type ${name}`;
  if (ts.isEnumDeclaration(statement)) return `enum ${name}`;
  if (ts.isVariableStatement(statement)) return `const ${name}`;
  const line = statement.getText(source).split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

function isFunctionWithBlock(
  ts: typeof TypeScript,
  node: TypeScript.Node,
): node is TypeScript.FunctionLikeDeclaration {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)) &&
    node.body !== undefined &&
    ts.isBlock(node.body)
  );
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
