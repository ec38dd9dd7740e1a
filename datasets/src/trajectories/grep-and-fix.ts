import type { Rng } from '../prng.js';
import { tsModule } from '../ts-source.js';
import { camel, NOUNS } from '../vocab-words.js';
import type { TrajectoryBuilder } from './catalog.js';
import { TurnLog } from './turn-log.js';

/**
 * A search-and-replace loop over a generated TypeScript repository: ripgrep for a deprecated option, read
 * the first hit, edit every call site the search reported (using the exact line ripgrep printed as the
 * edit target), search again to confirm only the declaration and the changelog remain, then type-check
 * and test. The search output is computed from the generated files, so line numbers and text agree.
 */

const SYSTEM = `You are a coding agent in a TypeScript monorepo (pnpm, vitest).

Tools:
- bash(command): run a shell command in the repository root.
- read_file(path): return a file's content.
- edit_file(path, old_str, new_str): replace the one occurrence of old_str with new_str.

Keep changes minimal and run the type-check and the tests before you finish.`;

interface RepoFile {
  path: string;
  lines: string[];
}

function search(files: readonly RepoFile[], pattern: string): string {
  const out: string[] = [];
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const hits = f.lines.map((l, i) => [i + 1, l] as const).filter(([, l]) => l.includes(pattern));
    if (hits.length === 0) continue;
    out.push(f.path);
    for (const [n, l] of hits) out.push(`${n}:${l}`);
    out.push('');
  }
  return out.join('\n').trimEnd();
}

function build(rng: Rng): ReturnType<TrajectoryBuilder['build']> {
  const fn = 'fetchInvoice';
  const option = 'legacyRetry';
  const files: RepoFile[] = [];
  const dirs = ['src/billing', 'src/api/routes', 'src/jobs', 'src/webhooks', 'packages/client/src'];
  const used = new Set<string>();
  while (files.length < 9) {
    const path = `${rng.pick(dirs)}/${camel([rng.pick(NOUNS), rng.pick(['handler', 'job', 'service', 'routes', 'sync'])])}.ts`;
    if (used.has(path)) continue;
    used.add(path);
    files.push({ path, lines: tsModule(rng, rng.int(40, 140)).lines });
  }
  const declaration: RepoFile = {
    path: 'src/billing/invoiceClient.ts',
    lines: [
      "import { request } from '../http/request.js';",
      '',
      'export interface FetchInvoiceOptions {',
      '  timeoutMs?: number;',
      "  /** @deprecated since 4.2: use `retry: { mode: 'legacy' }`; removed in 5.0. */",
      `  ${option}?: boolean;`,
      "  retry?: { mode: 'exponential' | 'legacy'; attempts?: number };",
      '}',
      '',
      `export async function ${fn}(id: string, opts: FetchInvoiceOptions = {}): Promise<Invoice> {`,
      `  const retry = opts.retry ?? (opts.${option} ? { mode: 'legacy' as const } : { mode: 'exponential' as const });`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text, not a template
      '  return request(`/v2/invoices/${id}`, { timeoutMs: opts.timeoutMs ?? 5000, retry });',
      '}',
    ],
  };
  const changelog: RepoFile = {
    path: 'CHANGELOG.md',
    lines: [
      '# Changelog',
      '',
      '## 4.2.0',
      '',
      `- Deprecate \`${option}\` in \`${fn}\`; pass \`retry: { mode: 'legacy' }\` instead. It will be removed in 5.0.`,
      '',
    ],
  };
  // Three call sites still pass the option; two others already use the new form.
  const sites = rng.sample(files, 5);
  const edits: { file: RepoFile; old: string; new: string }[] = [];
  sites.forEach((f, i) => {
    const v = rng.pick(NOUNS);
    const at = rng.int(Math.floor(f.lines.length / 3), f.lines.length - 2);
    const indent = (f.lines[at]?.match(/^ */)?.[0] ?? '  ') || '  ';
    const oldLine =
      i < 3
        ? `${indent}const ${v}Invoice = await ${fn}(${v}.invoiceId, { timeoutMs: ${rng.pick([2000, 5000, 10000])}, ${option}: true });`
        : `${indent}const ${v}Invoice = await ${fn}(${v}.invoiceId, { retry: { mode: 'exponential', attempts: ${rng.int(2, 5)} } });`;
    f.lines.splice(at, 0, oldLine);
    if (i < 3)
      edits.push({
        file: f,
        old: oldLine.trim(),
        new: oldLine.trim().replace(`${option}: true`, "retry: { mode: 'legacy' }"),
      });
  });
  const repo = [...files, declaration, changelog];
  const before = search(repo, option);
  const t = new TurnLog();
  t.system(SYSTEM)
    .user(
      'task',
      `\`${option}\` on ${fn}() is deprecated and goes away in 5.0. Move every caller to \`retry: { mode: 'legacy' }\`.`,
    )
    .call('bash', { command: `rg -n --heading ${option}` });
  const first = edits[0]!;
  t.tool('obs-0', 'bash', 'tool_output', before).call('read_file', { path: first.file.path });
  t.tool('obs-1', 'read_file', 'source', `${first.file.lines.join('\n')}\n`).call('edit_file', {
    path: first.file.path,
    old_str: first.old,
    new_str: first.new,
  });
  edits.forEach((e, i) => {
    const line = e.file.lines.findIndex((l) => l.trim() === e.old) + 1;
    e.file.lines[line - 1] = e.file.lines[line - 1]!.replace(e.old, e.new);
    const result = `The file ${e.file.path} has been edited. Line ${line} now reads:\n${String(line).padStart(6)}\t${e.file.lines[line - 1]}`;
    const next = edits[i + 1];
    const turn = t.tool(`obs-${i + 2}`, 'edit_file', 'tool_output', result);
    if (next) turn.call('edit_file', { path: next.file.path, old_str: next.old, new_str: next.new });
    else turn.call('bash', { command: `rg -n --heading ${option}` });
  });
  const after = search(repo, option);
  const n = edits.length + 2;
  t.tool(`obs-${n}`, 'bash', 'tool_output', after).call('bash', {
    command: 'pnpm tsc --noEmit && pnpm vitest run --reporter=dot',
  });
  const tests = rng.int(180, 420);
  const testFiles = rng.int(30, 60);
  const testOut = [
    '',
    ` RUN  v1.6.0 /workspace/billing-platform`,
    '',
    '·'.repeat(Math.min(tests, 120)),
    '',
    ` Test Files  ${testFiles} passed (${testFiles})`,
    `      Tests  ${tests} passed (${tests})`,
    `   Start at  ${String(rng.int(8, 18)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`,
    `   Duration  ${rng.float(4, 30).toFixed(2)}s (transform ${rng.int(400, 2000)}ms, setup 0ms, collect ${rng.int(900, 5000)}ms, tests ${rng.int(900, 9000)}ms)`,
  ].join('\n');
  t.tool(`obs-${n + 1}`, 'bash', 'tool_output', testOut).final(
    `Moved ${edits.length} callers from ${option}: true to retry: { mode: 'legacy' } (${edits.map((e) => e.file.path).join(', ')}). The only remaining mentions of ${option} are its deprecated declaration in ${declaration.path} and the CHANGELOG entry. Type-check and ${tests} tests pass.`,
  );
  return t.finish('grep-and-fix', 'datasets/generate.ts', 'pass');
}

/** The grep-and-fix loop. */
export const grepAndFix: TrajectoryBuilder = { id: 'grep-and-fix', build };
