import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { CRATES, RUST_VERSIONS, versionOf } from '../vocab-ecosystems.js';
import { functionWords, NOUNS, pascal, projectName, QUALIFIERS, snake } from '../vocab-words.js';

/**
 * `cargo test` runs: dependency compilation, warnings with rustc's span diagrams, one or more test
 * binaries, panics in the old (`panicked at '…', file`) and new (`panicked at file:`) formats, optional
 * backtraces, doc-tests, and builds that fail to compile. Kept lines: FAILED test lines, the panic line
 * and its assertion/left/right lines, the project frame of a backtrace, the `failures:` list, the
 * `test result:` line and cargo's closing error; for compile errors the `error[E…]` line, its location,
 * the labelled span line and `could not compile`.
 */

const SCALE_TESTS: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [3, 15],
  medium: [30, 160],
  large: [300, 700],
  huge: [1500, 2300],
};

interface RustTest {
  path: string;
  state: 'ok' | 'FAILED' | 'ignored';
}

function panicLines(rng: Rng, newFormat: boolean, file: string, line: number, col: number): string[] {
  const kind = rng.int(0, 4);
  const ty = pascal([rng.pick(NOUNS)]);
  if (kind === 0) {
    const a = rng.int(0, 5000);
    const b = a + rng.pick([1, -1, 100, -500]);
    return newFormat
      ? [
          `panicked at ${file}:${line}:${col}:`,
          'assertion `left == right` failed',
          `  left: ${a}`,
          ` right: ${b}`,
        ]
      : [
          `panicked at 'assertion failed: \`(left == right)\``,
          `  left: \`${a}\`,`,
          ` right: \`${b}\`', ${file}:${line}:${col}`,
        ];
  }
  if (kind === 1) {
    const err = `${ty}Error::${pascal([rng.pick(QUALIFIERS), rng.pick(NOUNS)])}`;
    const msg = `called \`Result::unwrap()\` on an \`Err\` value: ${err}${rng.chance(0.5) ? `("${rng.pick(NOUNS)} ${rng.int(1, 999)}")` : ''}`;
    return newFormat
      ? [`panicked at ${file}:${line}:${col}:`, msg]
      : [`panicked at '${msg}', ${file}:${line}:${col}`];
  }
  if (kind === 2) {
    const len = rng.int(0, 8);
    const msg = `index out of bounds: the len is ${len} but the index is ${len + rng.int(0, 2)}`;
    return newFormat
      ? [`panicked at ${file}:${line}:${col}:`, msg]
      : [`panicked at '${msg}', ${file}:${line}:${col}`];
  }
  if (kind === 3) {
    const left = `Ok(${ty} { ${rng.pick(NOUNS)}: ${rng.int(-900, 900)} })`;
    const right = `Err(${pascal([rng.pick(QUALIFIERS), rng.pick(NOUNS)])})`;
    return newFormat
      ? [
          `panicked at ${file}:${line}:${col}:`,
          'assertion `left == right` failed',
          `  left: ${left}`,
          ` right: ${right}`,
        ]
      : [
          `panicked at 'assertion failed: \`(left == right)\``,
          `  left: \`${left}\`,`,
          ` right: \`${right}\`', ${file}:${line}:${col}`,
        ];
  }
  const msg = `${rng.pick(['expected', 'invalid', 'missing'])} ${rng.pick(NOUNS)}: ${rng.pick(['"', "'"])}${rng.hex(6)}${rng.pick(['"', "'"])}`;
  return newFormat
    ? [`panicked at ${file}:${line}:${col}:`, msg]
    : [`panicked at '${msg}', ${file}:${line}:${col}`];
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const name = projectName(rng);
  const crate = name.replace(/-/g, '_');
  const root = rng.pick([
    `/home/runner/work/${name}/${name}`,
    `/build/${name}`,
    `/Users/${rng.pick(['mira', 'tomas'])}/dev/${name}`,
  ]);
  const workspace = rng.chance(0.5);
  const crateDir = workspace ? `crates/${rng.pick(['core', 'engine', 'proto', 'server'])}/` : '';
  const rustVersion = rng.pick(RUST_VERSIONS);
  const newFormat = Number(rustVersion.split('.')[1]) >= 73;
  const backtrace = rng.chance(0.25);
  const compileFails = rng.chance(0.18);
  const modules = rng.sample(NOUNS, rng.int(3, 9));

  out.add(
    `$ ${backtrace ? 'RUST_BACKTRACE=1 ' : ''}cargo test${rng.pick(['', ' --workspace', ' --all-features', ` -p ${name}`, ' -- --nocapture'])}`,
  );
  if (rng.chance(0.6)) {
    out.add('    Updating crates.io index');
    for (const c of rng.sample(CRATES, rng.int(3, 12)))
      out.add(`  Downloaded ${c[0]} v${versionOf(rng, c[1])}`);
    out.add(
      `  Downloaded ${rng.int(12, 140)} crates (${(rng.float(0.5, 14)).toFixed(1)} MB) in ${rng.float(0.4, 6).toFixed(2)}s`,
    );
  }
  const deps = rng.sample(CRATES, scale === 'small' ? rng.int(4, 10) : rng.int(15, CRATES.length));
  for (const [dep, major] of deps) out.add(`   Compiling ${dep} v${versionOf(rng, major)}`);
  out.add(
    `   Compiling ${name} v${rng.int(0, 2)}.${rng.int(0, 20)}.${rng.int(0, 9)} (${root}${crateDir ? `/${crateDir.slice(0, -1)}` : ''})`,
  );

  if (rng.chance(0.5)) {
    const file = `${crateDir}src/${rng.pick(modules)}.rs`;
    const line = rng.int(10, 500);
    const v = rng.pick(NOUNS);
    out.add(`warning: unused variable: \`${v}\``);
    out.add(`  --> ${file}:${line}:${rng.int(5, 20)}`);
    out.add('   |');
    out.add(`${String(line).padEnd(3)}|     let ${v} = self.${v}.clone();`);
    out.add(
      `   |         ${'^'.repeat(v.length)} help: if this is intentional, prefix it with an underscore: \`_${v}\``,
    );
    out.add('   |');
    out.add('   = note: `#[warn(unused_variables)]` on by default');
    out.add('');
    out.add(
      `warning: \`${name}\` (lib) generated 1 warning${rng.chance(0.3) ? ' (run `cargo fix --lib -p ' + name + '` to apply 1 suggestion)' : ''}`,
    );
  }

  if (compileFails) {
    const file = `${crateDir}src/${rng.pick(modules)}.rs`;
    const line = rng.int(10, 600);
    const col = rng.int(9, 30);
    const ty = pascal([rng.pick(NOUNS)]);
    const field = rng.pick(NOUNS);
    const variant = rng.int(0, 2);
    const code = ['E0308', 'E0599', 'E0425'][variant]!;
    const title = [
      'mismatched types',
      `no method named \`${snake(functionWords(rng))}\` found for struct \`${ty}\` in the current scope`,
      `cannot find value \`${field}_id\` in this scope`,
    ][variant]!;
    out.add(`error[${code}]: ${title}`, true);
    out.add(`   --> ${file}:${line}:${col}`, true);
    out.add('    |');
    out.add(
      `${String(line).padEnd(4)}|         let ${field}: u64 = ${variant === 2 ? `${field}_id` : `self.${field}.len()`};`,
    );
    out.add(
      `    |                ${'-'.repeat(3)}   ${'^'.repeat(12)} ${variant === 0 ? 'expected `u64`, found `usize`' : variant === 1 ? 'method not found in `' + ty + '`' : 'not found in this scope'}`,
      true,
    );
    out.add('    |                |');
    out.add('    |                expected due to this');
    if (variant === 0) {
      out.add('    |');
      out.add("help: you can convert a `usize` to a `u64` and panic if the converted value doesn't fit");
      out.add('    |');
      out.add(
        `${String(line).padEnd(4)}|         let ${field}: u64 = self.${field}.len().try_into().unwrap();`,
      );
      out.add('    |                                    ++++++++++++++++++++');
    }
    out.add('');
    out.add(`For more information about this error, try \`rustc --explain ${code}\`.`);
    out.add(`error: could not compile \`${name}\` (lib test) due to 1 previous error`, true);
    const { text, keep } = out.finish();
    return {
      name: `cargo-test-${String(index).padStart(2, '0')}-compile-error`,
      ext: 'txt',
      kind: 'tool_output',
      text,
      keep,
      task: 'make the tests pass',
      why: 'the crate does not compile: the error code and title, its location, the labelled span and the could-not-compile line',
    };
  }

  out.add(
    `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in ${rng.logNormal(30, 0.7).toFixed(2)}s`,
  );
  const [lo, hi] = SCALE_TESTS[scale];
  const total = rng.int(lo, hi);
  const binaries = rng.weighted([
    [1, 3],
    [2, 2],
    [3, 1],
  ] as const);
  const failTarget = rng.weighted([
    [0, 1],
    [1, 5],
    [2, 3],
    [rng.int(3, 6), 1],
  ] as const);
  let failedSoFar = 0;
  let finalFailed = false;
  for (let b = 0; b < binaries; b++) {
    const isLib = b === 0;
    const testFile = isLib
      ? 'src/lib.rs'
      : `tests/${rng.pick(['integration', 'api', 'roundtrip', 'regression'])}.rs`;
    const n = Math.max(1, Math.round(total / binaries));
    out.add(
      `     Running ${isLib ? 'unittests ' : ''}${crateDir}${testFile} (target/debug/deps/${isLib ? crate : testFile.slice(6, -3)}-${rng.hex(16)})`,
    );
    out.add('');
    out.add(`running ${n} test${n === 1 ? '' : 's'}`);
    const tests: RustTest[] = [];
    for (let i = 0; i < n; i++) {
      const mod = rng.pick(modules);
      tests.push({
        path: `${isLib ? `${mod}::tests::` : ''}${snake(functionWords(rng))}${rng.chance(0.3) ? `_${rng.pick(QUALIFIERS)}` : ''}`,
        state: rng.chance(0.03) ? 'ignored' : 'ok',
      });
    }
    const toFail = b === binaries - 1 ? failTarget - failedSoFar : rng.int(0, failTarget - failedSoFar);
    for (const t of rng.sample(
      tests.filter((x) => x.state === 'ok'),
      Math.max(0, toFail),
    ))
      t.state = 'FAILED';
    failedSoFar += tests.filter((t) => t.state === 'FAILED').length;
    for (const t of rng.shuffle(tests)) out.add(`test ${t.path} ... ${t.state}`, t.state === 'FAILED');
    out.add('');
    const failed = tests.filter((t) => t.state === 'FAILED');
    if (failed.length > 0) {
      out.add('failures:');
      out.add('');
      for (const t of failed) {
        out.add(`---- ${t.path} stdout ----`);
        if (rng.chance(0.3))
          out.add(
            `[${rng.pick(['DEBUG', 'INFO', 'TRACE'])} ${crate}::${rng.pick(modules)}] ${rng.pick(NOUNS)} ${rng.int(1, 99)} ${rng.pick(['loaded', 'queued', 'skipped'])}`,
          );
        const file = `${crateDir}${isLib ? `src/${t.path.split('::')[0]}.rs` : testFile}`;
        const panic = panicLines(rng, newFormat, file, rng.int(10, 800), rng.int(5, 40));
        out.add(`thread '${t.path}' ${panic[0]}`, true);
        for (const l of panic.slice(1)) out.add(l, true);
        if (backtrace) {
          out.add('stack backtrace:');
          const frames = [
            'rust_begin_unwind',
            'core::panicking::panic_fmt',
            'core::panicking::assert_failed_inner',
            'core::panicking::assert_failed',
          ];
          let k = 0;
          for (const f of frames) {
            out.add(`   ${k++}: ${f}`);
            if (rng.chance(0.5))
              out.add(
                `             at /rustc/${rng.hex(40)}/library/core/src/panicking.rs:${rng.int(50, 400)}:${rng.int(5, 14)}`,
              );
          }
          out.add(`   ${k++}: ${crate}::${t.path}`, true);
          out.add(`             at ./${file}:${rng.int(10, 800)}:${rng.int(5, 30)}`, true);
          out.add(`   ${k++}: ${crate}::${t.path}::{{closure}}`);
          out.add(`   ${k}: core::ops::function::FnOnce::call_once`);
          out.add('note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.');
        } else {
          out.add('note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace');
        }
        out.add('');
      }
      out.add('');
      out.add('failures:');
      for (const t of failed) out.add(`    ${t.path}`, true);
      out.add('');
    }
    const passed = tests.filter((t) => t.state === 'ok').length;
    const ignored = tests.filter((t) => t.state === 'ignored').length;
    out.add(
      `test result: ${failed.length > 0 ? 'FAILED' : 'ok'}. ${passed} passed; ${failed.length} failed; ${ignored} ignored; 0 measured; 0 filtered out; finished in ${rng.logNormal(0.4, 1).toFixed(2)}s`,
      true,
    );
    out.add('');
    if (failed.length > 0) {
      out.add(
        `error: test failed, to rerun pass \`${workspace ? `-p ${name} ` : ''}${isLib ? '--lib' : `--test ${testFile.slice(6, -3)}`}\``,
        true,
      );
      finalFailed = true;
      break;
    }
  }
  if (!finalFailed) {
    out.add(`   Doc-tests ${crate}`);
    out.add('');
    const docs = rng.int(0, 12);
    out.add(`running ${docs} tests`);
    for (let i = 0; i < docs; i++)
      out.add(
        `test ${crateDir}src/${rng.pick(modules)}.rs - ${rng.pick(modules)}::${pascal([rng.pick(NOUNS)])}::${snake(functionWords(rng))} (line ${rng.int(10, 400)}) ... ok`,
      );
    out.add('');
    out.add(
      `test result: ok. ${docs} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in ${rng.float(0, 3).toFixed(2)}s`,
      true,
    );
    out.add('');
  }
  const { text, keep } = out.finish();
  return {
    name: `cargo-test-${String(index).padStart(2, '0')}-${finalFailed ? 'fail' : 'pass'}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task: finalFailed
      ? 'find the failing Rust tests and the assertion that broke'
      : 'check that cargo test passes',
    why: finalFailed
      ? 'FAILED tests: the panic location and message with left/right values, the project backtrace frame when shown, the failures list, the test result line and the rerun hint'
      : 'all binaries pass: the test result lines carry the answer',
  };
}

/** The cargo-test family. */
export const cargoTestFamily: Family = {
  name: 'cargo-test',
  scales: ['small', 'medium', 'large', 'medium', 'small', 'medium', 'huge', 'small'],
  generate,
};
