import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { humanBytes } from '../text-layout.js';
import { PYPI_PACKAGES, PYTHON_VERSIONS, pyMinor, versionOf } from '../vocab-ecosystems.js';

/**
 * `pip install` output: Collecting/Downloading lines with rich progress bars (some captured with their
 * `\r` redraws), cached wheels, retries, build-from-source steps, and the failures agents meet
 * (ResolutionImpossible, no matching distribution, a wheel that fails to build, post-install conflict
 * warnings). Kept lines: the ERROR lines and the lines that explain them (conflict causes, the missing
 * system dependency, versions available); on success the `Successfully installed` line.
 */

/** How the install ended. */
export type PipOutcome = 'ok' | 'conflict' | 'no-match' | 'build' | 'incompatible';

/** Options for one install. */
export interface PipInstallOptions {
  readonly scale: Scale;
  readonly outcome: PipOutcome;
  readonly python: string;
  /** Print download progress bars (pip ≥ 23 with rich); the `\r` redraws are kept when `redraws`. */
  readonly bars: boolean;
  readonly redraws: boolean;
}

function progressBar(rng: Rng, size: number, redraws: boolean): string {
  const total = humanBytes(size).replace(' ', ' ');
  const speed = `${(rng.float(0.8, 60)).toFixed(1)} MB/s`;
  const done = `   ${'━'.repeat(40)} ${total.split(' ')[0]}/${total} ${speed} eta 0:00:00`;
  if (!redraws) return done;
  const steps = rng.int(2, 5);
  let s = '';
  for (let i = 1; i < steps; i++) {
    const frac = i / steps;
    s += `   ${'━'.repeat(Math.floor(40 * frac))}╸${'━'.repeat(Math.max(0, 39 - Math.floor(40 * frac))).replace(/━/g, ' ')} ${((size * frac) / 1e6).toFixed(1)}/${total} ${speed} eta 0:00:0${rng.int(1, 9)}\r`;
  }
  return s + done;
}

/** Writes one pip run into `out`; returns true when it succeeded. */
export function renderPipInstall(rng: Rng, out: LabelledText, opts: PipInstallOptions): boolean {
  const pyTag = `cp${opts.python.split('.').slice(0, 2).join('')}`;
  const count =
    opts.scale === 'small'
      ? rng.int(3, 8)
      : opts.scale === 'medium'
        ? rng.int(15, 45)
        : rng.int(60, PYPI_PACKAGES.length);
  const pkgs = rng
    .sample(PYPI_PACKAGES, count)
    .map(([name, major]) => ({ name, version: versionOf(rng, major) }));
  const installed: string[] = [];
  for (const p of pkgs) {
    if (rng.chance(0.2)) {
      out.add(
        `Requirement already satisfied: ${p.name}${rng.chance(0.5) ? `>=${p.version.split('.')[0]}.0` : ''} in ${rng.pick(['/usr/local/lib', './.venv/lib', '/opt/venv/lib'])}/python${pyMinor(opts.python)}/site-packages (from -r requirements.txt (line ${rng.int(1, 40)})) (${p.version})`,
      );
      continue;
    }
    out.add(
      `Collecting ${p.name}${rng.chance(0.5) ? `==${p.version}` : ''}${rng.chance(0.3) ? ` (from -r requirements.txt (line ${rng.int(1, 40)}))` : ''}`,
    );
    if (rng.chance(0.25)) {
      out.add(
        `  Using cached ${p.name.replace(/-/g, '_')}-${p.version}-py3-none-any.whl (${humanBytes(rng.int(8_000, 900_000))})`,
      );
    } else {
      const native = rng.chance(0.4);
      const file = native
        ? `${p.name.replace(/-/g, '_')}-${p.version}-${pyTag}-${pyTag}-manylinux_2_17_x86_64.manylinux2014_x86_64.whl`
        : `${p.name.replace(/-/g, '_')}-${p.version}-py3-none-any.whl`;
      const size = native ? rng.int(400_000, 40_000_000) : rng.int(5_000, 900_000);
      if (rng.chance(0.05)) {
        out.add(
          `WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Read timed out. (read timeout=15)")': /packages/${rng.hex(2)}/${rng.hex(2)}/${rng.hex(60)}/${file}`,
        );
      }
      out.add(`  Downloading ${file} (${humanBytes(size)})`);
      if (opts.bars) out.add(progressBar(rng, size, opts.redraws));
    }
    for (let k = rng.int(0, opts.scale === 'large' || opts.scale === 'huge' ? 4 : 2); k > 0; k--) {
      const [dep, major] = rng.pick(PYPI_PACKAGES);
      out.add(
        `Requirement already satisfied: ${dep}>=${versionOf(rng, major)} in /usr/local/lib/python${pyMinor(opts.python)}/site-packages (from ${p.name}==${p.version}) (${versionOf(rng, major)})`,
      );
    }
    installed.push(`${p.name}-${p.version}`);
  }

  if (opts.outcome === 'conflict') {
    const a = rng.pick(['pydantic', 'urllib3', 'protobuf', 'numpy', 'sqlalchemy']);
    const wanted =
      a === 'numpy'
        ? '1.24.4'
        : a === 'protobuf'
          ? '3.20.3'
          : a === 'sqlalchemy'
            ? '1.4.52'
            : a === 'urllib3'
              ? '2.2.1'
              : '1.10.13';
    const dependents = rng.sample(
      ['fastapi', 'botocore', 'grpcio-status', 'pandas', 'alembic', 'langchain-core', 'scikit-learn'],
      rng.int(1, 2),
    );
    out.add(
      'INFO: pip is looking at multiple versions of ' +
        dependents[0] +
        ' to determine which version is compatible with other requirements. This could take a while.',
    );
    const requirementLine = rng.int(1, 30);
    for (let k = rng.int(2, 8); k > 0; k--)
      out.add(`Collecting ${dependents[0]} (from -r requirements.txt (line ${requirementLine}))`);
    out.add(
      `ERROR: Cannot install -r requirements.txt (line ${rng.int(1, 30)}) and ${a}==${wanted} because these package versions have conflicting dependencies.`,
      true,
    );
    out.add('');
    out.add('The conflict is caused by:', true);
    out.add(`    The user requested ${a}==${wanted}`, true);
    for (const d of dependents) {
      out.add(
        `    ${d} ${rng.int(0, 2)}.${rng.int(1, 120)}.${rng.int(0, 9)} depends on ${a}${rng.pick(['>=2.0,<3', '<2.0', '!=1.8,!=1.8.1,<3.0.0,>=1.7.4', '>=4.21.6,<5.0.0dev', '>=1.26.0'])}`,
        true,
      );
    }
    out.add('');
    out.add('To fix this you could try to:');
    out.add("1. loosen the range of package versions you've specified");
    out.add('2. remove package versions to allow pip to attempt to solve the dependency conflict');
    out.add('');
    out.add(
      'ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts',
      true,
    );
    return false;
  }
  if (opts.outcome === 'no-match') {
    const name = rng.pick([
      'torch',
      'tensorflow',
      'psycopg2-binary',
      'numpy',
      'pyarrow',
      'onnxruntime-gpu',
      'internal-auth-client',
    ]);
    const asked = `${rng.int(0, 1)}.${rng.int(1, 12)}.${rng.int(0, 4)}`;
    const avail = Array.from(
      { length: rng.int(0, 9) },
      (_, i) => `${2 + Math.floor(i / 4)}.${i % 4}.${rng.int(0, 3)}`,
    );
    out.add(
      `ERROR: Could not find a version that satisfies the requirement ${name}==${asked} (from versions: ${avail.length > 0 ? avail.join(', ') : 'none'})`,
      true,
    );
    out.add(`ERROR: No matching distribution found for ${name}==${asked}`, true);
    return false;
  }
  if (opts.outcome === 'build') {
    const name = rng.pick(['psycopg2', 'mysqlclient', 'lxml', 'pycairo', 'uwsgi', 'cryptography']);
    const v = `${rng.int(1, 2)}.${rng.int(0, 9)}.${rng.int(0, 9)}`;
    const cause: Record<string, string> = {
      psycopg2: 'Error: pg_config executable not found.',
      mysqlclient: 'Exception: Can not find valid pkg-config name.',
      lxml: 'Error: Please make sure the libxml2 and libxslt development packages are installed.',
      pycairo: '../cairo/meson.build:31:12: ERROR: Dependency "cairo" not found, tried pkgconfig and cmake',
      uwsgi: 'fatal error: Python.h: No such file or directory',
      cryptography: "error: can't find Rust compiler",
    };
    out.add(`Collecting ${name}==${v}`);
    out.add(`  Downloading ${name}-${v}.tar.gz (${humanBytes(rng.int(300_000, 4_000_000))})`);
    out.add('  Installing build dependencies ... done');
    out.add('  Getting requirements to build wheel ... done');
    out.add('  Preparing metadata (pyproject.toml) ... done');
    out.add(`Building wheels for collected packages: ${name}`);
    out.add(`  Building wheel for ${name} (pyproject.toml) ... error`, true);
    out.add('  error: subprocess-exited-with-error');
    out.add('  ');
    out.add(`  × Building wheel for ${name} (pyproject.toml) did not run successfully.`);
    out.add('  │ exit code: 1');
    const n = rng.int(8, 40);
    out.add(`  ╰─> [${n} lines of output]`);
    out.add('      running bdist_wheel');
    out.add('      running build');
    out.add(`      running build_py`);
    for (let k = 0; k < n - 6; k++) {
      out.add(
        `      ${rng.pick([`copying ${name}/${rng.pick(['__init__', 'extras', 'errors', '_range', 'tz', 'pool'])}.py -> build/lib.linux-x86_64-cpython-${pyTag.slice(2)}/${name}`, 'running build_ext', `creating build/temp.linux-x86_64-cpython-${pyTag.slice(2)}`, `warning: no files found matching '*.${rng.pick(['txt', 'cfg', 'h'])}'`])}`,
      );
    }
    out.add(`      ${cause[name]}`, true);
    out.add('      [end of output]');
    out.add('  ');
    out.add('  note: This error originates from a subprocess, and is likely not a problem with pip.');
    out.add(`  ERROR: Failed building wheel for ${name}`, true);
    out.add(`Failed to build ${name}`);
    out.add(
      `ERROR: ${rng.pick(['Could not build wheels for ' + name + ', which is required to install pyproject.toml-based projects', 'ERROR: Failed to build installable wheels for some pyproject.toml based projects (' + name + ')'])}`.replace(
        'ERROR: ERROR:',
        'ERROR:',
      ),
      true,
    );
    return false;
  }
  out.add(
    `Installing collected packages: ${installed.map((s) => s.slice(0, s.lastIndexOf('-'))).join(', ')}`,
  );
  if (rng.chance(0.3)) {
    const old = rng.pick(installed);
    out.add(`  Attempting uninstall: ${old.slice(0, old.lastIndexOf('-'))}`);
    out.add(
      `    Found existing installation: ${old.slice(0, old.lastIndexOf('-'))} ${versionOf(rng, rng.int(0, 2))}`,
    );
    out.add(`    Uninstalling ${old.slice(0, old.lastIndexOf('-'))}:`);
    out.add(
      `      Successfully uninstalled ${old.slice(0, old.lastIndexOf('-'))}-${versionOf(rng, rng.int(0, 2))}`,
    );
  }
  if (opts.outcome === 'incompatible') {
    out.add(
      "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.",
      true,
    );
    const [lib] = rng.pick(PYPI_PACKAGES);
    const [dep, major] = rng.pick(PYPI_PACKAGES);
    const have = versionOf(rng, major);
    out.add(
      `${lib} ${versionOf(rng, 1)} requires ${dep}<${major}.${rng.int(0, 4)},>=${Math.max(0, major - 1)}.0, but you have ${dep} ${have} which is incompatible.`,
      true,
    );
  }
  out.add(`Successfully installed ${installed.join(' ')}`, true);
  if (rng.chance(0.5)) {
    out.add('');
    out.add(
      `[notice] A new release of pip is available: ${rng.pick(['23.0.1', '23.2.1', '24.0'])} -> ${rng.pick(['24.2', '24.3.1'])}`,
    );
    out.add('[notice] To update, run: pip install --upgrade pip');
  }
  if (rng.chance(0.3))
    out.add(
      "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager. It is recommended to use a virtual environment instead: https://pip.pypa.io/warnings/venv",
    );
  return true;
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const outcome = (
    ['ok', 'conflict', 'build', 'no-match', 'ok', 'incompatible', 'build', 'conflict'] as const
  )[index % 8]!;
  const python = rng.pick(PYTHON_VERSIONS);
  if (rng.chance(0.7))
    out.add(
      `$ ${rng.pick(['pip install -r requirements.txt', 'python -m pip install -r requirements-dev.txt', 'pip install -e ".[dev]"', 'pip install --upgrade -r requirements.txt'])}`,
    );
  const ok = renderPipInstall(rng, out, {
    scale,
    outcome,
    python,
    bars: rng.chance(0.6),
    redraws: rng.chance(0.3),
  });
  const { text, keep } = out.finish();
  const why: Record<PipOutcome, string> = {
    ok: 'installed: the Successfully installed line',
    conflict: 'resolver conflict: the Cannot install line, the conflict causes and ResolutionImpossible',
    'no-match': 'no distribution: the versions available and the requirement that cannot be met',
    build: 'a source build failed: the wheel that failed and the missing system dependency in its output',
    incompatible: 'installed with a conflict: the resolver warning and the incompatible requirement',
  };
  return {
    name: `pip-${String(index).padStart(2, '0')}-${outcome}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task: ok ? 'install the Python dependencies' : 'find why pip install fails',
    why: why[outcome],
  };
}

/** The pip-install family. */
export const pipInstallFamily: Family = {
  name: 'pip-install',
  scales: ['medium', 'small', 'large', 'medium', 'small', 'large', 'small', 'large'],
  generate,
};
