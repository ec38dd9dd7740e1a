import type { Rng } from './prng.js';
import { pyStatement } from './python-flavour.js';
import type { FunctionSpan, SourceModule } from './ts-source.js';
import { functionWords, NOUNS, pascal, phrase, plural, QUALIFIERS, snake, typeWords } from './vocab-words.js';

/**
 * A grammar for Python modules: a docstring, imports, constants, dataclasses, a service class and
 * documented functions whose bodies are composed from statement productions over their own arguments.
 */

const EXCEPTIONS = ['ValueError', 'KeyError', 'LookupError', 'RuntimeError', 'PermissionError'];

function body(rng: Rng, args: string[], indent: string, budget: number, depth = 0): string[] {
  const out: string[] = [];
  const locals: string[] = [];
  const v = (): string =>
    rng.pick(
      [...args, ...locals].filter((x) => x !== 'self').concat(args.length === 0 ? [rng.pick(NOUNS)] : []),
    );
  while (out.length < budget) {
    const kind = rng.int(0, depth > 0 ? 4 : 7);
    if (kind <= 1) {
      const name = rng.chance(0.4) ? `${rng.pick(QUALIFIERS)}_${rng.pick(NOUNS)}` : rng.pick(NOUNS);
      out.push(
        `${indent}${name} = ${rng.pick<string>([`${snake(functionWords(rng))}(${v()})`, `${v()}.get("${rng.pick(NOUNS)}")`, `[x for x in ${v()} if x.${rng.pick(QUALIFIERS)}]`, `len(${v()})`, `{k: v for k, v in ${v()}.items() if v is not None}`, `${v()} or ${rng.pick(['[]', '{}', 'None', '0'])}`])}`,
      );
      locals.push(name);
    } else if (kind === 2) {
      out.push(
        `${indent}if ${rng.pick([`not ${v()}`, `${v()} is None`, `len(${v()}) > ${rng.int(1, 500)}`, `isinstance(${v()}, str)`])}:`,
      );
      out.push(
        `${indent}    ${rng.chance(0.6) ? `raise ${rng.pick(EXCEPTIONS)}(f"${phrase(rng)}: {${v()}!r}")` : `return ${rng.pick(['None', '[]', 'False', '{}'])}`}`,
      );
    } else if (kind === 3) {
      out.push(`${indent}logger.${rng.pick(['debug', 'info', 'warning'])}("${phrase(rng)} %s", ${v()})`);
    } else if (kind === 4) {
      out.push(`${indent}${pyStatement(rng)}`);
    } else if (kind === 5) {
      const item = rng.pick(NOUNS);
      out.push(`${indent}for ${item} in ${v()}:`);
      out.push(...body(rng, [...args, item], `${indent}    `, rng.int(1, 3), depth + 1));
    } else if (kind === 6) {
      out.push(`${indent}try:`);
      out.push(...body(rng, args, `${indent}    `, rng.int(1, 3), depth + 1));
      out.push(
        `${indent}except ${rng.pick(['KeyError', 'ValueError', '(TimeoutError, ConnectionError)', 'Exception'])} as exc:`,
      );
      out.push(`${indent}    logger.warning("${phrase(rng)}: %s", exc)`);
      out.push(
        `${indent}    ${rng.pick(['raise', 'return None', `metrics.incr("${rng.pick(NOUNS)}.errors")`])}`,
      );
    } else {
      out.push(
        `${indent}with ${rng.pick(['self._lock', 'session.begin()', `open(path, "${rng.pick(['r', 'rb', 'w'])}") as fh`, 'tracer.start_as_current_span("' + rng.pick(NOUNS) + '")'])}:`,
      );
      out.push(...body(rng, args, `${indent}    `, rng.int(1, 2), depth + 1));
    }
  }
  return out;
}

function funcBlock(rng: Rng, name: string, indent: string, method: boolean): string[] {
  const args = rng.sample(NOUNS, rng.int(1, 3));
  const sig = args.map((a) =>
    rng.chance(0.6)
      ? `${a}: ${rng.pick([pascal([a]), 'str', 'int', `list[${pascal([a])}]`, `${pascal([a])} | None`])}`
      : a,
  );
  const lines: string[] = [];
  if (rng.chance(0.2))
    lines.push(
      `${indent}@${rng.pick(['staticmethod', 'cached_property', 'retry(attempts=3)', 'lru_cache(maxsize=128)', 'property'])}`.replace(
        /@(staticmethod|cached_property|property)/,
        method ? '@$1' : '@lru_cache(maxsize=128)',
      ),
    );
  lines.push(
    `${indent}${rng.chance(0.3) ? 'async ' : ''}def ${name}(${method ? ['self', ...sig].join(', ') : sig.join(', ')}) -> ${rng.pick(['None', 'bool', pascal([rng.pick(NOUNS)]), `list[${pascal([rng.pick(NOUNS)])}]`, `${pascal([rng.pick(NOUNS)])} | None`])}:`,
  );
  if (rng.chance(0.7)) lines.push(`${indent}    """${phrase(rng).replace(/^./, (c) => c.toUpperCase())}."""`);
  lines.push(...body(rng, method ? ['self', ...args] : args, `${indent}    `, rng.int(3, 14)));
  lines.push(
    `${indent}    return ${rng.pick([...args, 'None', 'result'])}`.replace(
      'return result',
      `return ${args[0]}`,
    ),
  );
  return lines;
}

/** A Python module of roughly `targetLines` lines. */
export function pyModule(rng: Rng, targetLines: number, pkg: string): SourceModule {
  const lines: string[] = [
    `"""${phrase(rng).replace(/^./, (c) => c.toUpperCase())}."""`,
    '',
    'from __future__ import annotations',
    '',
  ];
  const functions: FunctionSpan[] = [];
  for (const m of rng.sample(
    [
      'logging',
      'time',
      'json',
      'dataclasses',
      'datetime',
      'threading',
      'typing',
      'functools',
      'asyncio',
      'collections',
    ],
    rng.int(2, 5),
  )) {
    lines.push(
      m === 'dataclasses'
        ? 'from dataclasses import dataclass, field'
        : m === 'typing'
          ? 'from typing import Any, Iterable'
          : m === 'functools'
            ? 'from functools import lru_cache'
            : `import ${m}`,
    );
  }
  lines.push('');
  for (let i = rng.int(1, 3); i > 0; i--)
    lines.push(
      `from ${pkg}.${rng.pick(NOUNS)} import ${rng
        .sample(NOUNS, rng.int(1, 3))
        .map((n) => pascal([n]))
        .join(', ')}`,
    );
  lines.push(`from ${pkg}.observability import metrics, tracer`);
  lines.push('');
  lines.push('logger = logging.getLogger(__name__)');
  lines.push('');
  for (let i = rng.int(1, 4); i > 0; i--)
    lines.push(
      `${[rng.pick(QUALIFIERS), rng.pick(NOUNS)].join('_').toUpperCase()}_${rng.pick(['SECONDS', 'LIMIT', 'SIZE', 'TTL', 'RETRIES'])} = ${rng.int(1, 3600)}`,
    );
  lines.push('');
  while (lines.length < targetLines) {
    const kind = rng.int(0, 5);
    lines.push('');
    if (kind === 0) {
      lines.push('@dataclass(frozen=True)');
      lines.push(`class ${pascal(typeWords(rng))}:`);
      for (const f of rng.sample(NOUNS, rng.int(2, 6)))
        lines.push(
          `    ${f}: ${rng.pick(['str', 'int', 'float', 'bool', 'datetime.datetime', `list[str] = field(default_factory=list)`, 'str | None = None'])}`,
        );
      lines.push('');
    } else if (kind === 5 && lines.length < targetLines - 40) {
      const cls = pascal(typeWords(rng));
      lines.push(`class ${cls}:`);
      lines.push(`    """${phrase(rng).replace(/^./, (c) => c.toUpperCase())}."""`);
      lines.push('');
      lines.push(
        `    def __init__(self, client: ${pascal([rng.pick(NOUNS), 'client'])}, ttl: int = ${rng.int(10, 600)}) -> None:`,
      );
      lines.push('        self._client = client');
      lines.push(`        self._${plural(rng.pick(NOUNS))}: dict[str, Any] = {}`);
      lines.push('        self._lock = threading.Lock()');
      for (let m = rng.int(2, 5); m > 0; m--) {
        lines.push('');
        const name = snake(functionWords(rng));
        const block = funcBlock(rng, name, '    ', true);
        const offset = block[0]!.trimStart().startsWith('@') ? 1 : 0;
        const start = lines.length + 1 + offset;
        lines.push(...block);
        functions.push({ name: `${cls}.${name}`, signatureLine: start, endLine: lines.length });
      }
      lines.push('');
    } else {
      const name = snake(functionWords(rng));
      const block = funcBlock(rng, name, '', false);
      const offset = block[0]!.startsWith('@') ? 1 : 0;
      const start = lines.length + 1 + offset;
      lines.push(...block);
      functions.push({ name, signatureLine: start, endLine: lines.length });
      lines.push('');
    }
  }
  while (lines[lines.length - 1] === '') lines.pop();
  return { lines, functions };
}
