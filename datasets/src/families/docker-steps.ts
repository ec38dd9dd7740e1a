import { Clock } from '../clock.js';
import type { LabelledText, Scale } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { PYTHON_VERSIONS, pyMinor } from '../vocab-ecosystems.js';
import { camel, functionWords, NOUNS, projectName } from '../vocab-words.js';
import { type NpmOutcome, renderNpmInstall } from './npm-install.js';
import { type PipOutcome, renderPipInstall } from './pip-install.js';

/**
 * The steps of a docker build: Dockerfiles for Python, Node and Go services and the output each
 * instruction prints (apt, pip, npm, `go mod download`, compilers), failing when asked to.
 */

/** The image's language stack. */
export type Stack = 'python' | 'node' | 'go';

/** Which step breaks the build, if any. */
export type Failure = 'none' | 'install' | 'compile' | 'copy' | 'apt';

/** One Dockerfile instruction and what its output looks like. */
export interface Step {
  instr: string;
  python?: string;
  body: 'apt' | 'pip' | 'npm' | 'gomod' | 'compile' | 'none';
  stage: number;
}

/** The Dockerfile of a typical service for `stack`. */
export function dockerfile(rng: Rng, stack: Stack): Step[] {
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

/** Writes a step's output into `out`; returns true when the step fails. */
export function renderBody(
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
