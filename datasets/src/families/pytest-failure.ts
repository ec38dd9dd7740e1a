import type { LabelledText } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import {
  assertionFailure,
  locationType,
  type PyError,
  type PyProject,
  projectException,
  pyStatement,
  summaryText,
} from '../python-flavour.js';
import { banner } from '../text-layout.js';
import { functionWords, NOUNS, pascal, plural, snake } from '../vocab-words.js';

/**
 * One failing test's block in pytest's FAILURES section, in `--tb=long` or `--tb=short` style.
 * Kept lines: the block header, the line that raised in the root-cause frame (the last frame in project
 * code), the `E` lines and the location line that names the exception.
 */

/** A failing test as the session knows it. */
export interface PyFailingTest {
  readonly file: string;
  readonly cls: string | null;
  readonly name: string;
  readonly param: string;
}

/** The node id pytest prints in the short summary. */
export function nodeId(t: PyFailingTest): string {
  return `${t.file}::${t.cls ? `${t.cls}::` : ''}${t.name}${t.param}`;
}

/** What the failure block decided, for the short summary. */
export interface PyFailureResult {
  readonly summary: string;
}

const LIBRARY_ERRORS: readonly ((rng: Rng) => { lib: string; frames: string[]; error: PyError })[] = [
  () => ({
    lib: 'httpx',
    frames: ['httpx/_client.py:1015: in send', 'httpx/_transports/default.py:232: in handle_request'],
    error: {
      excType: 'httpx.ConnectError',
      message: '[Errno 111] Connection refused',
      raisingLine: 'with map_httpcore_exceptions():',
      eLines: ['httpx.ConnectError: [Errno 111] Connection refused'],
    },
  }),
  (rng) => {
    const table = rng.pick(NOUNS);
    const col = `${rng.pick(NOUNS)}_id`;
    return {
      lib: 'sqlalchemy',
      frames: [
        'sqlalchemy/orm/session.py:2017: in execute',
        'sqlalchemy/engine/base.py:1967: in _exec_single_context',
      ],
      error: {
        excType: 'sqlalchemy.exc.IntegrityError',
        message: `(psycopg2.errors.NotNullViolation) null value in column "${col}" of relation "${plural(table)}" violates not-null constraint`,
        raisingLine: 'self.dialect.do_execute(',
        eLines: [
          `sqlalchemy.exc.IntegrityError: (psycopg2.errors.NotNullViolation) null value in column "${col}" of relation "${plural(table)}" violates not-null constraint`,
          `DETAIL:  Failing row contains (${rng.int(1, 9999)}, null, ${rng.int(0, 99)}, 2024-0${rng.int(1, 9)}-1${rng.int(0, 9)} 10:00:00+00).`,
          `[SQL: INSERT INTO ${plural(table)} (${col}, amount, created_at) VALUES (%(${col})s, %(amount)s, %(created_at)s) RETURNING ${plural(table)}.id]`,
          '(Background on this error at: https://sqlalche.me/e/20/gkpj)',
        ],
      },
    };
  },
  (rng) => {
    const model = pascal([rng.pick(NOUNS)]);
    const field = rng.pick(NOUNS);
    return {
      lib: 'pydantic',
      frames: ['pydantic/main.py:176: in __init__'],
      error: {
        excType: 'pydantic_core._pydantic_core.ValidationError',
        message: `1 validation error for ${model}`,
        raisingLine: 'self.__pydantic_validator__.validate_python(data, self_instance=self)',
        eLines: [
          `pydantic_core._pydantic_core.ValidationError: 1 validation error for ${model}`,
          field,
          `  Field required [type=missing, input_value={'id': ${rng.int(1, 999)}}, input_type=dict]`,
          '    For further information visit https://errors.pydantic.dev/2.6/v/missing',
        ],
      },
    };
  },
];

function testSignature(rng: Rng, t: PyFailingTest): string {
  const fixtures = rng.sample(
    ['client', 'db_session', 'tmp_path', 'monkeypatch', 'caplog', 'settings', 'freezer', 'factory'],
    rng.int(0, 3),
  );
  const args = t.cls ? ['self', ...fixtures] : fixtures;
  if (t.param) args.push(rng.pick(['case', 'value', 'tz', 'amount']));
  return `    ${rng.chance(0.15) ? 'async ' : ''}def ${t.name}(${args.join(', ')}):`;
}

function contextLines(rng: Rng, n: number, indent: string): string[] {
  return Array.from({ length: n }, () => `${indent}${pyStatement(rng).replace(/^ +/, '')}`);
}

/** Writes one failure block; returns the short-summary text. */
export function renderPytestFailure(
  rng: Rng,
  out: LabelledText,
  project: PyProject,
  t: PyFailingTest,
  style: 'long' | 'short',
  width: number,
): PyFailureResult {
  out.add(banner(`${t.cls ? `${t.cls}.` : ''}${t.name}${t.param}`, '_', width), true);
  const inTest = rng.chance(0.45);
  const testLine = rng.int(18, 420);
  if (inTest) {
    const err = assertionFailure(rng);
    if (style === 'short') {
      out.add(`${t.file}:${testLine}: in ${t.name}`, true);
      out.add(`    ${err.raisingLine}`, true);
    } else {
      out.add('');
      if (t.cls)
        out.add(
          `self = <${t.file.replace(/\//g, '.').replace(/\.py$/, '')}.${t.cls} object at 0x7f${rng.hex(10)}>`,
        );
      if (t.cls) out.add('');
      out.add(testSignature(rng, t));
      out.addAll(contextLines(rng, rng.int(1, 6), '        '));
      out.add(`>       ${err.raisingLine}`, true);
    }
    for (const e of err.eLines) out.add(`E   ${style === 'long' ? '    ' : ''}${e}`, true);
    if (style === 'long') {
      out.add('');
      out.add(`${t.file}:${testLine}: ${locationType(err)}`, true);
    }
    return { summary: summaryText(err) };
  }

  // The exception comes from project code, possibly through a library.
  const depth = rng.int(1, 3);
  const frames = Array.from({ length: depth }, () => ({
    path: `${project.srcPrefix}${rng.pick(project.modules)}.py`,
    fn: snake(functionWords(rng)),
    line: rng.int(20, 640),
  }));
  const lib = rng.chance(0.25) ? rng.pick(LIBRARY_ERRORS)(rng) : null;
  const err = lib ? lib.error : projectException(rng, project.pkg);
  const callLine = `result = ${rng.pick(['svc', 'client', 'store', 'handler'])}.${frames[0]!.fn}(${rng.pick(NOUNS)})`;

  if (style === 'short') {
    out.add(`${t.file}:${testLine}: in ${t.name}`);
    out.add(`    ${callLine}`);
    frames.forEach((f, i) => {
      const isRoot = i === frames.length - 1;
      out.add(`${f.path}:${f.line}: in ${f.fn}`, isRoot);
      const next = frames[i + 1];
      out.add(
        `    ${isRoot ? (lib ? `return self._client.${rng.pick(['send', 'execute', 'post'])}(request)` : err.raisingLine) : `return self.${next!.fn}(${rng.pick(NOUNS)})`}`,
        isRoot,
      );
    });
    if (lib) {
      for (const f of lib.frames) {
        out.add(`${project.sitePackages}/${f}`);
        out.add(
          `    ${rng.pick(['raise', 'return', 'self._send(request)', 'result = fn(*args, **kwargs)'])}`,
        );
      }
    }
    for (const e of err.eLines) out.add(`E   ${e}`, true);
    return { summary: summaryText(err) };
  }

  out.add('');
  if (t.cls)
    out.add(
      `self = <${t.file.replace(/\//g, '.').replace(/\.py$/, '')}.${t.cls} object at 0x7f${rng.hex(10)}>`,
    );
  else
    out.add(
      `${rng.pick(['client', 'factory', 'db_session'])} = <${pascal([rng.pick(NOUNS), 'client'])} object at 0x7f${rng.hex(10)}>`,
    );
  out.add('');
  out.add(testSignature(rng, t));
  out.addAll(contextLines(rng, rng.int(1, 5), '        '));
  out.add(`>       ${callLine}`);
  out.add('');
  out.add(`${t.file}:${testLine}: `);
  frames.forEach((f, i) => {
    const isRoot = i === frames.length - 1;
    out.add(`_ ${'_ '.repeat(Math.floor((width - 2) / 2) - 1)}`.trimEnd());
    out.add('');
    out.add(
      `self = <${project.pkg}.${pascal([rng.pick(NOUNS), 'service'])} object at 0x7f${rng.hex(10)}>, ${rng.pick(NOUNS)} = ${rng.pick([`'${rng.hex(8)}'`, String(rng.int(1, 999)), 'None', `{'id': ${rng.int(1, 99)}}`])}`,
    );
    out.add('');
    out.add(`    def ${f.fn}(self, ${rng.pick(NOUNS)}):`);
    out.addAll(contextLines(rng, rng.int(1, 7), '        '));
    if (isRoot && !lib) {
      out.add(`>       ${err.raisingLine}`, true);
      for (const e of err.eLines) out.add(`E       ${e}`, true);
      out.add('');
      out.add(`${f.path}:${f.line}: ${locationType(err)}`, true);
    } else {
      const next = frames[i + 1];
      out.add(
        `>       ${next ? `return self.${next.fn}(${rng.pick(NOUNS)})` : `response = self._client.${rng.pick(['send', 'execute', 'post'])}(request)`}`,
        isRoot,
      );
      out.add('');
      out.add(`${f.path}:${f.line}: `, isRoot);
    }
  });
  if (lib) {
    lib.frames.forEach((f, i) => {
      const [path, where] = f.split(': in ');
      out.add(`_ ${'_ '.repeat(Math.floor((width - 2) / 2) - 1)}`.trimEnd());
      out.add('');
      out.add(`    def ${where}(self, *args, **kwargs):`);
      out.addAll(contextLines(rng, rng.int(2, 6), '        '));
      if (i === lib.frames.length - 1) {
        out.add(`>       ${err.raisingLine}`);
        for (const e of err.eLines) out.add(`E       ${e}`, true);
        out.add('');
        out.add(`${project.sitePackages}/${path}: ${locationType(err)}`, true);
      } else {
        out.add(`>       return self._${snake(functionWords(rng))}(*args, **kwargs)`);
        out.add('');
        out.add(`${project.sitePackages}/${path}: `);
      }
    });
  }
  return { summary: summaryText(err) };
}
