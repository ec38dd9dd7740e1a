import { Clock } from '../clock.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { camel, commitSubject, NOUNS, type Person, person, phrase, snake } from '../vocab-words.js';

/**
 * `git log` in its common shapes: the default (with bodies and trailers), `--oneline`, `--stat` and
 * `--graph --oneline` with merges. Each output answers a question about one commit (which change touched
 * a file, which one mentions a ticket, when a setting changed); kept lines are that commit's hash line,
 * its subject and, with `--stat`, the stat line of the file asked about.
 */

const SCALE_COMMITS: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [8, 16],
  medium: [20, 60],
  large: [90, 200],
  huge: [200, 290],
};

interface Commit {
  sha: string;
  author: Person;
  date: string;
  subject: string;
  body: string[];
  files: { path: string; add: number; del: number }[];
  merge: string | null;
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const clock = Clock.within(rng);
  const team = Array.from({ length: rng.int(2, 9) }, () =>
    person(rng, rng.chance(0.5) ? `${rng.pick(['acme', 'northwind', 'globex'])}.com` : undefined),
  );
  const paths = Array.from({ length: rng.int(8, 30) }, () =>
    rng.pick([
      `src/${rng.pick(['lib', 'api', 'core'])}/${camel([rng.pick(NOUNS)])}.ts`,
      `app/${snake([rng.pick(NOUNS)])}.py`,
      `internal/${rng.pick(NOUNS)}/${rng.pick(NOUNS)}.go`,
      'README.md',
      'package.json',
      `.github/workflows/${rng.pick(['ci', 'release', 'deploy'])}.yml`,
    ]),
  );
  const uniquePaths = [...new Set(paths)];
  const [lo, hi] = SCALE_COMMITS[scale];
  const n = rng.int(lo, hi);
  const commits: Commit[] = [];
  for (let i = 0; i < n; i++) {
    clock.rewind(rng.int(600_000, 3 * 86_400_000));
    const files = rng
      .sample(uniquePaths, rng.int(1, 5))
      .map((path) => ({ path, add: rng.int(0, 120), del: rng.int(0, 60) }));
    const isMerge = rng.chance(0.08);
    commits.push({
      sha: rng.hex(40),
      author: rng.pick(team),
      date: clock.git(rng.pick([0, 60, 120, -240, -300, 330, 540])),
      subject: isMerge
        ? `Merge pull request #${rng.int(100, 4000)} from ${rng.pick(['acme', 'northwind'])}/${rng.pick(['fix', 'feat', 'chore'])}/${rng.pick(NOUNS)}-${rng.pick(NOUNS)}`
        : commitSubject(rng, rng.pick(NOUNS)),
      body: rng.chance(0.4)
        ? [
            phrase(rng).replace(/^./, (c) => c.toUpperCase()) + '.',
            ...(rng.chance(0.4)
              ? ['', `Co-authored-by: ${rng.pick(team).name} <${rng.pick(team).email}>`]
              : []),
          ]
        : [],
      files,
      merge: isMerge ? `${rng.hex(7)} ${rng.hex(7)}` : null,
    });
  }
  const style = (['default', 'oneline', 'stat', 'graph'] as const)[index % 4]!;
  const picked = rng.pick(commits.filter((c) => !c.merge));
  const targetFile = rng.pick(picked.files).path;
  // For a file question the answer is the newest commit touching it; log order is newest first.
  const target =
    style === 'stat' ? commits.find((c) => !c.merge && c.files.some((f) => f.path === targetFile))! : picked;
  const cmd = {
    default: 'git log',
    oneline: 'git log --oneline',
    stat: `git log --stat -- ${targetFile.split('/')[0]}`,
    graph: 'git log --graph --oneline --decorate',
  }[style];
  out.add(`$ ${cmd}${rng.chance(0.3) ? ` -n ${n}` : ''}`);
  commits.forEach((c, i) => {
    const isTarget = c === target;
    const short = c.sha.slice(0, 7);
    const deco =
      i === 0 ? ` (HEAD -> ${rng.pick(['main', 'develop', `feat/${rng.pick(NOUNS)}`])}, origin/main)` : '';
    if (style === 'oneline') {
      out.add(`${short}${deco} ${c.subject}`, isTarget);
      return;
    }
    if (style === 'graph') {
      const lane = c.merge ? '*   ' : rng.chance(0.15) ? '| * ' : '* ';
      out.add(`${lane}${short}${deco} ${c.subject}`, isTarget);
      if (c.merge) out.add('|\\  ');
      else if (lane === '| * ' && rng.chance(0.3)) out.add('|/  ');
      return;
    }
    out.add(`commit ${c.sha}${deco}`, isTarget);
    if (c.merge) out.add(`Merge: ${c.merge}`);
    out.add(`Author: ${c.author.name} <${c.author.email}>`);
    out.add(`Date:   ${c.date}`);
    out.add('');
    out.add(`    ${c.subject}`, isTarget);
    if (c.body.length > 0) {
      out.add('');
      for (const b of c.body) out.add(b ? `    ${b}` : '');
    }
    out.add('');
    if (style === 'stat' && !c.merge) {
      const width = Math.max(...c.files.map((f) => f.path.length));
      for (const f of c.files)
        out.add(
          ` ${f.path.padEnd(width)} | ${String(f.add + f.del).padStart(3)} ${'+'.repeat(Math.min(30, Math.ceil(f.add / 4)))}${'-'.repeat(Math.min(20, Math.ceil(f.del / 4)))}`,
          isTarget && f.path === targetFile,
        );
      const adds = c.files.reduce((s, f) => s + f.add, 0);
      const dels = c.files.reduce((s, f) => s + f.del, 0);
      out.add(
        ` ${c.files.length} file${c.files.length > 1 ? 's' : ''} changed, ${adds} insertion${adds === 1 ? '' : 's'}(+), ${dels} deletion${dels === 1 ? '' : 's'}(-)`,
      );
      out.add('');
    }
  });
  const { text, keep } = out.finish();
  const question =
    style === 'stat'
      ? `the most recent commit that changed ${targetFile}`
      : `which commit made the change described as "${target.subject}"`;
  return {
    name: `git-log-${String(index).padStart(2, '0')}-${style}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task: `find ${question}`,
    why: `the hash and subject of commit ${target.sha.slice(0, 7)}${style === 'stat' ? ' and its stat line for the file' : ''}`,
  };
}

/** The git-log family. */
export const gitLogFamily: Family = {
  name: 'git-log',
  scales: ['medium', 'small', 'large', 'medium', 'small', 'medium', 'huge', 'medium'],
  generate,
};
