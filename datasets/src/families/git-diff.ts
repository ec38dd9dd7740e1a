import { Clock } from '../clock.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { pyModule } from '../py-source.js';
import { tsModule } from '../ts-source.js';
import { type Edit, hunks } from '../unified-diff.js';
import { NPM_PACKAGES, versionOf } from '../vocab-ecosystems.js';
import {
  camel,
  commitSubject,
  functionWords,
  NOUNS,
  person,
  phrase,
  projectName,
  QUALIFIERS,
  snake,
} from '../vocab-words.js';

/**
 * `git diff`, `git diff --cached` and `git show` over generated TypeScript/Python modules plus the files
 * that ride along in real changes (package.json bumps, lockfile churn, YAML config, changelogs, renames,
 * new and deleted files, binaries). Kept lines: every `+`/`-` line in hand-written files and the
 * `diff --git` header naming each such file; lockfile churn and binary notices are not decisive.
 */

interface FileDiff {
  path: string;
  lines: { text: string; keep: boolean }[];
}

function mutate(rng: Rng, line: string, python: boolean): string {
  const indent = line.match(/^ */)![0];
  const body = line.slice(indent.length);
  const options: (() => string | null)[] = [
    () =>
      /\d+/.test(body) ? body.replace(/\d+/, (d) => String(Number(d) + rng.pick([1, -1, 10, 100]))) : null,
    () => (/\.(\w+)/.test(body) ? body.replace(/\.(\w+)/, python ? '.$1' : '?.$1') : null),
    () => body.replace(/\b([a-z]+)\b/, (w) => (NOUNS.includes(w) ? rng.pick(NOUNS) : w)),
    () =>
      python
        ? null
        : body.startsWith('const ') && !body.includes('await')
          ? body.replace(/= /, '= await ')
          : null,
    () => body.replace(/'([^']*)'/, (_m, s: string) => `'${s} ${rng.pick(QUALIFIERS)}'`),
    () => body.replace(/ > /, ' >= ').replace(/ === /, ' !== '),
  ];
  for (const f of rng.shuffle(options)) {
    const r = f();
    if (r !== null && r !== body) return `${indent}${r}`;
  }
  return `${indent}${body}${python ? '  # TODO: revisit' : ' // TODO: revisit'}`;
}

function codeEdits(rng: Rng, old: readonly string[], python: boolean, count: number): Edit[] {
  const candidates = old
    .map((l, i) => ({ l, i: i + 1 }))
    .filter(
      (x) =>
        x.l.trim().length > 3 &&
        !x.l.trim().startsWith('"""') &&
        !x.l.startsWith('import') &&
        !x.l.startsWith('from'),
    );
  const edits: Edit[] = [];
  for (const { l, i } of rng.shuffle(candidates)) {
    if (edits.length >= count) break;
    if (edits.some((e) => Math.abs(e.at - i) < 2)) continue;
    const indent = l.match(/^ */)![0];
    const kind = rng.weighted([
      ['modify', 5],
      ['insert', 3],
      ['delete', 1],
    ] as const);
    if (kind === 'modify') edits.push({ at: i, remove: 1, insert: [mutate(rng, l, python)] });
    else if (
      kind === 'delete' &&
      !l.trimEnd().endsWith('{') &&
      !l.trimEnd().endsWith(':') &&
      l.trim() !== '}'
    )
      edits.push({ at: i, remove: 1, insert: [] });
    else {
      const v = rng.pick(NOUNS);
      const added = python
        ? [`${indent}if ${v} is None:`, `${indent}    raise ValueError("${v} is required")`]
        : rng.pick([
            [
              `${indent}if (!${v}) {`,
              `${indent}  throw new ValidationError('${v} is required');`,
              `${indent}}`,
            ],
            [`${indent}logger.debug({ ${v} }, '${phrase(rng)}');`],
          ]);
      // Never insert after a block opener or after a line that leaves the block.
      if (
        l.trimEnd().endsWith(':') ||
        l.trimEnd().endsWith('{') ||
        /^\s*(return|raise|throw|continue|break)\b/.test(l)
      )
        continue;
      edits.push({ at: i + 1, remove: 0, insert: added });
    }
  }
  return edits;
}

function codeFile(rng: Rng, path: string, python: boolean, size: number, editCount: number): FileDiff {
  const mod = python ? pyModule(rng, size, path.split('/')[1] ?? 'app') : tsModule(rng, size);
  const edits = codeEdits(rng, mod.lines, python, editCount);
  const header = python
    ? /^(\s*)(def |class |async def )/
    : /^(export |async |function |class |\s+(async |private |protected )?\w+\()/;
  const body = hunks(mod.lines, edits, (l) => header.test(l));
  const a = rng.hex(7);
  const b = rng.hex(7);
  return {
    path,
    lines: [
      { text: `diff --git a/${path} b/${path}`, keep: true },
      { text: `index ${a}..${b} 100644`, keep: false },
      { text: `--- a/${path}`, keep: false },
      { text: `+++ b/${path}`, keep: false },
      ...body.map((d) => ({ text: d.text, keep: d.changed })),
    ],
  };
}

function packageJsonFile(rng: Rng): FileDiff {
  const deps = rng.sample(NPM_PACKAGES, rng.int(6, 14));
  const bumped = rng.int(0, deps.length - 1);
  const lines: { text: string; keep: boolean }[] = [
    { text: 'diff --git a/package.json b/package.json', keep: true },
    { text: `index ${rng.hex(7)}..${rng.hex(7)} 100644`, keep: false },
    { text: '--- a/package.json', keep: false },
    { text: '+++ b/package.json', keep: false },
    { text: `@@ -${rng.int(14, 30)},${7} +${rng.int(14, 30)},${7} @@`, keep: false },
  ];
  for (let k = Math.max(0, bumped - 3); k <= Math.min(deps.length - 1, bumped + 3); k++) {
    const [name, major] = deps[k]!;
    const comma = k === deps.length - 1 ? '' : ',';
    if (k === bumped) {
      lines.push({ text: `-    "${name}": "^${versionOf(rng, major)}"${comma}`, keep: true });
      lines.push({
        text: `+    "${name}": "^${versionOf(rng, major + (rng.chance(0.3) ? 1 : 0))}"${comma}`,
        keep: true,
      });
    } else lines.push({ text: `     "${name}": "^${versionOf(rng, major)}"${comma}`, keep: false });
  }
  return { path: 'package.json', lines };
}

function lockfileFile(rng: Rng, churn: number): FileDiff {
  const lines: { text: string; keep: boolean }[] = [
    { text: 'diff --git a/package-lock.json b/package-lock.json', keep: false },
    { text: `index ${rng.hex(7)}..${rng.hex(7)} 100644`, keep: false },
    { text: '--- a/package-lock.json', keep: false },
    { text: '+++ b/package-lock.json', keep: false },
  ];
  let at = rng.int(10, 200);
  while (lines.length < churn) {
    const [name, major] = rng.pick(NPM_PACKAGES);
    const v1 = versionOf(rng, major);
    const v2 = versionOf(rng, major);
    lines.push({ text: `@@ -${at},9 +${at},9 @@`, keep: false });
    lines.push({ text: `     "node_modules/${name}": {`, keep: false });
    lines.push({ text: `-      "version": "${v1}",`, keep: false });
    lines.push({
      text: `-      "resolved": "https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${v1}.tgz",`,
      keep: false,
    });
    lines.push({ text: `-      "integrity": "sha512-${rng.alnum(86)}==",`, keep: false });
    lines.push({ text: `+      "version": "${v2}",`, keep: false });
    lines.push({
      text: `+      "resolved": "https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${v2}.tgz",`,
      keep: false,
    });
    lines.push({ text: `+      "integrity": "sha512-${rng.alnum(86)}==",`, keep: false });
    lines.push({ text: '       "dev": true,', keep: false });
    lines.push({ text: '       "dependencies": {', keep: false });
    at += rng.int(20, 400);
  }
  return { path: 'package-lock.json', lines };
}

function configFile(rng: Rng): FileDiff {
  const key = `${rng.pick(NOUNS)}_${rng.pick(['timeout', 'limit', 'replicas', 'ttl'])}`;
  const path = rng.pick([
    'config/default.yaml',
    'deploy/values.yaml',
    '.github/workflows/ci.yml',
    'helm/values-prod.yaml',
  ]);
  const old = rng.int(1, 60);
  const at = rng.int(3, 80);
  return {
    path,
    lines: [
      { text: `diff --git a/${path} b/${path}`, keep: true },
      { text: `index ${rng.hex(7)}..${rng.hex(7)} 100644`, keep: false },
      { text: `--- a/${path}`, keep: false },
      { text: `+++ b/${path}`, keep: false },
      {
        text: `@@ -${at},5 +${at},5 @@ ${rng.pick(['server:', 'resources:', 'jobs:', 'cache:'])}`,
        keep: false,
      },
      { text: `   ${rng.pick(NOUNS)}:`, keep: false },
      { text: `     enabled: true`, keep: false },
      { text: `-    ${key}: ${old}`, keep: true },
      { text: `+    ${key}: ${old * rng.pick([2, 3, 10])}`, keep: true },
      {
        text: `     ${rng.pick(NOUNS)}: ${rng.pick(['"info"', 'true', String(rng.int(1, 9))])}`,
        keep: false,
      },
    ],
  };
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const python = index % 2 === 1;
  const project = projectName(rng);
  const pkg = project.replace(/-/g, '_');
  const mode = rng.pick(['diff', 'cached', 'show', 'range'] as const);
  const files: FileDiff[] = [];
  const nCode = scale === 'small' ? 1 : scale === 'medium' ? rng.int(1, 3) : rng.int(3, 6);
  for (let i = 0; i < nCode; i++) {
    const path = python
      ? `src/${pkg}/${snake([rng.pick(NOUNS)])}.py`
      : `src/${rng.pick(['lib', 'services', 'api'])}/${camel([rng.pick(NOUNS)])}.ts`;
    if (files.some((f) => f.path === path)) continue;
    files.push(
      codeFile(
        rng,
        path,
        python,
        scale === 'small' ? rng.int(30, 60) : rng.int(80, 300),
        scale === 'small' ? rng.int(1, 2) : rng.int(2, 6),
      ),
    );
  }
  if (!python && rng.chance(0.5)) files.push(packageJsonFile(rng));
  if (!python && (scale === 'large' || scale === 'huge'))
    files.push(lockfileFile(rng, scale === 'huge' ? rng.int(1500, 2200) : rng.int(200, 600)));
  if (rng.chance(0.4)) files.push(configFile(rng));
  if (rng.chance(0.2)) {
    const from = python ? `src/${pkg}/${rng.pick(NOUNS)}_utils.py` : `src/lib/${rng.pick(NOUNS)}Utils.ts`;
    const to = from.replace(/utils|Utils/, (m) => (m === 'utils' ? 'helpers' : 'Helpers'));
    files.push({
      path: to,
      lines: [
        { text: `diff --git a/${from} b/${to}`, keep: true },
        { text: `similarity index ${rng.int(88, 100)}%`, keep: false },
        { text: `rename from ${from}`, keep: true },
        { text: `rename to ${to}`, keep: true },
      ],
    });
  }
  if (rng.chance(0.15)) {
    const img = `docs/img/${rng.pick(NOUNS)}-${rng.pick(['diagram', 'screenshot', 'flow'])}.png`;
    files.push({
      path: img,
      lines: [
        { text: `diff --git a/${img} b/${img}`, keep: false },
        { text: 'new file mode 100644', keep: false },
        { text: `index 0000000..${rng.hex(7)}`, keep: false },
        { text: `Binary files /dev/null and b/${img} differ`, keep: false },
      ],
    });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));

  const cmd = {
    diff: 'git diff',
    cached: 'git diff --cached',
    show: `git show ${rng.hex(7)}`,
    range: `git diff ${rng.pick(['main', 'origin/main', 'develop'])}...HEAD`,
  }[mode];
  if (rng.chance(0.7)) out.add(`$ ${cmd}`);
  if (mode === 'show') {
    const who = person(rng);
    const clock = Clock.within(rng);
    out.add(`commit ${rng.hex(40)}`);
    out.add(`Author: ${who.name} <${who.email}>`);
    out.add(`Date:   ${clock.git(rng.pick([0, 60, 120, -300, -420, 330]))}`);
    out.add('');
    out.add(`    ${commitSubject(rng, rng.pick(NOUNS))}`);
    if (rng.chance(0.5)) {
      out.add('');
      out.add(
        `    ${phrase(rng)}; ${camel(functionWords(rng))} now ${rng.pick(['validates its input', 'retries on 429', 'uses UTC', 'returns early when empty'])}.`,
      );
    }
    out.add('');
  }
  for (const f of files) for (const l of f.lines) out.add(l.text, l.keep);
  const { text, keep } = out.finish();
  return {
    name: `git-diff-${String(index).padStart(2, '0')}-${mode}`,
    ext: 'diff',
    kind: 'diff',
    text,
    keep,
    task: 'review the change before committing it',
    why: `${files.length} file(s) changed: the changed lines of hand-written files and their diff headers; lockfile churn and binary notices are not decisive`,
  };
}

/** The git-diff family. */
export const gitDiffFamily: Family = {
  name: 'git-diff',
  scales: ['medium', 'small', 'medium', 'large', 'small', 'medium', 'small', 'medium', 'huge', 'small'],
  generate,
};
