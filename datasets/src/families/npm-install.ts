import { Clock } from '../clock.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import {
  NODE_VERSIONS,
  NPM_DEPRECATIONS,
  NPM_PACKAGES,
  NPM_VERSIONS,
  versionOf,
} from '../vocab-ecosystems.js';
import { ORGS, projectName } from '../vocab-words.js';

/**
 * `npm install` / `npm ci` output: deprecation warnings, `--loglevel http` fetch lines, funding and audit
 * summaries, and the failures agents meet (ERESOLVE peer conflicts, 404s for private packages, node-gyp
 * build errors, network retries, `npm ci` without a lockfile). npm 10.8 changed `npm ERR!` to
 * `npm error`; both appear. Kept lines: the error code and the lines naming the conflict, the missing
 * package or the failing build step; on success the `added …` line and the vulnerability count.
 */

/** How the install ended. */
export type NpmOutcome = 'ok' | 'eresolve' | 'e404' | 'gyp' | 'network' | 'ci-lockfile';

/** Options for one install. */
export interface NpmInstallOptions {
  readonly scale: Scale;
  readonly outcome: NpmOutcome;
  readonly root: string;
  readonly project: string;
  readonly clock: Clock;
}

/** Writes one npm run into `out`; returns true when it succeeded. */
export function renderNpmInstall(rng: Rng, out: LabelledText, opts: NpmInstallOptions): boolean {
  const npmVersion = rng.pick(NPM_VERSIONS);
  const modern = npmVersion >= '10.8';
  const err = (s: string, keep = false): number =>
    out.add(`npm ${modern ? 'error' : 'ERR!'}${s === '' ? '' : ` ${s}`}`, keep);
  const warn = (s: string): number => out.add(`npm ${modern ? 'warn' : 'WARN'} ${s}`);
  const stamp = opts.clock.iso().replace(/[:.]/g, '_');
  const logPath = `${rng.pick(['/root', '/home/node', '/home/runner', `/Users/${rng.pick(['kai', 'ines'])}`])}/.npm/_logs/${stamp}-debug-0.log`;
  const http = opts.scale === 'large' || opts.scale === 'huge' || rng.chance(0.2);

  if (http) {
    const n =
      opts.scale === 'huge'
        ? rng.int(1500, 2400)
        : opts.scale === 'large'
          ? rng.int(400, 900)
          : rng.int(30, 200);
    for (let i = 0; i < n; i++) {
      const [name, major] = rng.pick(NPM_PACKAGES);
      const enc = name.replace('/', '%2f');
      const cached = rng.weighted([
        ['', 5],
        [' (cache hit)', 3],
        [' (cache revalidated)', 2],
        [' (cache stale)', 1],
      ] as const);
      if (rng.chance(0.6))
        out.add(`npm http fetch GET 200 https://registry.npmjs.org/${enc} ${rng.int(3, 900)}ms${cached}`);
      else
        out.add(
          `npm http fetch GET 200 https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${versionOf(rng, major)}.tgz ${rng.int(3, 1400)}ms${cached}`,
        );
      if (opts.outcome === 'network' && i > n * 0.8 && rng.chance(0.05)) {
        warn(
          `retry will retry, error on last attempt: Error: ${rng.pick(['read ECONNRESET', 'socket hang up', 'connect ETIMEDOUT 104.16.' + rng.int(0, 255) + '.' + rng.int(1, 254) + ':443'])}`,
        );
      }
    }
  }
  if (rng.chance(0.5)) {
    const [pkg, major] = rng.pick(NPM_PACKAGES);
    warn('EBADENGINE Unsupported engine {');
    warn(`EBADENGINE   package: '${pkg}@${versionOf(rng, major)}',`);
    warn(`EBADENGINE   required: { node: '>=${rng.pick(['18.17.0', '20.0.0', '20.9.0', '22.0.0'])}' },`);
    warn(`EBADENGINE   current: { node: '${rng.pick(NODE_VERSIONS)}', npm: '${npmVersion}' }`);
    warn('EBADENGINE }');
  }
  for (const [pkg, msg] of rng.sample(NPM_DEPRECATIONS, rng.int(2, 8))) warn(`deprecated ${pkg}: ${msg}`);

  if (opts.outcome === 'ok') {
    out.add('');
    const added = rng.int(40, 1900);
    const secs = rng.int(2, 180);
    const line = rng.chance(0.2)
      ? `added ${added} packages in ${secs}s`
      : `added ${added} packages, and audited ${added + 1} packages in ${secs < 60 ? `${secs}s` : `${Math.floor(secs / 60)}m`}`;
    out.add(line, true);
    out.add('');
    const fund = rng.int(0, 300);
    if (fund > 0) {
      out.add(`${fund} packages are looking for funding`);
      out.add('  run `npm fund` for details');
      out.add('');
    }
    const vulns = rng.weighted([
      [0, 3],
      [rng.int(1, 30), 2],
    ] as const);
    if (vulns === 0) {
      out.add('found 0 vulnerabilities', true);
      return true;
    }
    const high = rng.int(0, Math.floor(vulns / 2));
    const crit = rng.chance(0.3) ? 1 : 0;
    const parts = [
      `${vulns - high - crit} moderate`,
      high > 0 ? `${high} high` : '',
      crit > 0 ? `${crit} critical` : '',
    ].filter(Boolean);
    out.add(`${vulns} ${vulns === 1 ? 'vulnerability' : 'vulnerabilities'} (${parts.join(', ')})`, true);
    out.add('');
    out.add('To address issues that do not require attention, run:');
    out.add('  npm audit fix');
    out.add('');
    out.add('To address all issues (including breaking changes), run:');
    out.add('  npm audit fix --force');
    out.add('');
    out.add('Run `npm audit` for details.');
    return true;
  }

  if (opts.outcome === 'eresolve') {
    const host = rng.pick(['react', 'react-dom', 'eslint', 'typescript', 'webpack', '@angular/core']);
    const hostMajor =
      host === 'eslint'
        ? 9
        : host === 'typescript'
          ? 5
          : host === 'webpack'
            ? 5
            : host === '@angular/core'
              ? 17
              : 18;
    const hostVersion = `${hostMajor}.${rng.int(0, 3)}.${rng.int(0, 9)}`;
    const dependent = rng.pick([
      'react-beautiful-dnd',
      'eslint-config-airbnb',
      'ts-loader',
      '@storybook/addon-knobs',
      'react-helmet',
      'enzyme-adapter-react-16',
      'eslint-plugin-react-hooks',
    ]);
    const depVersion = `${rng.int(1, 13)}.${rng.int(0, 9)}.${rng.int(0, 9)}`;
    const peer = `^${hostMajor - 2}.0.0 || ^${hostMajor - 1}.0.0`;
    err('code ERESOLVE', true);
    err('ERESOLVE unable to resolve dependency tree', true);
    err('');
    err(`While resolving: ${opts.project}@${rng.int(0, 3)}.${rng.int(0, 12)}.0`);
    err(`Found: ${host}@${hostVersion}`, true);
    err(`node_modules/${host}`);
    err(`  ${host}@"^${hostVersion}" from the root project`);
    if (rng.chance(0.5))
      err(
        `  peer ${host}@">=${hostMajor - 1}" from @testing-library/react@14.${rng.int(0, 3)}.${rng.int(0, 9)}`,
      );
    err('');
    err('Could not resolve dependency:', true);
    err(`peer ${host}@"${peer}" from ${dependent}@${depVersion}`, true);
    err(`node_modules/${dependent}`);
    err(`  ${dependent}@"^${depVersion}" from the root project`);
    err('');
    err('Fix the upstream dependency conflict, or retry');
    err('this command with --force or --legacy-peer-deps');
    err('to accept an incorrect (and potentially broken) dependency resolution.');
    err('');
    err('');
    err('For a full report see:');
    err(logPath.replace('debug-0.log', 'eresolve-report.txt'));
  } else if (opts.outcome === 'e404') {
    const scope = `@${rng.pick(ORGS)}`;
    const name = `${scope}/${projectName(rng)}`;
    err('code E404', true);
    err(`404 Not Found - GET https://registry.npmjs.org/${scope}%2f${name.split('/')[1]} - Not found`, true);
    err('404');
    err(`404  '${name}@^${rng.int(0, 4)}.${rng.int(0, 9)}.0' is not in this registry.`, true);
    err('404');
    err('404 Note that you can also install from a');
    err('404 tarball, folder, http url, or git url.');
  } else if (opts.outcome === 'gyp') {
    const pkg = rng.pick(['bcrypt', 'sharp', 'node-sass', 'canvas', 'better-sqlite3', 're2']);
    const node = rng.pick(NODE_VERSIONS);
    err('code 1', true);
    err(`path ${opts.root}/node_modules/${pkg}`, true);
    err('command failed');
    err(
      `command sh -c ${pkg === 'sharp' ? '(node install/libvips && node install/dll-copy && prebuild-install) || (node install/can-compile && node-gyp rebuild && node install/dll-copy)' : 'node-pre-gyp install --fallback-to-build'}`,
    );
    const gyp = (s: string, keep = false): number => err(`gyp ${s}`, keep);
    gyp('info it worked if it ends with ok');
    gyp(`info using node-gyp@${rng.pick(['9.4.1', '10.0.1', '10.1.0'])}`);
    gyp(`info using node@${node.slice(1)} | linux | x64`);
    gyp(
      `info find Python using Python version 3.${rng.int(8, 12)}.${rng.int(0, 12)} found at "/usr/bin/python3"`,
    );
    if (rng.chance(0.5))
      gyp(`http GET https://nodejs.org/download/release/${node}/node-${node}-headers.tar.gz`);
    gyp('info spawn make');
    gyp("info spawn args [ 'V=1', 'BUILDTYPE=Release', '-C', 'build' ]");
    const missing = rng.pick(['make', 'g++', 'python']);
    if (rng.chance(0.5)) {
      gyp('ERR! build error', true);
      gyp(`ERR! stack Error: not found: ${missing}`, true);
      gyp(
        'ERR! stack     at getNotFoundError (/usr/local/lib/node_modules/npm/node_modules/which/lib/index.js:16:17)',
      );
    } else {
      err(
        `../src/${pkg.replace(/-/g, '_')}.cc:${rng.int(10, 400)}:${rng.int(2, 40)}: fatal error: ${rng.pick(['vips/vips8', 'sqlite3.h', 'cairo.h', 'node_api.h'])}: No such file or directory`,
        true,
      );
      err('compilation terminated.');
      err(
        `make: *** [${pkg}.target.mk:${rng.int(100, 180)}: Release/obj.target/${pkg}/src/${pkg}.o] Error 1`,
        true,
      );
      gyp('ERR! build error');
      gyp('ERR! stack Error: `make` failed with exit code: 2');
    }
    gyp(
      'ERR! stack     at ChildProcess.onExit (/usr/local/lib/node_modules/npm/node_modules/node-gyp/lib/build.js:203:23)',
    );
    gyp(`ERR! System Linux ${rng.pick(['5.15.0-1057-azure', '6.5.0-1018-aws', '6.1.0-18-cloud-amd64'])}`);
    gyp(
      `ERR! command "/usr/local/bin/node" "/usr/local/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js" "rebuild"`,
    );
    gyp(`ERR! cwd ${opts.root}/node_modules/${pkg}`);
    gyp(`ERR! node -v ${node}`);
    gyp(`ERR! node-gyp -v v10.0.1`);
    gyp('ERR! not ok');
  } else if (opts.outcome === 'network') {
    const code = rng.pick(['ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN']);
    const syscall = code === 'EAI_AGAIN' ? 'getaddrinfo' : code === 'ETIMEDOUT' ? 'connect' : 'read';
    err(`code ${code}`, true);
    err(`syscall ${syscall}`);
    err(`errno ${code}`);
    err(
      `network request to https://registry.npmjs.org/${rng.pick(NPM_PACKAGES)[0]} failed, reason: ${syscall} ${code}${code === 'EAI_AGAIN' ? ' registry.npmjs.org' : ''}`,
      true,
    );
    err('network This is a problem related to network connectivity.');
    err('network In most cases you are behind a proxy or have bad network settings.');
    err('network');
    err('network If you are behind a proxy, please make sure that the');
    err("network 'proxy' config is set properly.  See: 'npm help config'");
  } else {
    err('code EUSAGE', true);
    err('');
    err('The `npm ci` command can only install with an existing package-lock.json or', true);
    err('npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or', true);
    err('later to generate a package-lock.json file, then try again.');
    err('');
    err('Clean install a project');
    err('');
    err('Usage:');
    err('npm ci');
  }
  err('');
  err(`A complete log of this run can be found in: ${logPath}`);
  return false;
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const outcome = (
    ['ok', 'eresolve', 'gyp', 'e404', 'ok', 'network', 'eresolve', 'ci-lockfile', 'gyp', 'ok'] as const
  )[index % 10]!;
  const project = projectName(rng);
  const root = rng.pick([
    `/home/runner/work/${project}/${project}`,
    '/app',
    `/usr/src/app`,
    `/workspace/${project}`,
  ]);
  if (rng.chance(0.7))
    out.add(
      `$ ${outcome === 'ci-lockfile' ? 'npm ci' : rng.pick(['npm install', 'npm i', 'npm ci', 'npm install --loglevel http', `npm install ${rng.pick(NPM_PACKAGES)[0]}`])}`,
    );
  const ok = renderNpmInstall(rng, out, { scale, outcome, root, project, clock: Clock.within(rng) });
  const { text, keep } = out.finish();
  const why: Record<NpmOutcome, string> = {
    ok: 'install succeeded: the added-packages line and the vulnerability count',
    eresolve:
      'peer dependency conflict: the error code, the installed version found and the peer range that cannot be met',
    e404: 'a package is missing from the registry: the E404 code, the failing GET and the package spec',
    gyp: 'a native module failed to build: the failing package path and the compiler or node-gyp error',
    network: 'network failure: the error code and the request that failed',
    'ci-lockfile': 'npm ci needs a lockfile: the usage error',
  };
  return {
    name: `npm-${String(index).padStart(2, '0')}-${outcome}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task: ok ? 'install the dependencies and continue' : 'find why npm install fails',
    why: why[outcome],
  };
}

/** The npm-install family. */
export const npmInstallFamily: Family = {
  name: 'npm-install',
  scales: ['small', 'medium', 'small', 'large', 'small', 'medium', 'small', 'medium', 'small', 'huge'],
  generate,
};
