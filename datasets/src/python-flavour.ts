import type { Rng } from './prng.js';
import {
  functionWords,
  NOUNS,
  pascal,
  plural,
  projectName,
  QUALIFIERS,
  snake,
  typeWords,
  VERBS,
} from './vocab-words.js';

/**
 * A small model of a Python project (package, modules, tests, interpreter paths) and the grammar of the
 * ways its code fails. pytest, CI logs and the Python sources all draw from it, so paths and names agree
 * within one file.
 */

/** One Python project as seen from a test run. */
export interface PyProject {
  readonly name: string;
  readonly pkg: string;
  readonly rootdir: string;
  readonly python: string;
  readonly sitePackages: string;
  readonly modules: readonly string[];
  /** `src/pkg/` or `pkg/`, the prefix of module paths. */
  readonly srcPrefix: string;
}

/** A project with paths in one of the layouts CI runners and laptops use; `fixed` pins name and root. */
export function pyProject(rng: Rng, python: string, fixed?: { name: string; rootdir: string }): PyProject {
  const name = fixed?.name ?? projectName(rng);
  const pkg = name.replace(/-/g, '_');
  const minor = python.split('.').slice(0, 2).join('.');
  const drawnRoot = rng.pick([
    `/home/runner/work/${name}/${name}`,
    `/builds/${rng.pick(['platform', 'backend', 'data'])}/${name}`,
    '/app',
    `/workspace/${name}`,
    `/Users/${rng.pick(['dana', 'kenji', 'priya', 'mateo'])}/src/${name}`,
    `/tmp/tmp${rng.alnum(8)}/repo`,
  ]);
  const rootdir = fixed?.rootdir ?? drawnRoot;
  const sitePackages = rng.pick([
    `/home/runner/.cache/pypoetry/virtualenvs/${name}-${rng.alnum(8)}-py${minor}/lib/python${minor}/site-packages`,
    `/opt/hostedtoolcache/Python/${python}/x64/lib/python${minor}/site-packages`,
    `${rootdir}/.venv/lib/python${minor}/site-packages`,
    `/usr/local/lib/python${minor}/site-packages`,
  ]);
  const modules = rng
    .sample(NOUNS, rng.int(5, 10))
    .map((n) =>
      rng.chance(0.3) ? `${n}_${rng.pick(['service', 'store', 'client', 'utils', 'models'])}` : n,
    );
  return {
    name,
    pkg,
    rootdir,
    python,
    sitePackages,
    modules,
    srcPrefix: rng.chance(0.6) ? `src/${pkg}/` : `${pkg}/`,
  };
}

/** A test function name such as `test_parse_invoice_with_missing_currency`. */
export function testName(rng: Rng): string {
  const base = `test_${snake(functionWords(rng))}`;
  return rng.chance(0.4)
    ? `${base}_${rng.pick(['when', 'with', 'without', 'on', 'after', 'rejects', 'handles'])}_${rng.pick(QUALIFIERS)}_${rng.pick(NOUNS)}`
    : base;
}

/** A parametrize id such as `[utc-naive]` or `[3-0.5]`, or '' for an unparametrized test. */
export function paramId(rng: Rng): string {
  if (!rng.chance(0.3)) return '';
  return rng.pick([
    `[${rng.int(0, 12)}]`,
    `[${rng.pick(QUALIFIERS)}-${rng.pick(NOUNS)}]`,
    `[${rng.int(1, 9)}-${rng.pick(['0.5', '1.0', '0.25', '2'])}]`,
    `[case${rng.int(1, 20)}]`,
    `[${rng.pick(['utc', 'naive', 'aware'])}-${rng.pick(['EUR', 'USD', 'JPY', 'GBP'])}]`,
  ]);
}

/** One simple statement (no block opener), safe to stack as context before a failing line. */
export function pyStatement(rng: Rng): string {
  for (;;) {
    const line = pyLine(rng);
    if (!line.endsWith(':') && !line.startsWith(' ')) return line;
  }
}

/** One source line with a Python identifier flavour; may open a block or be indented. */
export function pyLine(rng: Rng): string {
  const fn = snake(functionWords(rng));
  const v = rng.pick(NOUNS);
  const w = rng.pick(NOUNS);
  return rng.pick([
    `${v} = self.${fn}(${w})`,
    `${v} = ${fn}(${w}, strict=${rng.pick(['True', 'False'])})`,
    `if ${v} is None:`,
    `    return ${rng.pick(['None', '[]', '{}', 'False', `self._${v}`])}`,
    `for ${v} in ${plural(w)}:`,
    `logger.debug("${rng.pick(VERBS)} %s", ${v})`,
    `${plural(v)} = [${v} for ${v} in ${plural(w)} if ${v}.${rng.pick(QUALIFIERS)}]`,
    `${v}_id = ${w}.get("${v}_id")`,
    `self._${v} = ${v}`,
    `with self._lock:`,
    `${v} = await self._client.${fn}(${w})`,
    `${v}.update(${w}=${w})`,
  ]);
}

/** The text pytest's short summary prints after ` - ` for an error. */
export function summaryText(err: PyError): string {
  return err.excType === 'assert' ? err.message : `${err.excType}: ${err.message}`;
}

/** The exception name pytest prints on the location line (`tests/x.py:42: AssertionError`). */
export function locationType(err: PyError): string {
  return err.excType === 'assert' ? 'AssertionError' : (err.excType.split('.').pop() ?? err.excType);
}

/** What ended a failing test: its short-summary text and the lines that show it. */
export interface PyError {
  /** `KeyError`, `AssertionError`, `kestrel.errors.QuotaExceededError`. */
  readonly excType: string;
  /** The last part after `E   ` in the summary (`'currency'`). */
  readonly message: string;
  /** The source line that raised, as pytest shows it after `>`. */
  readonly raisingLine: string;
  /** Lines after the `E` marker (first is `Type: message` or the assert rewrite). */
  readonly eLines: readonly string[];
}

/** An exception raised inside project code. */
export function projectException(rng: Rng, pkg: string): PyError {
  const key = rng.pick(NOUNS);
  const attr = rng.pick(['strip', 'lower', 'isoformat', 'items', 'get', 'amount', 'id']);
  const cls = pascal(typeWords(rng));
  const n = rng.int(2, 999);
  const cases: (() => PyError)[] = [
    () => ({
      excType: 'KeyError',
      message: `'${key}'`,
      raisingLine: `${rng.pick(NOUNS)} = payload["${key}"]`,
      eLines: [`KeyError: '${key}'`],
    }),
    () => ({
      excType: 'AttributeError',
      message: `'NoneType' object has no attribute '${attr}'`,
      raisingLine: `return ${key}.${attr}${attr === 'amount' || attr === 'id' ? '' : '()'}`,
      eLines: [`AttributeError: 'NoneType' object has no attribute '${attr}'`],
    }),
    () => ({
      excType: 'TypeError',
      message: "unsupported operand type(s) for +=: 'int' and 'str'",
      raisingLine: `total += ${key}.${rng.pick(['amount', 'count', 'size'])}`,
      eLines: ["TypeError: unsupported operand type(s) for +=: 'int' and 'str'"],
    }),
    () => {
      const fn = snake(functionWords(rng));
      const kw = rng.pick(['timeout', 'strict', 'tz', 'retries', 'default']);
      return {
        excType: 'TypeError',
        message: `${fn}() got an unexpected keyword argument '${kw}'`,
        raisingLine: `return ${fn}(${key}, ${kw}=${kw})`,
        eLines: [`TypeError: ${fn}() got an unexpected keyword argument '${kw}'`],
      };
    },
    () => {
      const raw = rng.pick(['12.5', 'n/a', '', '1e3', '0x1F', ' 42 ']);
      return {
        excType: 'ValueError',
        message: `invalid literal for int() with base 10: '${raw}'`,
        raisingLine: `${key}_count = int(raw_${key})`,
        eLines: [`ValueError: invalid literal for int() with base 10: '${raw}'`],
      };
    },
    () => {
      const d = `${rng.int(2023, 2025)}-${rng.int(13, 19)}-${String(rng.int(1, 28)).padStart(2, '0')}`;
      return {
        excType: 'ValueError',
        message: `time data '${d}' does not match format '%Y-%m-%d'`,
        raisingLine: `return datetime.strptime(value, "%Y-%m-%d")`,
        eLines: [`ValueError: time data '${d}' does not match format '%Y-%m-%d'`],
      };
    },
    () => ({
      excType: 'ZeroDivisionError',
      message: 'division by zero',
      raisingLine: `ratio = ${key}_used / ${key}_limit`,
      eLines: ['ZeroDivisionError: division by zero'],
    }),
    () => ({
      excType: 'IndexError',
      message: 'list index out of range',
      raisingLine: `first = ${plural(key)}[0]`,
      eLines: ['IndexError: list index out of range'],
    }),
    () => {
      const type = `${pkg}.errors.${cls.endsWith('Error') ? cls : `${cls}Error`}`;
      const msg = `${key} ${rng.pick(['t', 'acct', 'ord'])}-${n} ${rng.pick(['exceeded limit', 'is locked', 'not found', 'already settled'])} (${rng.int(1, 500)})`;
      return {
        excType: type,
        message: msg,
        raisingLine: `raise ${type.split('.').pop()}(f"{${key}} ...")`,
        eLines: [`${type}: ${msg}`],
      };
    },
  ];
  return rng.pick(cases)();
}

/** An assertion that failed in the test body, with pytest's rewritten explanation. */
export function assertionFailure(rng: Rng): PyError {
  const fn = snake(functionWords(rng));
  const a = rng.int(0, 500);
  const b = a + rng.pick([1, -1, 2, 10, 100]);
  const key = rng.pick(NOUNS);
  const cur = rng.sample(['EUR', 'USD', 'JPY', 'GBP', 'CHF', 'SEK'], 2);
  const cases: (() => PyError)[] = [
    () => ({
      excType: 'AssertionError',
      message: `assert ${a} == ${b}`,
      raisingLine: `assert ${fn}(${key}) == ${b}`,
      eLines: [`assert ${a} == ${b}`, ` +  where ${a} = ${fn}(<${pascal([key])} id=${rng.int(1, 9999)}>)`],
    }),
    () => ({
      excType: 'AssertionError',
      message: `assert '${cur[0]}' == '${cur[1]}'`,
      raisingLine: `assert ${key}.currency == "${cur[1]}"`,
      eLines: [`AssertionError: assert '${cur[0]}' == '${cur[1]}'`, '  ', `  - ${cur[1]}`, `  + ${cur[0]}`],
    }),
    () => {
      const code = rng.pick([500, 422, 404, 409, 401]);
      return {
        excType: 'assert',
        message: `assert ${code} == ${rng.pick([200, 201, 204])}`,
        raisingLine: `assert response.status_code == ${code === 409 ? 201 : 200}`,
        eLines: [
          `assert ${code} == ${code === 409 ? 201 : 200}`,
          ` +  where ${code} = <Response [${code}]>.status_code`,
        ],
      };
    },
    () => {
      const got = rng.int(0, 4);
      return {
        excType: 'AssertionError',
        message: `assert ${got} == ${got + 1}`,
        raisingLine: `assert len(${plural(key)}) == ${got + 1}`,
        eLines: [
          `AssertionError: assert ${got} == ${got + 1}`,
          ` +  where ${got} = len([${Array.from({ length: got }, () => `<${pascal([key])}>`).join(', ')}])`,
        ],
      };
    },
    () => {
      const k2 = rng.pick(NOUNS);
      return {
        excType: 'AssertionError',
        message: `assert {'${key}': ${a}, '${k2}': 'ok'} == {'${key}': ${b}, '${k2}': 'ok'}`,
        raisingLine: `assert result == {"${key}": ${b}, "${k2}": "ok"}`,
        eLines: [
          `AssertionError: assert {'${key}': ${a}, '${k2}': 'ok'} == {'${key}': ${b}, '${k2}': 'ok'}`,
          '  ',
          '  Omitting 1 identical items, use -vv to show',
          '  Differing items:',
          `  {'${key}': ${a}} != {'${key}': ${b}}`,
          '  Use -v to get more diff',
        ],
      };
    },
    () => ({
      excType: 'Failed',
      message: "DID NOT RAISE <class 'ValueError'>",
      raisingLine: `with pytest.raises(ValueError):`,
      eLines: ["Failed: DID NOT RAISE <class 'ValueError'>"],
    }),
    () => {
      const x = (rng.int(1, 999) / 100).toFixed(2);
      const y = (Number(x) + rng.pick([0.01, 0.1, 0.05])).toFixed(2);
      return {
        excType: 'assert',
        message: `assert ${x} == ${y} ± 1.0e-06`,
        raisingLine: `assert ${fn}(${key}) == pytest.approx(${y})`,
        eLines: [
          `assert ${x} == ${y} ± 1.0e-06`,
          '  ',
          `  comparison failed`,
          `  Obtained: ${x}`,
          `  Expected: ${y} ± 1.0e-06`,
        ],
      };
    },
    () => {
      const state = rng.pick(['settled', 'cached', 'evicted']);
      return {
        excType: 'AssertionError',
        message: `expected ${key} to be ${state}`,
        raisingLine: `assert ${key}.state is State.${state.toUpperCase()}, f"expected {${key}.name} to be ${state}"`,
        eLines: [
          `AssertionError: expected ${key} to be ${state}`,
          `assert <State.PENDING: 1> is <State.${state.toUpperCase()}: 3>`,
        ],
      };
    },
  ];
  return rng.pick(cases)();
}
