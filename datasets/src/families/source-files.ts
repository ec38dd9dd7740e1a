import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { pyModule } from '../py-source.js';
import { tsModule } from '../ts-source.js';
import { camel, NOUNS, plural, projectName, QUALIFIERS } from '../vocab-words.js';

/**
 * Source files as an agent reads them before an edit: TypeScript and Python modules from the grammars in
 * ts-source.ts and py-source.ts, each with one planted bug that a reported symptom points at. Kept lines:
 * the signature of the function the symptom names and the line that causes it — what the agent's edit
 * will target.
 */

const SCALE_LINES: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [25, 70],
  medium: [120, 380],
  large: [480, 900],
  huge: [1200, 1600],
};

interface Bug {
  readonly line: string;
  readonly symptom: string;
}

function tsBug(rng: Rng, fn: string): Bug {
  const n = rng.pick(NOUNS);
  const bugs: Bug[] = [
    {
      line: `const page = ${plural(n)}.slice(offset, offset + limit - 1);`,
      symptom: `${fn}() returns one ${n} fewer than the requested limit`,
    },
    {
      line: `if (attempt > maxAttempts) throw new RetryExhaustedError(\`gave up after \${attempt} attempts\`);`,
      symptom: `${fn}() makes one attempt more than maxAttempts`,
    },
    {
      line: `const expiresAt = Date.now() + ttlSeconds;`,
      symptom: `entries written by ${fn}() expire almost immediately (ttl treated as milliseconds)`,
    },
    {
      line: `const saved = repo.save(${n});`,
      symptom: `${fn}() resolves before the ${n} is persisted (missing await)`,
    },
    { line: `const day = createdAt.getDay();`, symptom: `${fn}() groups by weekday instead of day of month` },
    {
      line: `const total = ${plural(n)}.reduce((sum, x) => sum + x.amount, 1);`,
      symptom: `${fn}() totals are off by one cent`,
    },
  ];
  return rng.pick(bugs);
}

function pyBug(rng: Rng, fn: string): Bug {
  const n = rng.pick(NOUNS);
  const bugs: Bug[] = [
    {
      line: `page = ${plural(n)}[offset:offset + limit - 1]`,
      symptom: `${fn}() returns one ${n} fewer than the requested limit`,
    },
    { line: 'if attempt > max_attempts:', symptom: `${fn}() retries one time more than max_attempts` },
    {
      line: 'expires_at = time.time() + ttl_ms',
      symptom: `cache entries set by ${fn}() live 1000x too long (ttl in ms added to seconds)`,
    },
    {
      line: 'now = datetime.datetime.now()',
      symptom: `${fn}() raises "can't compare offset-naive and offset-aware datetimes"`,
    },
    {
      line: `return sorted(${plural(n)}, key=lambda x: x.created_at)`,
      symptom: `${fn}() lists oldest first; the API promises newest first`,
    },
    {
      line: `total = sum(x.amount for x in ${plural(n)}) / len(${plural(n)})`,
      symptom: `${fn}() raises ZeroDivisionError for an empty batch`,
    },
  ];
  const bug = rng.pick(bugs);
  // An `if` line needs a body to stay valid Python.
  return bug.line.endsWith(':')
    ? { line: `${bug.line} raise RetryExhausted(attempt)`, symptom: bug.symptom }
    : bug;
}

function plant(
  rng: Rng,
  lines: string[],
  signatureLine: number,
  endLine: number,
  python: boolean,
  bugLine: string,
): number {
  const sig = lines[signatureLine - 1]!;
  const indent = `${sig.match(/^ */)![0]}${python ? '    ' : '  '}`;
  const safe: number[] = [];
  for (let l = signatureLine + 1; l < endLine; l++) {
    const prev = lines[l - 1]!;
    if (
      prev.startsWith(indent) &&
      !prev.startsWith(`${indent} `) &&
      !prev.trimStart().startsWith('return') &&
      !prev.trimEnd().endsWith(':') &&
      !prev.trimEnd().endsWith('{') &&
      !prev.trimStart().startsWith('"""')
    )
      safe.push(l);
  }
  const at = safe.length > 0 ? rng.pick(safe) : signatureLine;
  lines.splice(at, 0, `${indent}${bugLine}`);
  return at + 1;
}

function generateSource(rng: Rng, scale: Scale, index: number, python: boolean): ToolOutputDraft {
  const [lo, hi] = SCALE_LINES[scale];
  const project = projectName(rng);
  const pkg = project.replace(/-/g, '_');
  const mod = python ? pyModule(rng, rng.int(lo, hi), pkg) : tsModule(rng, rng.int(lo, hi));
  const target = rng.pick(mod.functions);
  const short = target.name.split('.').pop()!;
  const bug = python ? pyBug(rng, short) : tsBug(rng, short);
  const lines = mod.lines.slice();
  const bugLine = plant(rng, lines, target.signatureLine, target.endLine, python, bug.line);
  const out = new LabelledText();
  lines.forEach((l, i) => {
    out.add(l, i + 1 === target.signatureLine || i + 1 === bugLine);
  });
  const { text, keep } = out.finish();
  const words = [
    rng.pick(NOUNS),
    ...(rng.chance(0.4) ? [rng.pick(['service', 'store', 'client', 'utils', rng.pick(QUALIFIERS)])] : []),
  ];
  return {
    name: `${String(index).padStart(2, '0')}-${python ? words.join('_') : camel(words)}`,
    ext: python ? 'py' : 'ts',
    kind: 'source',
    text,
    keep,
    task: `fix the bug reported as: ${bug.symptom}`,
    why: `the signature of ${target.name} and the line that causes the reported behaviour`,
  };
}

/** TypeScript sources. */
export const sourceTsFamily: Family = {
  name: 'source-ts',
  scales: ['medium', 'small', 'large', 'medium', 'medium', 'small', 'large'],
  generate: (rng, scale, index) => generateSource(rng, scale, index, false),
};

/** Python sources. */
export const sourcePyFamily: Family = {
  name: 'source-py',
  scales: ['medium', 'large', 'small', 'medium', 'small', 'medium', 'large'],
  generate: (rng, scale, index) => generateSource(rng, scale, index, true),
};
