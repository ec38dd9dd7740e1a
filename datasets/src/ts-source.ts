import type { Rng } from './prng.js';
import { camel, functionWords, NOUNS, pascal, phrase, plural, QUALIFIERS, typeWords } from './vocab-words.js';

/**
 * A grammar for TypeScript modules: imports, constants, interfaces, documented functions and a class,
 * with bodies composed from statement productions over the function's own parameters and locals. The
 * output is plausible code, not runnable code; what matters is that it reads like a real module.
 */

/** Where each generated function sits, 1-based and inclusive. */
export interface FunctionSpan {
  readonly name: string;
  readonly signatureLine: number;
  readonly endLine: number;
}

/** A generated source file. */
export interface SourceModule {
  readonly lines: string[];
  readonly functions: FunctionSpan[];
}

const ERRORS = [
  'ValidationError',
  'NotFoundError',
  'ConflictError',
  'RangeError',
  'TypeError',
  'QuotaExceededError',
];
const PACKAGES = [
  'zod',
  'pino',
  'date-fns',
  'p-retry',
  'lru-cache',
  'ioredis',
  'undici',
  'nanoid',
  '@opentelemetry/api',
];

interface Scope {
  params: string[];
  locals: string[];
  fields: string[];
}

function pickVar(rng: Rng, scope: Scope): string {
  const pool = [...scope.params, ...scope.locals];
  return pool.length > 0 ? rng.pick(pool) : rng.pick(NOUNS);
}

function freshLocal(rng: Rng, scope: Scope): string {
  for (let i = 0; i < 20; i++) {
    const name = rng.chance(0.4) ? camel([rng.pick(QUALIFIERS), rng.pick(NOUNS)]) : rng.pick(NOUNS);
    if (!scope.params.includes(name) && !scope.locals.includes(name)) {
      scope.locals.push(name);
      return name;
    }
  }
  const name = `${rng.pick(NOUNS)}${scope.locals.length}`;
  scope.locals.push(name);
  return name;
}

function expression(rng: Rng, scope: Scope, inClass: boolean): string {
  const v = pickVar(rng, scope);
  const f = rng.pick(scope.fields);
  return rng.pick([
    `${camel(functionWords(rng))}(${v})`,
    `${v}.${f}`,
    `${inClass ? 'await this.' : 'await '}${camel([rng.pick(NOUNS), 'client'])}.${camel(functionWords(rng))}(${v})`,
    `${v}.filter((x) => x.${f} !== undefined)`,
    `${v}.map((x) => x.${f})`,
    `\`${rng.pick(NOUNS)}:\${${v}.${f}}\``,
    `Math.max(0, ${v}.${f} - ${rng.int(1, 100)})`,
    `{ ...${v}, ${f}: ${rng.pick(['null', 'true', String(rng.int(0, 99)), `Date.now()`])} }`,
    `new Map(${v}.map((x) => [x.id, x]))`,
    `${v}.${f} ?? ${rng.pick(['0', "''", '[]', 'null'])}`,
  ]);
}

function statements(
  rng: Rng,
  scope: Scope,
  indent: string,
  budget: number,
  inClass: boolean,
  depth = 0,
): string[] {
  const out: string[] = [];
  while (out.length < budget) {
    const kind = rng.int(0, depth > 1 ? 4 : 7);
    if (kind <= 2) {
      const expr = expression(rng, scope, inClass);
      out.push(`${indent}const ${freshLocal(rng, scope)} = ${expr};`);
    } else if (kind === 3) {
      const v = pickVar(rng, scope);
      out.push(
        `${indent}if (${rng.pick([`!${v}`, `${v}.length === 0`, `${v}.${rng.pick(scope.fields)} === undefined`, `${v}.${rng.pick(scope.fields)} > ${rng.int(1, 1000)}`])}) {`,
      );
      const err = rng.pick(ERRORS);
      out.push(
        rng.chance(0.6)
          ? `${indent}  throw new ${err}(\`${phrase(rng)}: \${${v}.${rng.pick(scope.fields)}}\`);`
          : `${indent}  return ${rng.pick(['null', 'undefined', '[]', 'false', v])};`,
      );
      out.push(`${indent}}`);
    } else if (kind === 4) {
      out.push(
        `${indent}logger.${rng.pick(['debug', 'info', 'warn'])}({ ${pickVar(rng, scope)} }, '${phrase(rng)}');`,
      );
    } else if (kind === 5) {
      const arr = pickVar(rng, scope);
      const item = rng.pick(NOUNS);
      out.push(`${indent}for (const ${item} of ${arr}) {`);
      const inner: Scope = { ...scope, locals: [...scope.locals, item] };
      out.push(...statements(rng, inner, `${indent}  `, rng.int(1, 3), inClass, depth + 1));
      out.push(`${indent}}`);
    } else if (kind === 6) {
      out.push(`${indent}try {`);
      out.push(...statements(rng, scope, `${indent}  `, rng.int(1, 3), inClass, depth + 1));
      out.push(`${indent}} catch (err) {`);
      out.push(`${indent}  logger.warn({ err }, '${phrase(rng)}');`);
      out.push(
        `${indent}  ${rng.pick(['throw err;', 'return null;', `metrics.increment('${rng.pick(NOUNS)}.${rng.pick(['errors', 'failures', 'retries'])}');`])}`,
      );
      out.push(`${indent}}`);
    } else {
      const v = pickVar(rng, scope);
      out.push(
        `${indent}if (${v}.${rng.pick(scope.fields)}) ${rng.pick(['continue', 'break'])};`.replace(
          /(continue|break);$/,
          depth > 0 ? '$1;' : 'return;',
        ),
      );
    }
  }
  return out;
}

function functionBlock(
  rng: Rng,
  name: string,
  fields: string[],
  indent: string,
  inClass: boolean,
  exported: boolean,
): string[] {
  const params = rng.sample(NOUNS, rng.int(1, 3));
  const scope: Scope = { params: [...params], locals: [], fields };
  const types = params.map(
    (p) =>
      `${p}: ${rng.pick([pascal([p]), `${pascal([p])}[]`, 'string', 'number', `Readonly<${pascal([p])}>`])}`,
  );
  const async = rng.chance(0.5);
  const ret = async
    ? `Promise<${pascal([rng.pick(NOUNS)])} | null>`
    : rng.pick(['void', 'boolean', pascal([rng.pick(NOUNS)]), `${pascal([rng.pick(NOUNS)])}[]`]);
  const lines: string[] = [];
  if (rng.chance(0.7)) lines.push(`${indent}/** ${phrase(rng).replace(/^./, (c) => c.toUpperCase())}. */`);
  const head = inClass
    ? `${rng.pick(['', '', 'private ', 'protected '])}${async ? 'async ' : ''}${name}`
    : `${exported ? 'export ' : ''}${async ? 'async ' : ''}function ${name}`;
  lines.push(`${indent}${head}(${types.join(', ')}): ${ret} {`);
  lines.push(...statements(rng, scope, `${indent}  `, rng.int(3, 14), inClass));
  const last = scope.locals.length > 0 ? rng.pick(scope.locals) : params[0]!;
  lines.push(`${indent}  return ${ret === 'void' ? '' : last};`.replace('return ;', 'return;'));
  lines.push(`${indent}}`);
  return lines;
}

/** A TypeScript module of roughly `targetLines` lines. */
export function tsModule(rng: Rng, targetLines: number): SourceModule {
  const lines: string[] = [];
  const functions: FunctionSpan[] = [];
  const fields = rng.sample(NOUNS, 8).concat(['id', 'createdAt', 'status']);
  for (const pkg of rng.sample(PACKAGES, rng.int(1, 4))) {
    lines.push(
      `import ${rng.chance(0.5) ? `{ ${camel([rng.pick(NOUNS)])} }` : camel([pkg.replace(/[@/-]/g, ' ').trim().split(' ').pop()!])} from '${pkg}';`,
    );
  }
  for (let i = rng.int(1, 4); i > 0; i--) {
    lines.push(
      `import ${rng.chance(0.4) ? 'type ' : ''}{ ${rng
        .sample(NOUNS, rng.int(1, 3))
        .map((n) => pascal([n]))
        .join(
          ', ',
        )} } from '${rng.pick(['./', '../', '../lib/'])}${camel([rng.pick(NOUNS), ...(rng.chance(0.3) ? ['types'] : [])])}.js';`,
    );
  }
  lines.push(`import { logger, metrics } from '${rng.pick(['./observability.js', '../telemetry.js'])}';`);
  lines.push('');
  for (let i = rng.int(1, 4); i > 0; i--) {
    lines.push(
      `${rng.chance(0.6) ? 'export ' : ''}const ${[rng.pick(QUALIFIERS), rng.pick(NOUNS)].join('_').toUpperCase()}_${rng.pick(['MS', 'LIMIT', 'SIZE', 'TTL', 'RETRIES'])} = ${rng.pick([String(rng.int(1, 100)), `${rng.int(1, 60)} * 1000`, `${rng.int(1, 24)} * 60 * 60 * 1000`])};`,
    );
  }
  lines.push('');
  while (lines.length < targetLines) {
    const kind = rng.int(0, 5);
    if (kind === 0) {
      const name = pascal(typeWords(rng));
      lines.push(`export interface ${name} {`);
      for (const f of rng.sample(fields, rng.int(2, 7)))
        lines.push(
          `  ${rng.chance(0.2) ? 'readonly ' : ''}${f}${rng.chance(0.25) ? '?' : ''}: ${rng.pick(['string', 'number', 'boolean', 'Date', `${pascal([rng.pick(NOUNS)])}[]`, `'${rng.pick(QUALIFIERS)}' | '${rng.pick(QUALIFIERS)}'`])};`,
        );
      lines.push('}');
      lines.push('');
    } else if (kind === 5 && lines.length < targetLines - 40) {
      const cls = pascal(typeWords(rng));
      lines.push(`export class ${cls} {`);
      lines.push(
        `  private readonly ${plural(rng.pick(NOUNS))} = new Map<string, ${pascal([rng.pick(NOUNS)])}>();`,
      );
      lines.push('');
      lines.push(
        `  constructor(private readonly ${camel([rng.pick(NOUNS), 'client'])}: ${pascal([rng.pick(NOUNS), 'client'])}) {}`,
      );
      for (let m = rng.int(2, 5); m > 0; m--) {
        lines.push('');
        const name = camel(functionWords(rng));
        const block = functionBlock(rng, name, fields, '  ', true, false);
        const start = lines.length + 1 + (block[0]!.includes('/**') ? 1 : 0);
        lines.push(...block);
        functions.push({ name: `${cls}.${name}`, signatureLine: start, endLine: lines.length });
      }
      lines.push('}');
      lines.push('');
    } else {
      const name = camel(functionWords(rng));
      const block = functionBlock(rng, name, fields, '', false, rng.chance(0.7));
      const start = lines.length + 1 + (block[0]!.includes('/**') ? 1 : 0);
      lines.push(...block);
      functions.push({ name, signatureLine: start, endLine: lines.length });
      lines.push('');
    }
  }
  while (lines[lines.length - 1] === '') lines.pop();
  return { lines, functions };
}
