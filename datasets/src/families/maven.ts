import { Clock } from '../clock.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { humanBytes } from '../text-layout.js';
import { JAVA_VERSIONS, MAVEN_ARTIFACTS, MAVEN_VERSIONS, versionOf } from '../vocab-ecosystems.js';
import {
  camel,
  functionWords,
  NOUNS,
  ORGS,
  pascal,
  phrase,
  projectName,
  QUALIFIERS,
} from '../vocab-words.js';

/**
 * Maven builds: artifact downloads, plugin executions, surefire output in the 2.x and 3.x styles with
 * application logging interleaved, failures and errors with stack traces and `Caused by` chains,
 * multi-module reactor summaries, and compilation failures. Kept lines: each failing test's
 * `<<< FAILURE!`/`<<< ERROR!` line, its exception line, the first project frame and `Caused by` lines,
 * the Results entries, the totals, BUILD FAILURE and the `Failed to execute goal` line; for compile errors
 * each `[ERROR] File.java:[l,c]` line with its symbol/location lines.
 */

const SCALE_CLASSES: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [1, 3],
  medium: [6, 20],
  large: [30, 70],
  huge: [90, 140],
};

const CENTRAL = 'https://repo.maven.apache.org/maven2';

interface JavaFailure {
  cls: string;
  method: string;
  line: number;
  kind: 'FAILURE' | 'ERROR';
  message: string;
  summary: string;
}

function javaFailure(rng: Rng, pkg: string, cls: string): JavaFailure {
  const method = camel(functionWords(rng));
  const line = rng.int(20, 400);
  const v = rng.int(1, 900);
  const choice = rng.int(0, 4);
  if (choice === 0) {
    const w = v + rng.pick([1, -2, 100]);
    return {
      cls,
      method,
      line,
      kind: 'FAILURE',
      message: `org.opentest4j.AssertionFailedError: expected: <${w}> but was: <${v}>`,
      summary: `expected: <${w}> but was: <${v}>`,
    };
  }
  if (choice === 1) {
    const states = rng.sample(['SETTLED', 'PENDING', 'FAILED', 'QUEUED'], 2);
    const msg = `\nexpected: ${states[0]}\n but was: ${states[1]}`;
    return {
      cls,
      method,
      line,
      kind: 'FAILURE',
      message: `org.opentest4j.AssertionFailedError: ${msg.replace(/\n/g, ' ').trim()}`,
      summary: `expected: ${states[0]} but was: ${states[1]}`,
    };
  }
  if (choice === 2) {
    const field = rng.pick(NOUNS);
    return {
      cls,
      method,
      line,
      kind: 'ERROR',
      message: `java.lang.NullPointerException: Cannot invoke "String.length()" because "${field}" is null`,
      summary: `» NullPointer Cannot invoke "String.length()" because "${field}" is null`,
    };
  }
  if (choice === 3) {
    const table = rng.pick(NOUNS);
    return {
      cls,
      method,
      line,
      kind: 'ERROR',
      message: `org.springframework.dao.DataIntegrityViolationException: could not execute statement [ERROR: duplicate key value violates unique constraint "${table}_pkey"]`,
      summary: `» DataIntegrityViolation could not execute statement [ERROR: duplicate key value violates unique constraint "${table}_pkey"]`,
    };
  }
  const exc = `${pkg}.${pascal([rng.pick(QUALIFIERS), rng.pick(NOUNS)])}Exception`;
  const msg = `${rng.pick(NOUNS)} ${v} ${rng.pick(['not found', 'is closed', 'exceeds limit', 'has no owner'])}`;
  return {
    cls,
    method,
    line,
    kind: 'ERROR',
    message: `${exc}: ${msg}`,
    summary: `» ${exc
      .split('.')
      .pop()!
      .replace(/Exception$/, '')} ${msg}`,
  };
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const clock = Clock.within(rng);
  const artifact = projectName(rng);
  const org = rng.pick(ORGS).replace(/-/g, '');
  const pkg = `com.${org}.${artifact.split('-')[0]}`;
  const pkgPath = pkg.replace(/\./g, '/');
  const root = rng.pick([
    `/home/runner/work/${artifact}/${artifact}`,
    `/builds/${org}/${artifact}`,
    `/workspace`,
  ]);
  const batch = rng.chance(0.5);
  const level = (l: 'INFO' | 'ERROR' | 'WARNING'): string =>
    batch ? `[${l}]` : `[\u001b[1;${l === 'INFO' ? 34 : l === 'ERROR' ? 31 : 33}m${l}\u001b[m]`;
  const info = (s: string): number => out.add(`${level('INFO')} ${s}`);
  const mvnVersion = rng.pick(MAVEN_VERSIONS);
  const surefire = rng.pick(['2.22.2', '3.0.0', '3.1.2', '3.2.2', '3.2.5']);
  const newSurefire = !surefire.startsWith('2');
  const modules = rng.chance(0.35)
    ? rng.sample(['core', 'api', 'persistence', 'web', 'client', 'common'], rng.int(2, 4))
    : [];

  if (rng.chance(0.4))
    out.add(
      `$ mvn ${rng.pick(['-B verify', 'clean install', '-B -ntp test', 'test -Dsurefire.printSummary=true', '--batch-mode package'])}`,
    );
  info('Scanning for projects...');
  if (modules.length > 0) {
    info('------------------------------------------------------------------------');
    info('Reactor Build Order:');
    info('');
    info(`${artifact}-parent                                                  [pom]`);
    for (const m of modules)
      info(`${artifact}-${m}${' '.repeat(Math.max(1, 58 - artifact.length - m.length))}[jar]`);
  }
  const compileFails = rng.chance(0.18);
  const [lo, hi] = SCALE_CLASSES[scale];
  const targetModule = modules.length > 0 ? rng.pick(modules) : null;
  const failures: JavaFailure[] = [];
  let totalRun = 0;
  let totalSkipped = 0;

  const mods: (string | null)[] = modules.length > 0 ? modules : [null];
  let failedModule: string | null = null;
  for (const mod of mods) {
    const name = mod ? `${artifact}-${mod}` : artifact;
    info('');
    info(
      `${'-'.repeat(Math.max(3, 24 - Math.floor(name.length / 2)))}< ${pkg}:${name} >${'-'.repeat(Math.max(3, 24 - Math.ceil(name.length / 2)))}`,
    );
    info(
      `Building ${name} ${rng.int(0, 3)}.${rng.int(0, 20)}.${rng.int(0, 9)}-SNAPSHOT${modules.length > 0 ? `                          [${mods.indexOf(mod) + 2}/${mods.length + 1}]` : ''}`,
    );
    if (mvnVersion >= '3.9') info('  from pom.xml');
    info('--------------------------------[ jar ]---------------------------------');
    const downloads =
      scale === 'small' ? rng.int(0, 6) : scale === 'huge' ? rng.int(160, 260) : rng.int(10, 120);
    for (let d = 0; d < downloads; d++) {
      const [ga, major] = rng.pick(MAVEN_ARTIFACTS);
      const [g, a] = ga.split(':') as [string, string];
      const v = versionOf(rng, major);
      const ext = rng.pick(['pom', 'pom', 'jar']);
      const url = `${CENTRAL}/${g.replace(/\./g, '/')}/${a}/${v}/${a}-${v}.${ext}`;
      out.add(`Downloading from central: ${url}`);
      const size = ext === 'pom' ? rng.int(600, 30_000) : rng.int(20_000, 3_000_000);
      out.add(
        `Downloaded from central: ${url} (${humanBytes(size)} at ${humanBytes(rng.int(200_000, 9_000_000))}/s)`.replace(
          / B\/s/,
          ' B/s',
        ),
      );
    }
    info('');
    info(`--- resources:3.3.1:resources (default-resources) @ ${name} ---`);
    info(`Copying ${rng.int(0, 12)} resources from src/main/resources to target/classes`);
    info('');
    info(`--- compiler:3.11.0:compile (default-compile) @ ${name} ---`);
    info('Changes detected - recompiling the module! :source');
    info(
      `Compiling ${rng.int(8, 300)} source files with javac [debug release ${rng.pick(JAVA_VERSIONS).split('.')[0]}] to target/classes`,
    );
    if (rng.chance(0.4)) {
      out.add(
        `${level('WARNING')} ${root}/${mod ? `${mod}/` : ''}src/main/java/${pkgPath}/${pascal([rng.pick(NOUNS)])}.java:[${rng.int(10, 300)},${rng.int(5, 40)}] ${rng.pick(['[deprecation] getId() in Entity has been deprecated and marked for removal', '[unchecked] unchecked conversion', '[removal] finalize() in Object has been deprecated and marked for removal'])}`,
      );
    }
    if (compileFails && (mod === targetModule || mod === null)) {
      out.add(`${level('ERROR')} COMPILATION ERROR : `);
      info('-------------------------------------------------------------');
      const nErr = rng.int(1, 3);
      for (let e = 0; e < nErr; e++) {
        const cls = pascal([rng.pick(NOUNS), rng.pick(['Service', 'Controller', 'Repository', 'Mapper'])]);
        const sym = camel(functionWords(rng));
        out.add(
          `${level('ERROR')} ${root}/${mod ? `${mod}/` : ''}src/main/java/${pkgPath}/${cls}.java:[${rng.int(10, 400)},${rng.int(5, 60)}] cannot find symbol`,
          true,
        );
        out.add(
          `  symbol:   method ${sym}(${rng.pick(['java.lang.String', 'long', `${pkg}.${pascal([rng.pick(NOUNS)])}`])})`,
          true,
        );
        out.add(
          `  location: ${rng.pick(['variable', 'class'])} ${camel([rng.pick(NOUNS)])} of type ${pkg}.${pascal([rng.pick(NOUNS), 'Client'])}`,
          true,
        );
      }
      info(`${nErr} error${nErr > 1 ? 's' : ''}`);
      info('-------------------------------------------------------------');
      failedModule = name;
      break;
    }
    info('');
    info(`--- surefire:${surefire}:test (default-test) @ ${name} ---`);
    if (newSurefire)
      info('Using auto detected provider org.apache.maven.surefire.junitplatform.JUnitPlatformProvider');
    info('');
    info('-------------------------------------------------------');
    info(' T E S T S');
    info('-------------------------------------------------------');
    const nClasses = Math.max(1, Math.round(rng.int(lo, hi) / mods.length));
    const failingHere =
      mod === targetModule || mod === null
        ? rng.weighted([
            [0, 1],
            [1, 5],
            [2, 3],
            [3, 1],
          ] as const)
        : 0;
    const failingIdx = new Set(
      rng.sample(
        Array.from({ length: nClasses }, (_, i) => i),
        failingHere,
      ),
    );
    const moduleFailures: JavaFailure[] = [];
    for (let c = 0; c < nClasses; c++) {
      const cls = `${pkg}.${mod ? `${mod}.` : ''}${pascal([rng.pick(QUALIFIERS), rng.pick(NOUNS)])}${rng.pick(['Test', 'Tests', 'IT', 'ServiceTest'])}`;
      info(`Running ${cls}`);
      for (let k = rng.int(0, scale === 'huge' ? 14 : 4); k > 0; k--) {
        clock.tick(rng, 1, 400);
        out.add(
          `${clock.timeOfDay()} [${rng.pick(['main', 'Test worker', 'pool-1-thread-1', 'HikariPool-1 housekeeper'])}] ${rng.pick(['INFO ', 'DEBUG', 'WARN '])} ${pkg}.${pascal([rng.pick(NOUNS)])}${rng.pick(['Service', 'Repository', 'Config'])} -- ${phrase(rng)}${rng.chance(0.4) ? ` [id=${rng.int(1, 9999)}]` : ''}`,
        );
      }
      const run = rng.int(1, 25);
      const skipped = rng.chance(0.1) ? rng.int(1, 2) : 0;
      totalRun += run;
      totalSkipped += skipped;
      const time = rng.logNormal(0.3, 1.1).toFixed(3);
      if (!failingIdx.has(c)) {
        info(
          `Tests run: ${run}, Failures: 0, Errors: 0, Skipped: ${skipped}, Time elapsed: ${time} s${newSurefire ? ' -- in ' : ' - in '}${cls}`,
        );
        continue;
      }
      const fs = Array.from(
        {
          length: rng.weighted([
            [1, 4],
            [2, 1],
          ] as const),
        },
        () => javaFailure(rng, pkg, cls),
      );
      const nF = fs.filter((f) => f.kind === 'FAILURE').length;
      out.add(
        `${level('ERROR')} Tests run: ${run}, Failures: ${nF}, Errors: ${fs.length - nF}, Skipped: ${skipped}, Time elapsed: ${time} s <<< FAILURE!${newSurefire ? ' -- in ' : ' - in '}${cls}`,
        true,
      );
      for (const f of fs) {
        out.add(
          `${level('ERROR')} ${newSurefire ? `${cls}.${f.method} -- Time elapsed: ${rng.float(0, 2).toFixed(3)} s <<< ${f.kind}!` : `${f.method}(${cls})  Time elapsed: ${rng.float(0, 2).toFixed(3)} s  <<< ${f.kind}!`}`,
          true,
        );
        out.add(f.message, true);
        const frames =
          f.kind === 'FAILURE'
            ? [
                'org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
                'org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)',
                'org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)',
                'org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)',
              ]
            : [
                `${pkg}.${pascal([rng.pick(NOUNS), 'Service'])}.${camel(functionWords(rng))}(${pascal([rng.pick(NOUNS), 'Service'])}.java:${rng.int(20, 500)})`,
              ];
        frames.forEach((fr, i) => {
          out.add(`\tat ${fr}`, f.kind === 'ERROR' && i === 0);
        });
        const simple = cls.split('.').pop()!;
        out.add(`\tat ${cls}.${f.method}(${simple}.java:${f.line})`, f.kind === 'FAILURE');
        for (let k = rng.int(2, scale === 'small' ? 4 : 14); k > 0; k--) {
          out.add(
            `\tat ${rng.pick(['java.base/java.lang.reflect.Method.invoke(Method.java:580)', 'java.base/java.util.ArrayList.forEach(ArrayList.java:1596)', 'org.junit.platform.engine.support.hierarchical.NodeTestTask.executeRecursively(NodeTestTask.java:151)', 'org.springframework.test.context.junit.jupiter.SpringExtension.interceptTestMethod(SpringExtension.java:186)', 'org.apache.maven.surefire.booter.ForkedBooter.main(ForkedBooter.java:495)', 'java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)'])}`,
          );
        }
        if (f.kind === 'ERROR' && rng.chance(0.5)) {
          out.add(
            `Caused by: org.postgresql.util.PSQLException: ${rng.pick(['ERROR: relation "', 'ERROR: column "'])}${rng.pick(NOUNS)}_${rng.pick(NOUNS)}" does not exist`,
            true,
          );
          out.add(`  Position: ${rng.int(8, 200)}`);
          out.add(
            `\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:${rng.int(2600, 2800)})`,
          );
          out.add(
            `\tat ${pkg}.${pascal([rng.pick(NOUNS), 'Repository'])}.${camel(functionWords(rng))}(${pascal([rng.pick(NOUNS), 'Repository'])}.java:${rng.int(20, 300)})`,
            true,
          );
          out.add(`\t... ${rng.int(30, 90)} more`);
        }
        out.add('');
        moduleFailures.push(f);
      }
    }
    info('');
    info('Results:');
    info('');
    const fails = moduleFailures.filter((f) => f.kind === 'FAILURE');
    const errs = moduleFailures.filter((f) => f.kind === 'ERROR');
    if (fails.length > 0) {
      out.add(`${level('ERROR')} Failures: `);
      for (const f of fails)
        out.add(`${level('ERROR')}   ${f.cls.split('.').pop()}.${f.method}:${f.line} ${f.summary}`, true);
    }
    if (errs.length > 0) {
      out.add(`${level('ERROR')} Errors: `);
      for (const f of errs)
        out.add(`${level('ERROR')}   ${f.cls.split('.').pop()}.${f.method}:${f.line} ${f.summary}`, true);
    }
    info('');
    const line = `Tests run: ${totalRun}, Failures: ${fails.length}, Errors: ${errs.length}, Skipped: ${totalSkipped}`;
    if (moduleFailures.length > 0) out.add(`${level('ERROR')} ${line}`, true);
    else info(line);
    info('');
    failures.push(...moduleFailures);
    if (moduleFailures.length > 0) {
      failedModule = name;
      break;
    }
    info(`--- jar:3.3.0:jar (default-jar) @ ${name} ---`);
    info(`Building jar: ${root}/${mod ? `${mod}/` : ''}target/${name}-SNAPSHOT.jar`);
  }
  const failed = failedModule !== null;
  if (modules.length > 0) {
    info('------------------------------------------------------------------------');
    info(`Reactor Summary for ${artifact}-parent ${rng.int(0, 3)}.${rng.int(0, 20)}.0-SNAPSHOT:`);
    info('');
    info(`${`${artifact}-parent `.padEnd(52, '.')} SUCCESS [  ${rng.float(0.1, 1).toFixed(3)} s]`);
    let after = false;
    for (const m of modules) {
      const name = `${artifact}-${m}`;
      const state = after ? 'SKIPPED' : name === failedModule ? 'FAILURE' : 'SUCCESS';
      out.add(
        `${level('INFO')} ${`${name} `.padEnd(52, '.')} ${state}${state === 'SKIPPED' ? '' : ` [ ${rng.float(1, 60).toFixed(3).padStart(6)} s]`}`,
        state === 'FAILURE',
      );
      if (name === failedModule) after = true;
    }
  }
  info('------------------------------------------------------------------------');
  out.add(`${level('INFO')} ${failed ? 'BUILD FAILURE' : 'BUILD SUCCESS'}`, true);
  info('------------------------------------------------------------------------');
  info(`Total time:  ${rng.logNormal(40, 0.6).toFixed(3)} s`);
  clock.tick(rng, 10_000, 200_000);
  info(`Finished at: ${clock.isoSeconds().replace('Z', rng.pick(['Z', '+02:00', '-05:00']))}`);
  info('------------------------------------------------------------------------');
  if (failed) {
    const goal = compileFails
      ? `org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project ${failedModule}: Compilation failure`
      : `org.apache.maven.plugins:maven-surefire-plugin:${surefire}:test (default-test) on project ${failedModule}: There are test failures.`;
    out.add(`${level('ERROR')} Failed to execute goal ${goal}`, true);
    out.add(`${level('ERROR')} `);
    if (!compileFails)
      out.add(
        `${level('ERROR')} Please refer to ${root}/target/surefire-reports for the individual test results.`,
      );
    if (!compileFails)
      out.add(
        `${level('ERROR')} Please refer to dump files (if any exist) [date].dump, [date]-jvmRun[N].dump and [date].dumpstream.`,
      );
    out.add(`${level('ERROR')} -> [Help 1]`);
    out.add(`${level('ERROR')} `);
    out.add(`${level('ERROR')} To see the full stack trace of the errors, re-run Maven with the -e switch.`);
    out.add(`${level('ERROR')} Re-run Maven using the -X switch to enable full debug logging.`);
    out.add(`${level('ERROR')} `);
    out.add(
      `${level('ERROR')} For more information about the errors and possible solutions, please read the following articles:`,
    );
    out.add(
      `${level('ERROR')} [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/${compileFails ? 'MojoFailureException' : 'MojoFailureException'}`,
    );
    if (modules.length > 0) {
      out.add(`${level('ERROR')} `);
      out.add(`${level('ERROR')} After correcting the problems, you can resume the build with the command`);
      out.add(`${level('ERROR')}   mvn <args> -rf :${failedModule}`);
    }
  }
  const { text, keep } = out.finish();
  return {
    name: `maven-${String(index).padStart(2, '0')}-${compileFails ? 'compile-error' : failed ? 'test-failure' : 'success'}`,
    ext: 'log',
    kind: 'tool_output',
    text,
    keep,
    task: failed ? 'find why the Maven build fails' : 'check that the Maven build succeeds',
    why: compileFails
      ? 'compilation failure: each [ERROR] file:[line,col] with its symbol and location, BUILD FAILURE and the failed goal'
      : failed
        ? `${failures.length} failing test(s): the <<< FAILURE!/ERROR! lines, exception messages, the project frames and Caused by lines, the Results entries, totals, BUILD FAILURE and the failed goal`
        : 'build succeeds: the BUILD SUCCESS line',
  };
}

/** The maven family. */
export const mavenFamily: Family = {
  name: 'maven',
  scales: ['medium', 'large', 'small', 'medium', 'huge', 'medium', 'small', 'large'],
  generate,
};
