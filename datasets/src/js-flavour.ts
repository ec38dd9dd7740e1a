import type { Rng } from './prng.js';
import {
  camel,
  functionWords,
  NOUNS,
  pascal,
  plural,
  QUALIFIERS,
  thirdPerson,
  typeWords,
  VERBS,
} from './vocab-words.js';

/** A small model of a TypeScript project and the ways its code fails at run time. */

/** One TS project as a test runner sees it. */
export interface JsProject {
  readonly name: string;
  readonly root: string;
  /** Source files relative to the root, e.g. `src/services/invoice.ts`. */
  readonly sources: readonly string[];
}

/** A project with `count` distinct source files (default a handful) in one of the usual layouts. */
export function jsProject(rng: Rng, name: string, count = rng.int(6, 14)): JsProject {
  const root = rng.pick([
    `/home/runner/work/${name}/${name}`,
    `/app`,
    `/workspace/${name}`,
    `/Users/${rng.pick(['sam', 'lee', 'ana'])}/code/${name}`,
  ]);
  const dirs = rng.sample(
    [
      'services',
      'lib',
      'utils',
      'api',
      'domain',
      'handlers',
      'store',
      'components',
      'hooks',
      'features',
      'server',
      'models',
    ],
    rng.int(2, 5),
  );
  const ext = rng.pick(['ts', 'ts', 'tsx', 'js']);
  const sources = new Set<string>();
  for (let guard = 0; sources.size < count && guard < count * 50; guard++) {
    const sub = sources.size > 30 && rng.chance(0.6) ? `${rng.pick(NOUNS)}/` : '';
    const suffix = rng.chance(0.3)
      ? [rng.pick(['service', 'store', 'client', 'utils', 'helpers', 'reducer'])]
      : [];
    sources.add(`src/${rng.pick(dirs)}/${sub}${camel([rng.pick(NOUNS), ...suffix])}.${ext}`);
  }
  return { name, root, sources: [...sources] };
}

/** The test file for a source file, in the project's convention. */
export function testFileFor(source: string, convention: number): string {
  const dot = source.lastIndexOf('.');
  const base = source.slice(0, dot);
  const ext = source.slice(dot + 1);
  if (convention === 0) return `${base}.test.${ext}`;
  if (convention === 1) return `${base}.spec.${ext}`;
  const slash = base.lastIndexOf('/');
  return `${base.slice(0, slash)}/__tests__/${base.slice(slash + 1)}.test.${ext}`;
}

/** A `describe`/`it` title such as `applies discount before tax`. */
export function itTitle(rng: Rng): string {
  return rng.pick([
    `${thirdPerson(rng.pick(VERBS))} ${rng.pick(QUALIFIERS)} ${plural(rng.pick(NOUNS))}`,
    `returns ${rng.pick(['null', 'an empty list', 'the cached value', 'a 404', 'false'])} when ${rng.pick(NOUNS)} is ${rng.pick(['missing', 'expired', 'empty', 'locked'])}`,
    `should ${rng.pick(VERBS)} the ${rng.pick(NOUNS)}`,
    `handles ${rng.pick(QUALIFIERS)} ${rng.pick(NOUNS)} ${rng.pick(['gracefully', 'correctly', 'without throwing'])}`,
    rng.chance(0.5)
      ? `does not ${rng.pick(VERBS)} ${plural(rng.pick(NOUNS))} twice`
      : `never ${thirdPerson(rng.pick(VERBS))} ${plural(rng.pick(NOUNS))} twice`,
    `renders ${rng.pick(NOUNS)} ${rng.pick(['list', 'badge', 'header', 'form'])}`,
  ]);
}

/** A describe-block name: a class, a function, or a phrase. */
export function describeTitle(rng: Rng): string {
  return rng.pick([
    pascal(typeWords(rng)),
    camel(functionWords(rng)),
    `${rng.pick(NOUNS)} ${rng.pick(['flow', 'api', 'reducer', 'helpers'])}`,
  ]);
}

/** One statement with a TypeScript flavour, for code frames. */
export function tsStatement(rng: Rng): string {
  const v = rng.pick(NOUNS);
  const w = rng.pick(NOUNS);
  const fn = camel(functionWords(rng));
  return rng.pick([
    `const ${v} = await ${fn}(${w});`,
    `const ${v} = ${fn}(${w}, { strict: ${rng.pick(['true', 'false'])} });`,
    `expect(${v}).toBeDefined();`,
    `const ${camel([rng.pick(QUALIFIERS), v])} = ${plural(w)}.filter((x) => x.${rng.pick(QUALIFIERS)});`,
    `${v}.${camel([rng.pick(VERBS), w])}();`,
    `const { ${v}, ${w} } = setup();`,
    `mock${pascal([w])}.mockResolvedValueOnce({ id: ${rng.int(1, 999)} });`,
    `jest.spyOn(${w}Client, '${fn}').mockReturnValue(${rng.pick(['null', '[]', 'undefined', '42'])});`,
  ]);
}
