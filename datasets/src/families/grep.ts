import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { camel, functionWords, NOUNS, pascal, phrase, QUALIFIERS, snake } from '../vocab-words.js';

/**
 * `grep -rn` and ripgrep searches over a generated repository: call sites, imports, tests, comments,
 * vendored and minified matches, binary-file notices. Each search has a purpose — find where a symbol is
 * defined, or find the call sites still passing a deprecated option — and the kept lines are exactly the
 * matches that answer it.
 */

const SCALE_MATCHES: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [6, 30],
  medium: [60, 250],
  large: [400, 900],
  huge: [1500, 2400],
};

/** A minifier-style identifier: letters only, so it stays a valid name. */
function mini(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + rng.int(0, 25));
  return s;
}

interface Match {
  path: string;
  line: number;
  text: string;
  keep: boolean;
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const python = index % 3 === 2;
  const symbolWords = functionWords(rng);
  const symbol = python ? snake(symbolWords) : camel(symbolWords);
  const purpose = index % 2 === 0 ? 'definition' : 'deprecated-option';
  const option = python
    ? `${rng.pick(QUALIFIERS)}_${rng.pick(NOUNS)}`
    : camel([rng.pick(QUALIFIERS), rng.pick(NOUNS)]);
  const ext = python ? 'py' : rng.pick(['ts', 'tsx', 'js']);
  const dirs = python
    ? ['src/app', 'src/app/api', 'src/app/workers', 'tests', 'tests/integration', 'scripts']
    : ['src', 'src/lib', 'src/api', 'src/components', 'test', 'scripts', 'packages/core/src'];
  const files = Array.from(
    { length: rng.int(8, 60) },
    () =>
      `${rng.pick(dirs)}/${python ? snake([rng.pick(NOUNS)]) : camel([rng.pick(NOUNS), ...(rng.chance(0.3) ? [rng.pick(['service', 'utils', 'store'])] : [])])}${rng.chance(0.15) ? (python ? '_test' : '.test') : ''}.${ext}`,
  );
  const unique = [...new Set(files)];
  const [lo, hi] = SCALE_MATCHES[scale];
  const n = rng.int(lo, hi);
  const matches: Match[] = [];
  const defFile = rng.pick(unique.filter((f) => !f.includes('test')).concat(unique[0]!));
  const args = rng.sample(NOUNS, 2);
  for (let i = 0; i < n; i++) {
    const path = rng.pick(unique);
    const indent = ' '.repeat(rng.pick([0, 2, 4, 4, 8]));
    const v = rng.pick(NOUNS);
    const useOption = purpose === 'deprecated-option' && rng.chance(0.25);
    const text = python
      ? rng.pick([
          `${indent}${v} = ${symbol}(${v}${useOption ? `, ${option}=True` : ''})`,
          `${indent}from ${path
            .replace(/\//g, '.')
            .replace(/^src\./, '')
            .replace(/\.py$/, '')} import ${symbol}`,
          `${indent}result = await ${symbol}(${args[0]}, timeout=${rng.int(1, 30)}${useOption ? `, ${option}=${rng.pick(['True', 'False', 'None'])}` : ''})`,
          `${indent}# ${symbol} ${phrase(rng)}`,
          `${indent}mock_${symbol}.assert_called_once_with(${v}${useOption ? `, ${option}=True` : ''})`,
          `${indent}"${symbol}": ${rng.pick(['True', 'False', String(rng.int(1, 99))])},`,
        ])
      : rng.pick([
          `${indent}const ${v} = ${symbol}(${v}${useOption ? `, { ${option}: true }` : ''});`,
          `import { ${symbol} } from '${rng.pick(['../lib/', './', '@acme/core/'])}${rng.pick(NOUNS)}';`,
          `${indent}await ${symbol}(${args[0]}, { retries: ${rng.int(0, 5)}${useOption ? `, ${option}: ${rng.pick(['true', 'false'])}` : ''} });`,
          `${indent}// ${symbol} ${phrase(rng)}`,
          `${indent}expect(${symbol}).toHaveBeenCalledWith(${v}${useOption ? `, expect.objectContaining({ ${option}: true })` : ''});`,
          `${indent}${symbol}: ${rng.pick(['true', 'false', `${pascal([v])}.${rng.pick(['A', 'B', 'DEFAULT'])}`])},`,
        ]);
    matches.push({ path, line: rng.int(1, 900), text, keep: useOption && text.includes(option) });
  }
  if (purpose === 'definition') {
    const defLine = python
      ? `def ${symbol}(${args.join(', ')}, *, timeout: float = 10.0) -> ${pascal([args[0]!])}:`
      : `export ${rng.chance(0.5) ? 'async ' : ''}function ${symbol}(${args.map((a) => `${a}: ${pascal([a])}`).join(', ')}, opts: ${pascal([symbolWords[symbolWords.length - 1]!, 'options'])} = {}) {`;
    matches.splice(rng.int(0, matches.length), 0, {
      path: defFile,
      line: rng.int(10, 400),
      text: defLine,
      keep: true,
    });
    if (rng.chance(0.5))
      matches.splice(rng.int(0, matches.length), 0, {
        path: `${python ? 'typings' : 'src/types'}/${rng.pick(NOUNS)}.${python ? 'pyi' : 'd.ts'}`,
        line: rng.int(5, 200),
        text: python
          ? `def ${symbol}(${args.join(', ')}, *, timeout: float = ...) -> Any: ...`
          : `export declare function ${symbol}(${args.join(', ')}: unknown): Promise<void>;`,
        keep: false,
      });
  }
  // Vendored and minified noise that matches too.
  if (rng.chance(0.5))
    matches.push({
      path: python
        ? `.venv/lib/python3.11/site-packages/${rng.pick(NOUNS)}/compat.py`
        : `node_modules/${rng.pick(['lodash', 'rxjs', '@babel/core'])}/dist/index.js`,
      line: rng.int(1, 9000),
      text: `${'  '.repeat(rng.int(0, 3))}${symbol}${rng.pick(['=function(e,t){return e&&t}', '(e)', ' = exports.' + symbol])}`,
      keep: false,
    });
  if (!python && rng.chance(0.4))
    matches.push({
      path: `dist/assets/index-${rng.alnum(8)}.js`,
      line: 1,
      text: `var ${mini(rng, 2)}=${Array.from({ length: rng.int(8, 30) }, () => `function ${mini(rng, 2)}(${mini(rng, 1)}){return ${symbol}(${mini(rng, 1)})}`).join(';')}`,
      keep: false,
    });
  const tool = rng.pick(['grep', 'rg', 'rg-heading'] as const);
  const out = new LabelledText();
  const pattern = purpose === 'definition' ? symbol : `${option}`;
  out.add(
    tool === 'grep'
      ? `$ grep -rn ${rng.chance(0.5) ? '--include=*.' + ext + ' ' : ''}"${pattern}" .`
      : `$ rg${tool === 'rg-heading' ? ' --heading' : ''} -n ${pattern}${rng.chance(0.3) ? ` -t ${python ? 'py' : 'ts'}` : ''}`,
  );
  const shown = purpose === 'deprecated-option' ? matches.filter((m) => m.text.includes(option)) : matches;
  if (purpose === 'deprecated-option') {
    // A search for the option also finds its declaration and docs, which are not call sites.
    shown.push({
      path: python ? `src/app/${rng.pick(NOUNS)}.py` : `src/lib/${rng.pick(NOUNS)}Options.ts`,
      line: rng.int(5, 80),
      text: python
        ? `    ${option}: bool = False  # deprecated: use ${rng.pick(NOUNS)}_mode`
        : `  /** @deprecated use ${rng.pick(NOUNS)}Mode */ ${option}?: boolean;`,
      keep: false,
    });
    shown.push({
      path: 'CHANGELOG.md',
      line: rng.int(5, 400),
      text: `- Deprecate \`${option}\`; it will be removed in ${rng.int(2, 5)}.0.`,
      keep: false,
    });
    for (let k = rng.int(2, 12); k > 0; k--) {
      const path = rng.pick(unique);
      shown.push({
        path,
        line: rng.int(1, 900),
        text: python
          ? `    ${symbol}(${rng.pick(NOUNS)}, ${option}=True)`
          : `  ${symbol}(${rng.pick(NOUNS)}, { ${option}: true });`,
        keep: true,
      });
    }
  }
  const byFile = new Map<string, Match[]>();
  for (const m of shown) byFile.set(m.path, [...(byFile.get(m.path) ?? []), m]);
  const order = tool === 'grep' ? rng.shuffle([...byFile.keys()]) : [...byFile.keys()].sort();
  let binary = false;
  for (const path of order) {
    const ms = byFile.get(path)!.sort((a, b) => a.line - b.line);
    if (tool === 'rg-heading') {
      out.add(
        path,
        ms.some((m) => m.keep),
      );
      for (const m of ms) out.add(`${m.line}:${m.text}`, m.keep);
      out.add('');
    } else {
      const prefix = tool === 'grep' ? './' : '';
      for (const m of ms) out.add(`${prefix}${path}:${m.line}:${m.text}`, m.keep);
    }
    if (tool === 'grep' && !binary && rng.chance(0.1)) {
      out.add(
        `grep: ./${rng.pick(['.git/index', 'assets/logo.png', 'data/fixtures.sqlite'])}: binary file matches`,
      );
      binary = true;
    }
  }
  const { text, keep } = out.finish();
  return {
    name: `grep-${String(index).padStart(2, '0')}-${tool}-${purpose}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task:
      purpose === 'definition'
        ? `find where ${symbol} is defined`
        : `find every call site still passing the deprecated ${option} option to ${symbol}`,
    why:
      purpose === 'definition'
        ? `only the definition line of ${symbol} (not imports, calls, stubs or vendored copies)`
        : `the call sites that pass ${option}; its declaration, changelog entry and unrelated matches are not targets`,
  };
}

/** The grep family. */
export const grepFamily: Family = {
  name: 'grep',
  scales: ['small', 'medium', 'small', 'large', 'medium', 'small', 'huge', 'medium', 'small', 'medium'],
  generate,
};
