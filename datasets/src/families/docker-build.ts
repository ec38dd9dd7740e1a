import { Clock } from '../clock.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { humanBytes } from '../text-layout.js';
import { PYTHON_VERSIONS, pyMinor } from '../vocab-ecosystems.js';
import { imageRef } from '../vocab-infra.js';
import { camel, functionWords, NOUNS, projectName } from '../vocab-words.js';
import { type NpmOutcome, renderNpmInstall } from './npm-install.js';
import { type PipOutcome, renderPipInstall } from './pip-install.js';

/**
 * `docker build` output in BuildKit's plain-progress style (`#8 1.203 …`) and the legacy builder's
 * `Step 4/9 :` style, for Python, Node and Go images. Step bodies reuse the pip and npm renderers and add
 * apt and compiler output. Kept lines: the failing step's header, the error lines inside it (and their
 * echo in the `------` summary), the `>>>` Dockerfile line and the final `ERROR: failed to solve` /
 * `returned a non-zero code` line; on success the line naming the built image.
 */

type Stack = 'python' | 'node' | 'go';
type Failure = 'none' | 'install' | 'compile' | 'copy' | 'apt';

interface Step {
  instr: string;
  python?: string;
  body: 'apt' | 'pip' | 'npm' | 'gomod' | 'compile' | 'none';
  stage: number;
}

function dockerfile(rng: Rng, stack: Stack): Step[] {
  if (stack === 'python') {
    const python = rng.pick(PYTHON_VERSIONS);
    const py = pyMinor(python);
    return [
      {
        instr: `FROM python:${py}-${rng.pick(['slim', 'slim-bookworm', 'bookworm'])}`,
        body: 'none',
        stage: 0,
      },
      { instr: 'ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1', body: 'none', stage: 0 },
      {
        instr: `RUN apt-get update && apt-get install -y --no-install-recommends ${rng.sample(['build-essential', 'libpq-dev', 'curl', 'git', 'libffi-dev', 'gcc', 'libxml2-dev', 'tini'], rng.int(2, 4)).join(' ')} && rm -rf /var/lib/apt/lists/*`,
        body: 'apt',
        stage: 0,
      },
      { instr: 'WORKDIR /app', body: 'none', stage: 0 },
      { instr: 'COPY requirements.txt .', body: 'none', stage: 0 },
      { instr: 'RUN pip install --no-cache-dir -r requirements.txt', body: 'pip', stage: 0, python },
      { instr: 'COPY . .', body: 'none', stage: 0 },
      { instr: `RUN python -m compileall -q ${rng.pick(['src', 'app', '.'])}`, body: 'compile', stage: 0 },
    ];
  }
  if (stack === 'node') {
    const node = rng.pick(['18', '20', '22']);
    return [
      {
        instr: `FROM node:${node}-${rng.pick(['alpine', 'bookworm-slim', 'alpine3.19'])} AS build`,
        body: 'none',
        stage: 0,
      },
      { instr: 'WORKDIR /app', body: 'none', stage: 0 },
      { instr: 'COPY package.json package-lock.json ./', body: 'none', stage: 0 },
      { instr: `RUN ${rng.pick(['npm ci', 'npm ci --omit=dev', 'npm install'])}`, body: 'npm', stage: 0 },
      { instr: 'COPY . .', body: 'none', stage: 0 },
      { instr: `RUN npm run build`, body: 'compile', stage: 0 },
      {
        instr: `FROM ${rng.pick(['nginx:1.27-alpine', 'node:' + node + '-alpine', 'gcr.io/distroless/nodejs' + node + '-debian12'])}`,
        body: 'none',
        stage: 1,
      },
      {
        instr: `COPY --from=build /app/dist ${rng.pick(['/usr/share/nginx/html', '/app/dist'])}`,
        body: 'none',
        stage: 1,
      },
    ];
  }
  return [
    {
      instr: `FROM golang:1.${rng.int(21, 23)}-${rng.pick(['alpine', 'bookworm'])} AS build`,
      body: 'none',
      stage: 0,
    },
    { instr: 'WORKDIR /src', body: 'none', stage: 0 },
    { instr: 'COPY go.mod go.sum ./', body: 'none', stage: 0 },
    { instr: 'RUN go mod download', body: 'gomod', stage: 0 },
    { instr: 'COPY . .', body: 'none', stage: 0 },
    {
      instr: `RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/server ./cmd/${rng.pick(['server', 'api', 'worker'])}`,
      body: 'compile',
      stage: 0,
    },
    { instr: 'FROM gcr.io/distroless/static-debian12', body: 'none', stage: 1 },
    { instr: 'COPY --from=build /out/server /server', body: 'none', stage: 1 },
  ];
}

function stamp(t: number): string {
  return t < 10 ? t.toFixed(3) : t < 100 ? t.toFixed(2) : t.toFixed(1);
}

function aptBody(rng: Rng, out: LabelledText, fail: boolean, instr: string): void {
  const dist = rng.pick(['bookworm', 'bullseye']);
  let i = 1;
  for (const repo of [`${dist}`, `${dist}-updates`, `${dist}-security`]) {
    out.add(
      `Get:${i++} http://deb.debian.org/debian${repo.endsWith('security') ? '-security' : ''} ${repo} InRelease [${rng.int(40, 160)} kB]`,
    );
  }
  out.add(`Get:${i++} http://deb.debian.org/debian ${dist}/main amd64 Packages [${rng.int(8000, 8800)} kB]`);
  out.add(
    `Fetched ${(rng.float(8, 10)).toFixed(1)} MB in ${rng.int(1, 4)}s (${(rng.float(2, 9)).toFixed(1)} MB/s)`,
  );
  out.add('Reading package lists...');
  out.add('Reading package lists...');
  out.add('Building dependency tree...');
  out.add('Reading state information...');
  if (fail) {
    const bad = rng.pick(['libpq5-dev', 'python3-distutils', 'libssl1.1', 'libgdal-dev3']);
    out.add(`E: Unable to locate package ${bad}`, true);
    return;
  }
  const pkgs = instr.split('--no-install-recommends ')[1]?.split(' &&')[0]?.split(' ') ?? [];
  out.add('The following additional packages will be installed:');
  out.add(
    `  ${['binutils', 'cpp', 'dpkg-dev', 'g++', 'libc6-dev', 'libgcc-12-dev', 'make', 'patch'].slice(0, rng.int(3, 8)).join(' ')}`,
  );
  out.add(`0 upgraded, ${rng.int(10, 60)} newly installed, 0 to remove and 0 not upgraded.`);
  out.add(`Need to get ${rng.int(20, 90)}.${rng.int(0, 9)} MB of archives.`);
  for (let k = rng.int(10, 40); k > 0; k--) {
    const p = rng.pick([
      'libgcc-12-dev',
      'binutils-common',
      'libc6-dev',
      'linux-libc-dev',
      'libpq5',
      'libisl23',
      'libmpc3',
      'cpp-12',
      'libstdc++-12-dev',
      ...pkgs,
    ]);
    out.add(
      `Get:${i++} http://deb.debian.org/debian ${dist}/main amd64 ${p} amd64 ${rng.int(1, 15)}.${rng.int(0, 9)}-${rng.int(1, 9)} [${rng.int(20, 9000)} kB]`,
    );
  }
  out.add('debconf: delaying package configuration, since apt-utils is not installed');
  for (let k = rng.int(8, 30); k > 0; k--) {
    const p = rng.pick(['libgcc-12-dev', 'binutils', 'libc6-dev', 'libpq5:amd64', 'make', 'cpp-12', ...pkgs]);
    out.add(
      rng.pick([
        `Selecting previously unselected package ${p}.`,
        `Unpacking ${p} (${rng.int(1, 15)}.${rng.int(0, 9)}-${rng.int(1, 9)}) ...`,
        `Setting up ${p} (${rng.int(1, 15)}.${rng.int(0, 9)}-${rng.int(1, 9)}) ...`,
      ]),
    );
  }
  out.add('Processing triggers for libc-bin (2.36-9+deb12u7) ...');
}

function compileBody(rng: Rng, out: LabelledText, stack: Stack, fail: boolean): void {
  if (stack === 'node') {
    out.add('');
    out.add(`> ${projectName(rng)}@${rng.int(0, 3)}.${rng.int(0, 9)}.0 build`);
    out.add(`> ${rng.pick(['tsc -p tsconfig.build.json', 'vite build', 'tsc && vite build'])}`);
    out.add('');
    if (fail) {
      const file = `src/${rng.pick(['api', 'lib', 'routes'])}/${camel([rng.pick(NOUNS)])}.ts`;
      const line = rng.int(5, 300);
      const v = camel(functionWords(rng));
      out.add(`${file}(${line},${rng.int(3, 40)}): error TS2304: Cannot find name '${v}'.`, true);
      if (rng.chance(0.5))
        out.add(
          `${file}(${line + rng.int(1, 30)},${rng.int(3, 40)}): error TS2339: Property '${rng.pick(NOUNS)}Id' does not exist on type '${rng.pick(['Request', 'Invoice', 'Session'])}'.`,
          true,
        );
      return;
    }
    for (let k = rng.int(2, 12); k > 0; k--)
      out.add(
        `dist/assets/${rng.pick(NOUNS)}-${rng.alnum(8)}.js   ${rng.float(0.5, 400).toFixed(2)} kB │ gzip: ${rng.float(0.2, 120).toFixed(2)} kB`,
      );
    out.add(`✓ built in ${rng.float(1, 30).toFixed(2)}s`);
    return;
  }
  if (stack === 'go') {
    if (fail) {
      const pkg = `${rng.pick(['internal', 'pkg'])}/${rng.pick(NOUNS)}`;
      out.add(`# example.com/${projectName(rng)}/${pkg}`);
      const line = rng.int(5, 400);
      const v = camel(functionWords(rng));
      out.add(`${pkg}/${rng.pick(NOUNS)}.go:${line}:${rng.int(2, 40)}: undefined: ${v}`, true);
      if (rng.chance(0.5))
        out.add(
          `${pkg}/${rng.pick(NOUNS)}.go:${rng.int(5, 400)}:${rng.int(2, 40)}: cannot use ${rng.pick(NOUNS)} (variable of type int) as string value in argument to ${v}`,
          true,
        );
    }
    return;
  }
  if (fail) {
    const file = `${rng.pick(['src', 'app'])}/${rng.pick(NOUNS)}.py`;
    out.add(`*** Error compiling './${file}'...`, true);
    out.add(`  File "./${file}", line ${rng.int(5, 300)}`);
    out.add(`    ${rng.pick(['match event.kind:', 'def f(x, /, y):', 'print "done"'])}`);
    out.add('    ^');
    out.add('SyntaxError: invalid syntax', true);
  }
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const stack = (['python', 'node', 'go'] as const)[index % 3]!;
  const steps = dockerfile(rng, stack);
  const failure: Failure = (
    ['install', 'none', 'compile', 'install', 'apt', 'copy', 'none', 'install', 'compile'] as const
  )[index % 9]!;
  const legacy = rng.chance(0.2);
  const name = projectName(rng);
  const tag = imageRef(rng, name);
  const failIdx = steps.findIndex((s) =>
    failure === 'install'
      ? s.body === 'pip' || s.body === 'npm' || s.instr === 'RUN go mod download'
      : failure === 'compile'
        ? s.body === 'compile'
        : failure === 'apt'
          ? s.body === 'apt'
          : failure === 'copy'
            ? s.instr.startsWith('COPY --from') || s.instr === 'COPY . .'
            : false,
  );
  const dockerLines: string[] = [];
  const lineOf: number[] = [];
  steps.forEach((s, i) => {
    if (i > 0 && (s.instr.startsWith('FROM') || rng.chance(0.3))) dockerLines.push('');
    if (rng.chance(0.15))
      dockerLines.push(
        `# ${rng.pick(['install deps first for better caching', 'runtime image', 'build', 'keep the image small'])}`,
      );
    lineOf.push(dockerLines.length + 1);
    dockerLines.push(s.instr);
  });
  const bigInstall = scale;

  out.add(
    `$ docker build ${rng.pick(['-t', '--tag'])} ${tag} ${rng.pick(['.', '-f Dockerfile .', '--progress=plain .', '--platform linux/amd64 .'])}`,
  );
  let failed = false;
  if (legacy) {
    out.add('DEPRECATED: The legacy builder is deprecated and will be removed in a future release.');
    out.add('            Install the buildx component to build images with BuildKit:');
    out.add('            https://docs.docker.com/go/buildx/');
    out.add('');
    out.add(
      `Sending build context to Docker daemon  ${humanBytes(rng.int(20_000, 90_000_000)).replace(' ', '')}`,
    );
    for (let i = 0; i < steps.length && !failed; i++) {
      const s = steps[i]!;
      const isFail = i === failIdx;
      out.add(`Step ${i + 1}/${steps.length} : ${s.instr}`, isFail);
      if (s.instr.startsWith('FROM') && rng.chance(0.5)) {
        out.add(
          `${s.instr.split(' ')[1]!.split(':')[1]}: Pulling from library/${s.instr.split(' ')[1]!.split(':')[0]}`,
        );
        for (let k = rng.int(2, 6); k > 0; k--) out.add(`${rng.hex(12)}: Pull complete`);
        out.add(`Digest: sha256:${rng.hex(64)}`);
        out.add(`Status: Downloaded newer image for ${s.instr.split(' ')[1]}`);
      }
      if (s.body !== 'none' || (isFail && failure === 'copy')) {
        if (isFail && failure === 'copy') {
          out.add(
            `COPY failed: file not found in build context or excluded by .dockerignore: stat ${s.instr.split(' ')[1]}: file does not exist`,
            true,
          );
          failed = true;
          break;
        }
        out.add(` ---> Running in ${rng.hex(12)}`);
        failed = renderBody(rng, out, s, stack, isFail, bigInstall, failure);
        if (failed) {
          out.add(
            `The command '/bin/sh -c ${s.instr.slice(4)}' returned a non-zero code: ${rng.pick([1, 1, 2, 100])}`,
            true,
          );
          break;
        }
        out.add(`Removing intermediate container ${rng.hex(12)}`);
      } else if (i > 0 && rng.chance(0.4)) {
        out.add(' ---> Using cache');
      }
      out.add(` ---> ${rng.hex(12)}`);
    }
    if (!failed) {
      const id = rng.hex(12);
      out.add(`Successfully built ${id}`);
      out.add(`Successfully tagged ${tag}`, true);
    }
  } else {
    out.add(
      `#0 building with "${rng.pick(['default', 'desktop-linux', 'builder'])}" instance using docker driver`,
    );
    out.add('');
    let n = 1;
    const meta = [
      ...new Set(steps.filter((s) => s.instr.startsWith('FROM')).map((s) => s.instr.split(' ')[1]!)),
    ];
    out.add(`#${n} [internal] load build definition from Dockerfile`);
    out.add(`#${n} transferring dockerfile: ${rng.int(300, 2400)}B done`);
    out.add(`#${n++} DONE 0.0s`);
    out.add('');
    for (const img of meta) {
      out.add(`#${n} [internal] load metadata for ${img.includes('/') ? img : `docker.io/library/${img}`}`);
      out.add(`#${n++} DONE ${rng.float(0.3, 2.5).toFixed(1)}s`);
      out.add('');
    }
    out.add(`#${n} [internal] load .dockerignore`);
    out.add(`#${n} transferring context: ${rng.int(2, 400)}B done`);
    out.add(`#${n++} DONE 0.0s`);
    out.add('');
    const stageCount = new Map<number, number>();
    for (const s of steps) stageCount.set(s.stage, (stageCount.get(s.stage) ?? 0) + 1);
    const seen = new Map<number, number>();
    const cachedUntil = rng.int(0, 3);
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      const k = (seen.get(s.stage) ?? 0) + 1;
      seen.set(s.stage, k);
      const label = `[${stageCount.size > 1 ? `${s.stage === 0 ? (s.instr.includes(' AS ') ? s.instr.split(' AS ')[1] : 'stage-0') : `stage-${s.stage}`} ` : ''}${k}/${stageCount.get(s.stage)}] ${s.instr}`;
      const isFail = i === failIdx;
      const stepNo = n++;
      out.add(`#${stepNo} ${label}`, isFail);
      if (s.instr.startsWith('FROM')) {
        const img = s.instr.split(' ')[1]!;
        const full = img.includes('/') ? img : `docker.io/library/${img}`;
        out.add(`#${stepNo} resolve ${full}@sha256:${rng.hex(64)} ${rng.float(0, 0.1).toFixed(1)}s done`);
        for (let l = rng.int(0, 5); l > 0; l--) {
          const size = rng.int(1_000, 60_000_000);
          out.add(
            `#${stepNo} sha256:${rng.hex(64)} ${humanBytes(size).replace(' ', '')} / ${humanBytes(size).replace(' ', '')} ${rng.float(0.1, 4).toFixed(1)}s done`,
          );
        }
        out.add(`#${stepNo} DONE ${rng.float(0.1, 9).toFixed(1)}s`);
        out.add('');
        continue;
      }
      if (i <= cachedUntil + 1 && failIdx !== i && s.body !== 'compile') {
        out.add(`#${stepNo} CACHED`);
        out.add('');
        continue;
      }
      if (
        (s.instr.startsWith('COPY') || s.instr.startsWith('WORKDIR') || s.instr.startsWith('ENV')) &&
        !isFail
      ) {
        out.add(`#${stepNo} DONE ${rng.float(0, 0.6).toFixed(1)}s`);
        out.add('');
        continue;
      }
      if (isFail && failure === 'copy') {
        const src = s.instr.split(' ')[1]!.replace('--from=build', '').trim() || s.instr.split(' ')[2]!;
        out.add(
          `#${stepNo} ERROR: failed to calculate checksum of ref ${rng.alnum(25)}::${rng.alnum(25)}: "${src.startsWith('/') ? src : `/${src}`}": not found`,
          true,
        );
        out.add('------');
        out.add(` > ${label}:`);
        out.add('------');
        failed = true;
        finishFailure(
          out,
          dockerLines,
          lineOf[i]!,
          `failed to compute cache key: failed to calculate checksum of ref ${rng.alnum(25)}::${rng.alnum(25)}: "${src.startsWith('/') ? src : `/${src}`}": not found`,
        );
        break;
      }
      let t = rng.float(0.05, 0.6);
      out.setPrefix(() => {
        t += rng.logNormal(0.05, 1.2);
        return `#${stepNo} ${stamp(t)} `;
      });
      const before = out.lineCount;
      failed = renderBody(rng, out, s, stack, isFail, bigInstall, failure);
      out.setPrefix(null);
      if (failed) {
        const cmd = `/bin/sh -c ${s.instr.slice(4)}`;
        const code = s.body === 'apt' ? 100 : rng.pick([1, 1, 2]);
        out.add(`#${stepNo} ERROR: process "${cmd}" did not complete successfully: exit code: ${code}`, true);
        out.add('------');
        out.add(` > ${label}:`);
        // BuildKit echoes the last lines of the failing step without the step number.
        const { text } = out.finish();
        const all = text.split('\n');
        const tail = all
          .slice(Math.max(before, all.length - 14), all.length - 4)
          .filter((l) => l.startsWith(`#${stepNo} `));
        for (const l of tail) out.add(l.slice(`#${stepNo} `.length), /ERROR|error|Error|E: /.test(l));
        out.add('------');
        finishFailure(
          out,
          dockerLines,
          lineOf[i]!,
          `process "${cmd}" did not complete successfully: exit code: ${code}`,
        );
        break;
      }
      out.add(`#${stepNo} DONE ${stamp(t + rng.float(0.1, 2))}s`);
      out.add('');
    }
    if (!failed) {
      const e = n;
      out.add(`#${e} exporting to image`);
      out.add(`#${e} exporting layers ${rng.float(0.2, 9).toFixed(1)}s done`);
      out.add(`#${e} writing image sha256:${rng.hex(64)} done`);
      out.add(`#${e} naming to ${tag.includes('/') ? tag : `docker.io/library/${tag}`} done`, true);
      out.add(`#${e} DONE ${rng.float(0.2, 9).toFixed(1)}s`);
    }
  }
  const { text, keep } = out.finish();
  return {
    name: `docker-build-${String(index).padStart(2, '0')}-${stack}-${failed ? failure : 'ok'}`,
    ext: 'log',
    kind: 'tool_output',
    text,
    keep,
    task: failed ? 'find why the image build fails' : 'build the image and report its tag',
    why: failed
      ? `the ${failure} step fails: its step header, the error lines inside it and in the summary, the Dockerfile line marked >>> and the final error`
      : 'the build succeeded: the line naming or tagging the image',
  };
}

function renderBody(
  rng: Rng,
  out: LabelledText,
  s: Step,
  stack: Stack,
  isFail: boolean,
  scale: Scale,
  failure: Failure,
): boolean {
  if (s.body === 'apt') {
    aptBody(rng, out, isFail && failure === 'apt', s.instr);
    return isFail && failure === 'apt';
  }
  if (s.body === 'pip') {
    const outcome: PipOutcome = isFail ? rng.pick<PipOutcome>(['conflict', 'no-match', 'build']) : 'ok';
    const python = s.python ?? rng.pick(PYTHON_VERSIONS);
    return !renderPipInstall(rng, out, { scale, outcome, python, bars: false, redraws: false });
  }
  if (s.body === 'npm') {
    const outcome: NpmOutcome = isFail ? rng.pick<NpmOutcome>(['eresolve', 'gyp', 'e404']) : 'ok';
    return !renderNpmInstall(rng, out, {
      scale,
      outcome,
      root: '/app',
      project: projectName(rng),
      clock: Clock.within(rng),
    });
  }
  if (s.body === 'gomod') {
    const n = scale === 'small' ? rng.int(5, 15) : scale === 'medium' ? rng.int(30, 120) : rng.int(300, 900);
    for (let k = 0; k < n; k++) {
      const host = rng.pick([
        'github.com',
        'golang.org/x',
        'google.golang.org',
        'go.opentelemetry.io',
        'gopkg.in',
      ]);
      const mod =
        host === 'golang.org/x'
          ? rng.pick(['net', 'sys', 'text', 'crypto', 'sync', 'mod', 'tools'])
          : `${rng.pick(['spf13', 'stretchr', 'prometheus', 'grpc-ecosystem', 'jackc', 'go-chi', 'rs', 'uber-go'])}/${rng.pick(['cobra', 'testify', 'client_golang', 'grpc-gateway', 'pgx', 'chi', 'zerolog', 'zap', 'viper', 'pflag'])}`;
      out.add(`go: downloading ${host}/${mod} v${rng.int(0, 5)}.${rng.int(0, 40)}.${rng.int(0, 20)}`);
    }
    if (!isFail) return false;
    out.add(
      `go: github.com/${rng.pick(['acme', 'northwind'])}/${projectName(rng)}@v${rng.int(0, 2)}.${rng.int(0, 9)}.${rng.int(0, 9)}: reading https://proxy.golang.org/github.com/${rng.pick(['acme', 'northwind'])}/@v/list: 410 Gone`,
      true,
    );
    return true;
  }
  if (s.body === 'compile') {
    compileBody(rng, out, stack, isFail && failure === 'compile');
    return isFail && failure === 'compile';
  }
  return false;
}

function finishFailure(
  out: LabelledText,
  dockerLines: readonly string[],
  line: number,
  message: string,
): void {
  out.add('Dockerfile:' + line);
  out.add('--------------------');
  const width = String(Math.min(dockerLines.length, line + 2)).length + 1;
  for (let l = Math.max(1, line - 2); l <= Math.min(dockerLines.length, line + 2); l++) {
    const mark = l === line ? '>>>' : '   ';
    out.add(` ${String(l).padStart(width)} | ${mark} ${dockerLines[l - 1]}`.trimEnd(), l === line);
  }
  out.add('--------------------');
  out.add(`ERROR: failed to solve: ${message}`, true);
}

/** The docker-build family. */
export const dockerBuildFamily: Family = {
  name: 'docker-build',
  scales: ['medium', 'small', 'large', 'medium', 'huge', 'small', 'medium', 'large'],
  generate,
};
