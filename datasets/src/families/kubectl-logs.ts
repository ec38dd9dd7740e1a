import { Clock } from '../clock.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { LOG_FORMATS, type LogFormat, loggerName, logLine, requestLine } from '../service-log.js';
import { podSuffix, podTemplateHash, privateIp, requestId, workloadName } from '../vocab-infra.js';
import { camel, functionWords, NOUNS, pascal, phrase, plural, snake } from '../vocab-words.js';

/**
 * `kubectl logs` output of services in six log formats: crashes at start-up (retries then a fatal),
 * long-running services whose traffic turns into an incident (pool exhaustion, upstream timeouts, a full
 * disk, a panic), and exceptions with Java or Python stack traces. Kept lines: the first line that names
 * the root cause, the first error it produces, the fatal/panic/exit line, and for stack traces the
 * exception, its `Caused by` and the first frame in the service's own code. Repeated 5xx lines that follow
 * are consequences and stay unlabelled.
 */

const SCALE_LINES: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [20, 60],
  medium: [110, 280],
  large: [420, 700],
  huge: [1800, 2300],
};

interface Incident {
  readonly title: string;
  readonly rootCause: (rng: Rng) => string;
  readonly symptom: (rng: Rng) => string;
  readonly fatal: string | null;
}

const INCIDENTS: readonly Incident[] = [
  {
    title: 'database connection pool exhausted',
    rootCause: (rng) =>
      `pq: sorry, too many clients already (pool max_open=${rng.pick([10, 20, 50])} in_use=${rng.pick([10, 20, 50])} wait_count=${rng.int(100, 9000)})`,
    symptom: (rng) => `timeout acquiring connection from pool after ${rng.pick([5, 10, 30])}s`,
    fatal: null,
  },
  {
    title: 'upstream timeouts',
    rootCause: (rng) =>
      `upstream ${workloadName(rng)}.${rng.pick(['payments', 'ledger', 'identity'])}.svc.cluster.local:8080 unhealthy: ${rng.int(3, 12)} consecutive failures, circuit breaker OPEN`,
    symptom: (rng) =>
      `context deadline exceeded after ${rng.pick([2000, 5000, 10000])}ms calling ${rng.pick(['POST', 'GET'])} /internal/${plural(rng.pick(NOUNS))}`,
    fatal: null,
  },
  {
    title: 'disk full',
    rootCause: (rng) =>
      `write /var/lib/${rng.pick(['app', 'spool', 'data'])}/${rng.pick(['wal', 'queue', 'segments'])}/${rng.hex(8)}.log: no space left on device`,
    symptom: () => 'failed to persist batch, will retry',
    fatal: 'shutting down: storage unavailable',
  },
  {
    title: 'nil pointer panic',
    rootCause: (rng) =>
      `panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=0x1 addr=0x${rng.hex(2)} pc=0x${rng.hex(6)}]`,
    symptom: () => 'recovered from panic in handler',
    fatal: 'exit status 2',
  },
  {
    title: 'expired credentials',
    rootCause: (rng) =>
      `AccessDenied: The security token included in the request is expired (RequestId: ${rng.uuid()})`,
    symptom: (rng) =>
      `failed to upload object s3://${rng.pick(NOUNS)}-${rng.pick(['exports', 'archive', 'reports'])}/${rng.int(2023, 2025)}/${rng.hex(12)}.parquet`,
    fatal: null,
  },
];

function startupCrash(
  rng: Rng,
  out: LabelledText,
  format: LogFormat,
  clock: Clock,
  component: string,
  host: string,
  target: number,
): string {
  const log = (
    level: 'debug' | 'info' | 'warn' | 'error' | 'fatal',
    msg: string,
    fields: [string, string | number | boolean][] = [],
    keep = false,
  ): void => {
    clock.tick(rng, 1, 400);
    out.add(logLine(format, clock, level, loggerName(rng, format, component), msg, fields, host), keep);
  };
  log('info', `starting ${component}`, [
    ['version', `v${rng.int(0, 4)}.${rng.int(0, 40)}.${rng.int(0, 12)}`],
    ['commit', rng.hex(7)],
    ['go_version', rng.pick(['go1.21.6', 'go1.22.4', 'go1.23.1'])],
  ]);
  log('info', 'loaded configuration', [
    ['path', `/etc/${component}/config.yaml`],
    ['env', rng.pick(['production', 'prod', 'staging'])],
  ]);
  const boot: (() => void)[] = [
    () =>
      log('debug', 'feature flag', [
        ['flag', `${rng.pick(NOUNS)}_${rng.pick(['v2', 'fast_path', 'shadow'])}`],
        ['enabled', rng.chance(0.5)],
      ]),
    () =>
      log('info', 'registered route', [
        ['method', rng.pick(['GET', 'POST', 'PUT'])],
        ['path', `/v1/${plural(rng.pick(NOUNS))}${rng.chance(0.5) ? '/{id}' : ''}`],
      ]),
    () =>
      log('info', 'migration applied', [
        ['version', rng.int(20230101, 20250930) * 100 + rng.int(0, 99)],
        ['name', `${rng.pick(['add', 'drop', 'alter'])}_${rng.pick(NOUNS)}_${rng.pick(NOUNS)}`],
      ]),
    () => log('debug', phrase(rng), [['component', rng.pick(NOUNS)]]),
    () =>
      log('info', 'connected', [
        ['backend', rng.pick(['redis', 'kafka', 'nats', 'otel-collector'])],
        ['latency_ms', rng.int(1, 90)],
      ]),
    () =>
      log(
        'warn',
        rng.pick([
          'GOMAXPROCS not set, using 2',
          'TLS verification disabled for internal endpoints',
          'tracing sampler ratio is 1.0 in production',
        ]),
        [],
      ),
  ];
  while (out.lineCount < target - 10) rng.pick(boot)();
  const kind = rng.int(0, 3);
  if (kind === 0) {
    const db = `${rng.pick(['postgres', 'pg-primary', 'ledger-db'])}.${rng.pick(['payments', 'data', 'ledger'])}.svc.cluster.local:5432`;
    const attempts = rng.int(3, 6);
    for (let a = 1; a <= attempts; a++) {
      clock.tick(rng, 900, 5000);
      out.add(
        logLine(
          format,
          clock,
          'warn',
          loggerName(rng, format, component),
          'database not ready, retrying',
          [
            ['attempt', `${a}/${attempts}`],
            ['error', `dial tcp ${privateIp(rng)}:5432: connect: connection refused`],
            ['addr', db],
          ],
          host,
        ),
        a === 1,
      );
    }
    log(
      'fatal',
      'could not connect to database',
      [
        ['addr', db],
        ['error', 'connection refused'],
        ['attempts', attempts],
      ],
      true,
    );
    return `the database at ${db} refuses connections`;
  }
  if (kind === 1) {
    const v = rng.pick(['DATABASE_URL', 'REDIS_URL', 'JWT_SIGNING_KEY', 'KAFKA_BROKERS', 'STRIPE_API_KEY']);
    log('error', `required environment variable ${v} is not set`, [], true);
    log('fatal', 'invalid configuration, exiting', [['missing', v]], true);
    return `${v} is missing from the environment`;
  }
  if (kind === 2) {
    const line = rng.int(3, 90);
    log(
      'error',
      `failed to parse /etc/${component}/config.yaml`,
      [['error', `yaml: line ${line}: did not find expected key`]],
      true,
    );
    log('fatal', 'exiting', [['code', 1]], true);
    return `config.yaml line ${line} is invalid`;
  }
  const port = rng.pick([8080, 9090, 3000]);
  log('info', 'starting http server', [['addr', `:${port}`]]);
  log('error', 'server error', [['error', `listen tcp :${port}: bind: address already in use`]], true);
  log('fatal', 'http server stopped', [], true);
  return `port ${port} is already in use`;
}

function stackTrace(rng: Rng, out: LabelledText, format: LogFormat, component: string): void {
  const pkg = `com.${component.split('-')[0]}.${rng.pick(NOUNS)}`;
  if (format === 'spring') {
    const cls = pascal([rng.pick(NOUNS), 'Service']);
    out.add(
      `java.lang.IllegalStateException: ${rng.pick(NOUNS)} ${rng.int(1, 99999)} has no ${rng.pick(NOUNS)}`,
      true,
    );
    out.add(`\tat ${pkg}.${cls}.${camel(functionWords(rng))}(${cls}.java:${rng.int(20, 400)})`, true);
    for (let k = rng.int(3, 12); k > 0; k--)
      out.add(
        `\tat ${rng.pick(['org.springframework.aop.framework.ReflectiveMethodInvocation.proceed(ReflectiveMethodInvocation.java:184)', 'org.springframework.transaction.interceptor.TransactionInterceptor.invoke(TransactionInterceptor.java:119)', 'jdk.internal.reflect.GeneratedMethodAccessor87.invoke(Unknown Source)', 'org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:162)'])}`,
      );
    out.add(
      `Caused by: java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after ${rng.pick([30000, 10000])}ms.`,
      true,
    );
    out.add('\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:696)');
    out.add(`\t... ${rng.int(40, 120)} common frames omitted`);
    return;
  }
  out.add('Traceback (most recent call last):');
  const mod = `${component.replace(/-/g, '_')}/${rng.pick(NOUNS)}.py`;
  for (let k = rng.int(1, 4); k > 0; k--) {
    out.add(
      `  File "/usr/local/lib/python3.11/site-packages/${rng.pick(['starlette/routing.py', 'fastapi/routing.py', 'anyio/_backends/_asyncio.py'])}", line ${rng.int(50, 900)}, in ${rng.pick(['app', 'handle', 'run'])}`,
    );
    out.add(
      `    ${rng.pick(['await route.handle(scope, receive, send)', 'raw_response = await run_endpoint_function(', 'return await future'])}`,
    );
  }
  const fn = snake(functionWords(rng));
  out.add(`  File "/app/${mod}", line ${rng.int(10, 500)}, in ${fn}`, true);
  const key = rng.pick(NOUNS);
  out.add(`    ${key} = payload["${key}"]`, true);
  out.add(`KeyError: '${key}'`, true);
}

function longRunning(
  rng: Rng,
  out: LabelledText,
  format: LogFormat,
  clock: Clock,
  component: string,
  host: string,
  target: number,
): string {
  const idStyle = rng.int(0, 3);
  const incident = rng.pick(INCIDENTS);
  const start = Math.floor(target * rng.float(0.45, 0.85));
  let i = 0;
  let cause = '';
  let symptomSeen = false;
  while (out.lineCount < target) {
    clock.tick(rng, 5, i >= start ? 300 : 2500);
    const logger = loggerName(rng, format, component);
    if (i === start) {
      cause = incident.rootCause(rng);
      out.add(
        logLine(format, clock, 'error', logger, cause, [['request_id', requestId(rng, idStyle)]], host),
        true,
      );
      if (incident.title === 'nil pointer panic' || rng.chance(0.2)) {
        stackTrace(rng, out, format, component);
      }
    } else if (i > start && rng.chance(0.35)) {
      const first = !symptomSeen;
      symptomSeen = true;
      out.add(
        logLine(
          format,
          clock,
          'error',
          logger,
          incident.symptom(rng),
          [
            ['request_id', requestId(rng, idStyle)],
            ['tenant', `t-${rng.int(1, 500)}`],
          ],
          host,
        ),
        first,
      );
      if (rng.chance(0.4))
        out.add(requestLine(rng, format, clock, component, host, rng.pick([500, 502, 503, 504]), idStyle));
    } else if (rng.chance(0.04)) {
      out.add(
        logLine(
          format,
          clock,
          'warn',
          logger,
          rng.pick([
            'slow query',
            'deprecated header X-Api-Version used',
            'cache miss ratio above 0.4',
            'retrying idempotent request',
          ]),
          [
            ['duration_ms', rng.int(200, 4000)],
            ['request_id', requestId(rng, idStyle)],
          ],
          host,
        ),
      );
    } else if (rng.chance(0.1)) {
      out.add(
        logLine(
          format,
          clock,
          rng.pick(['debug', 'info'] as const),
          logger,
          phrase(rng),
          [
            ['job', `${rng.pick(NOUNS)}-${rng.pick(['sweeper', 'compactor', 'refresher'])}`],
            ['items', rng.int(0, 500)],
          ],
          host,
        ),
      );
    } else {
      out.add(requestLine(rng, format, clock, component, host, undefined, idStyle));
    }
    i++;
  }
  if (incident.fatal) {
    clock.tick(rng, 10, 900);
    out.add(
      logLine(format, clock, 'fatal', loggerName(rng, format, component), incident.fatal, [], host),
      true,
    );
  }
  return `${incident.title}: ${cause}`;
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const clock = Clock.within(rng);
  const format = LOG_FORMATS[index % LOG_FORMATS.length]!;
  const component = workloadName(rng);
  const ns = rng.pick(['payments', 'ledger', 'checkout', 'platform', 'ingest']);
  const host = `${component}-${podTemplateHash(rng)}-${podSuffix(rng)}`;
  const crash = scale === 'small' || (scale === 'medium' && rng.chance(0.4));
  const prefix = !crash && scale === 'huge' && rng.chance(0.5);
  out.add(
    `$ kubectl logs ${prefix ? `-l app=${component} --prefix --tail=-1` : host}${crash ? ' --previous' : ''} -n ${ns}${rng.chance(0.3) ? ' --timestamps' : ''}`.replace(
      ' --timestamps',
      '',
    ),
  );
  const [lo, hi] = SCALE_LINES[scale];
  let summary: string;
  if (prefix) {
    const pods = [host, `${component}-${host.split('-').slice(-2, -1)[0]}-${podSuffix(rng)}`];
    out.setPrefix(() => `[pod/${rng.pick(pods)}/${component}] `);
  }
  if (crash) summary = startupCrash(rng, out, format, clock, component, host, Math.min(rng.int(lo, hi), 140));
  else summary = longRunning(rng, out, format, clock, component, host, rng.int(lo, hi));
  out.setPrefix(null);
  const { text, keep } = out.finish();
  return {
    name: `kubectl-logs-${String(index).padStart(2, '0')}-${format}-${crash ? 'crash' : 'incident'}`,
    ext: 'log',
    kind: 'log',
    text,
    keep,
    task: crash ? `find why ${component} keeps restarting` : `find what broke ${component} and when`,
    why: crash
      ? `start-up fails because ${summary}: the first error naming it and the fatal line`
      : `${summary}: the first line naming the cause, the first error it produced${summary.startsWith('disk') || summary.startsWith('nil') ? ' and the fatal line' : ''}`,
  };
}

/** The kubectl-logs family. */
export const kubectlLogsFamily: Family = {
  name: 'kubectl-logs',
  scales: [
    'small',
    'large',
    'medium',
    'small',
    'medium',
    'medium',
    'large',
    'small',
    'medium',
    'huge',
    'small',
    'medium',
  ],
  generate,
};
