import { Clock, kubeAge } from '../clock.js';
import type { Rng } from '../prng.js';
import { logLine } from '../service-log.js';
import { columns } from '../text-layout.js';
import { podSuffix, podTemplateHash, privateIp, requestId, workloadName } from '../vocab-infra.js';
import type { TrajectoryBuilder } from './catalog.js';
import { TurnLog } from './turn-log.js';

/**
 * An on-call incident in the shape of the specification's `sre-disk-incident`: a system prompt, two
 * runbooks the agent never needs (doc-0, doc-1), and observations from kubectl, logs, df and du that each
 * move the investigation one step (obs-0 … obs-5). The root cause — WAL archiving failing with an
 * expired credential until pg_wal fills the Postgres volume — is only visible by following the chain, and
 * every decision quotes the pod names, paths and sizes the previous observation revealed.
 */

const SYSTEM = `You are the on-call SRE assistant for the payments platform (cluster prod-eu-1, namespace payments).

Tools:
- kubectl(args): run a read-only kubectl command against prod-eu-1.
- logs(pod, namespace, previous?, grep?, tail?): fetch container logs.
- exec(pod, namespace, command): run a read-only diagnostic command (df, du, ls, cat) inside a pod.

Rules:
- Never delete data, scale stateful sets or restart database pods without a human approving it.
- Prefer the least invasive fix and say what you would verify after it.
- Cite the evidence (pod names, paths, sizes, error text) behind every conclusion.
- When you have a remediation, state it on one line that starts with "DECISION:".`;

const DOC_TLS = `# Runbook: rotating the edge TLS certificate

Scope: ingress-nginx in the edge namespace; certificates issued by cert-manager from the internal ACME issuer.

1. Check the Certificate resource: \`kubectl -n edge get certificate wildcard-edge -o wide\`.
   READY must be True and the renewal time at least 15 days away.
2. If renewal is stuck, inspect the CertificateRequest and the Order:
   \`kubectl -n edge describe certificaterequest -l cert-manager.io/certificate-name=wildcard-edge\`.
   A pending Order usually means the HTTP-01 solver pod could not be reached; check the solver Ingress.
3. To force a renewal, annotate the Certificate:
   \`kubectl -n edge annotate certificate wildcard-edge cert-manager.io/issue-temporary-certificate="true" --overwrite\`
   then delete the Secret wildcard-edge-tls; cert-manager recreates it within two minutes.
4. Verify from outside: \`openssl s_client -connect edge.example.net:443 -servername edge.example.net | openssl x509 -noout -dates\`.
5. Post in #edge-oncall with the new notAfter date.

Escalation: platform-edge (secondary), then the security on-call for any key compromise.`;

const DOC_KAFKA = `# Runbook: consumer lag on the events pipeline

Scope: the events-enricher consumer group in data-pipeline, topic events.raw (48 partitions).

Symptoms: the lag dashboard shows more than 200k messages behind for over ten minutes; enriched events arrive late
in the warehouse.

1. Describe the group: \`kafka-consumer-groups --bootstrap-server kafka:9092 --describe --group events-enricher\`.
   Look for partitions with no active consumer (CONSUMER-ID "-") or one consumer holding many partitions.
2. Check the enricher deployment for restarts and throttling: CPU throttling above 30% means the HPA
   ceiling (12 replicas) is too low for the current traffic.
3. If a single partition lags, look for a poison message: the enricher logs "skipping offset" with the
   partition number. Skip it with the admin tool only after saving the payload to the dead-letter bucket.
4. Rebalance storms: if the group rebalances more than once a minute, raise session.timeout.ms to 45s.

Escalation: data-platform on-call. Do not reset offsets to latest without their approval: it drops data.`;

function podsTable(rng: Rng, writerPods: readonly string[], pgNode: string): string {
  const rows: string[][] = [
    ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
  ];
  const node = (): string => `ip-10-0-${rng.int(1, 63)}-${rng.int(2, 254)}.eu-west-1.compute.internal`;
  for (const p of writerPods)
    rows.push([
      p,
      '0/1',
      'CrashLoopBackOff',
      `${rng.int(11, 19)} (${kubeAge(rng.int(20, 280))} ago)`,
      '6d4h',
      privateIp(rng),
      node(),
      '<none>',
      '<none>',
    ]);
  const apiHash = podTemplateHash(rng);
  for (let i = 0; i < 3; i++)
    rows.push([
      `payments-api-${apiHash}-${podSuffix(rng)}`,
      '1/1',
      'Running',
      '0',
      '2d7h',
      privateIp(rng),
      node(),
      '<none>',
      '<none>',
    ]);
  rows.push([
    'pg-ledger-0',
    '1/1',
    'Running',
    `2 (${kubeAge(rng.int(1800, 3000))} ago)`,
    '41d',
    privateIp(rng),
    pgNode,
    '<none>',
    '<none>',
  ]);
  rows.push(['pg-ledger-1', '1/1', 'Running', '0', '41d', privateIp(rng), node(), '<none>', '<none>']);
  const bouncer = podTemplateHash(rng);
  for (let i = 0; i < 2; i++)
    rows.push([
      `pgbouncer-${bouncer}-${podSuffix(rng)}`,
      '1/1',
      'Running',
      '0',
      '13d',
      privateIp(rng),
      node(),
      '<none>',
      '<none>',
    ]);
  for (let i = rng.int(4, 9); i > 0; i--) {
    const w = workloadName(rng);
    rows.push([
      `${w}-${podTemplateHash(rng)}-${podSuffix(rng)}`,
      '1/1',
      'Running',
      rng.chance(0.2) ? '1 (3d ago)' : '0',
      kubeAge(rng.int(3600, 40 * 86400)),
      privateIp(rng),
      node(),
      '<none>',
      '<none>',
    ]);
  }
  rows.push([
    `ledger-reconcile-${rng.int(28_600_000, 28_700_000)}-${podSuffix(rng)}`,
    '0/1',
    'Completed',
    '0',
    '3h12m',
    privateIp(rng),
    node(),
    '<none>',
    '<none>',
  ]);
  const [header, ...body] = rows;
  body.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  return columns([header!, ...body]).join('\n');
}

function writerLogs(rng: Rng, clock: Clock, pod: string): string {
  const lines: string[] = [];
  const log = (
    level: 'info' | 'warn' | 'error' | 'fatal' | 'debug',
    caller: string,
    msg: string,
    fields: [string, string | number | boolean][] = [],
  ): void => {
    clock.tick(rng, 2, 300);
    lines.push(logLine('zap', clock, level, caller, msg, fields, pod));
  };
  log('info', 'cmd/ledger-writer/main.go:61', 'starting ledger-writer', [
    ['version', 'v3.18.2'],
    ['commit', rng.hex(7)],
  ]);
  log('info', 'internal/config/load.go:44', 'loaded configuration', [
    ['path', '/etc/ledger-writer/config.yaml'],
  ]);
  log('debug', 'internal/otel/setup.go:30', 'tracing enabled', [
    ['endpoint', 'otel-collector.observability:4317'],
    ['ratio', 0.05],
  ]);
  log('info', 'internal/db/pool.go:88', 'connecting to database', [
    ['dsn', 'postgres://ledger_writer@pgbouncer.payments.svc:6432/ledger?sslmode=require'],
    ['max_conns', 20],
  ]);
  log('info', 'internal/db/pool.go:103', 'database connection established', [
    ['server', 'pg-ledger-0.pg-ledger.payments.svc:5432'],
    ['server_version', '15.6'],
    ['data_directory', '/var/lib/postgresql/data/pgdata'],
  ]);
  log('info', 'internal/migrate/run.go:52', 'applying migrations', [
    ['current', 20240418093011],
    ['target', 20240502141500],
  ]);
  for (let i = rng.int(2, 4); i > 0; i--)
    log('debug', 'internal/migrate/run.go:77', 'migration step', [
      ['version', 20240420000000 + rng.int(1000, 99999)],
      ['statements', rng.int(1, 9)],
    ]);
  log('error', 'internal/migrate/run.go:91', 'migration failed', [
    ['version', 20240502141500],
    ['error', 'ERROR: could not extend file "base/16384/2619": No space left on device (SQLSTATE 53100)'],
    ['hint', 'Check free disk space.'],
  ]);
  log('warn', 'internal/migrate/run.go:96', 'rolling back migration transaction', [
    ['version', 20240502141500],
  ]);
  log('error', 'internal/db/pool.go:141', 'health check failed', [
    [
      'error',
      'FATAL: could not write to file "pg_wal/xlogtemp.412": No space left on device (SQLSTATE 53100)',
    ],
    ['request_id', requestId(rng)],
  ]);
  log('fatal', 'cmd/ledger-writer/main.go:97', 'cannot start without migrations', [
    ['error', 'migration 20240502141500: could not extend file "base/16384/2619": No space left on device'],
  ]);
  return lines.join('\n');
}

function dfOutput(rng: Rng): string {
  return columns(
    [
      ['Filesystem', 'Size', 'Used', 'Avail', 'Use%', 'Mounted on'],
      ['overlay', '80G', `${rng.int(20, 40)}G`, `${rng.int(38, 58)}G`, `${rng.int(26, 49)}%`, '/'],
      ['tmpfs', '64M', '0', '64M', '0%', '/dev'],
      ['tmpfs', '7.7G', '0', '7.7G', '0%', '/sys/fs/cgroup'],
      [
        '/dev/nvme0n1p1',
        '80G',
        `${rng.int(20, 40)}G`,
        `${rng.int(38, 58)}G`,
        `${rng.int(26, 49)}%`,
        '/etc/hosts',
      ],
      ['shm', '64M', '1.1M', '63M', '2%', '/dev/shm'],
      ['/dev/nvme1n1', '99G', '99G', '20K', '100%', '/var/lib/postgresql/data'],
      ['tmpfs', '7.6G', '12K', '7.6G', '1%', '/run/secrets/kubernetes.io/serviceaccount'],
    ],
    1,
  ).join('\n');
}

function duOutput(): string {
  const base = '/var/lib/postgresql/data/pgdata';
  return [
    ['99G', base],
    ['91G', `${base}/pg_wal`],
    ['7.6G', `${base}/base`],
    ['412M', `${base}/pg_log`],
    ['18M', `${base}/pg_xact`],
    ['1.2M', `${base}/global`],
    ['664K', `${base}/pg_multixact`],
    ['224K', `${base}/pg_subtrans`],
    ['48K', `${base}/pg_stat_tmp`],
    ['12K', `${base}/pg_logical`],
    ['8.0K', `${base}/pg_notify`],
    ['4.0K', `${base}/pg_twophase`],
  ]
    .map(([size, path]) => `${size}\t${path}`)
    .join('\n');
}

function archiveLogs(rng: Rng, clock: Clock, firstFailure: Clock): string {
  const lines: string[] = [];
  const pg = (c: Clock, pid: number, level: string, msg: string): string =>
    `${c.spaced()} UTC [${pid}] ${level}:  ${msg}`;
  const t = new Clock(firstFailure.epochMs);
  let segment = 0xc3;
  const reqId = (): string => rng.hex(16).toUpperCase();
  for (let i = 0; i < 14; i++) {
    const wal = `000000010000A2F0000000${segment.toString(16).toUpperCase()}`;
    const pid = rng.int(300, 9000);
    lines.push(
      `ERROR: ${t.spaced().replace(/-/g, '/').slice(0, 19)} upload: could not upload 'pg_wal/${wal}': AccessDenied: Access Denied`,
    );
    lines.push(`\tstatus code: 403, request id: ${reqId()}, host id: ${rng.alnum(40)}`);
    lines.push(pg(t, pid, 'LOG', 'archive command failed with exit code 1'));
    lines.push(
      pg(
        t,
        pid,
        'DETAIL',
        `The failed archive command was: wal-g wal-push pg_wal/${wal} --config /etc/wal-g/walg.json (bucket s3://acme-prod-pg-wal/ledger)`,
      ),
    );
    if (i % 3 === 2)
      lines.push(
        pg(
          t,
          pid,
          'WARNING',
          `archiving write-ahead log file "${wal}" failed too many times, will try again later`,
        ),
      );
    t.advance(rng.int(55_000, 65_000) * (i < 3 ? 1 : rng.int(20, 40)), rng);
    if (i % 4 === 3) segment++;
  }
  lines.push(
    pg(
      clock,
      rng.int(300, 9000),
      'PANIC',
      'could not write to file "pg_wal/xlogtemp.412": No space left on device',
    ),
  );
  lines.push(pg(clock, 1, 'LOG', 'server process (PID 412) was terminated by signal 6: Aborted'));
  lines.push(pg(clock, 1, 'LOG', 'terminating any other active server processes'));
  return lines.join('\n');
}

function pvcTable(rng: Rng): string {
  return columns([
    ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE'],
    ['data-pg-ledger-0', 'Bound', `pvc-${rng.uuid()}`, '100Gi', 'RWO', 'gp3-expandable', '<unset>', '41d'],
    ['data-pg-ledger-1', 'Bound', `pvc-${rng.uuid()}`, '100Gi', 'RWO', 'gp3-expandable', '<unset>', '41d'],
    ['ledger-exports', 'Bound', `pvc-${rng.uuid()}`, '20Gi', 'RWX', 'efs-sc', '<unset>', '97d'],
  ]).join('\n');
}

function build(rng: Rng): ReturnType<TrajectoryBuilder['build']> {
  // The incident is pinned to a fixed instant after the migration it mentions (20240502141500).
  const clock = new Clock(Date.UTC(2024, 4, 7, 3, 41, 12), rng.int(0, 9999));
  const firstFailure = new Clock(clock.epochMs - rng.int(9, 14) * 3_600_000);
  const since = firstFailure.spaced().slice(0, 19);
  const writerHash = podTemplateHash(rng);
  const writers = [0, 1, 2].map(() => `ledger-writer-${writerHash}-${podSuffix(rng)}`);
  const pgNode = `ip-10-0-${rng.int(1, 63)}-${rng.int(2, 254)}.eu-west-1.compute.internal`;
  const target = writers[rng.int(0, 2)]!;
  const log = new TurnLog();
  log
    .system(SYSTEM)
    .user(
      'task',
      `PagerDuty INC-${rng.int(3000, 9999)} (P1), ${clock.isoSeconds()}: ledger-writer error rate 100%, payments-api returns 503 on POST /v1/transfers. Find the cause and propose a fix.`,
    )
    .doc('doc-0', DOC_TLS)
    .doc('doc-1', DOC_KAFKA)
    .call('kubectl', { args: 'get pods -n payments -o wide' });
  log
    .note('note-0', 'Starting with the state of the pods in payments.')
    .tool('obs-0', 'kubectl', 'tool_output', podsTable(rng, writers, pgNode))
    .call('logs', { pod: target, namespace: 'payments', previous: true });
  log
    .note(
      'note-1',
      `All three ledger-writer pods are in CrashLoopBackOff; pg-ledger-0 restarted twice. Reading the previous container log of ${target}.`,
    )
    .tool('obs-1', 'logs', 'log', writerLogs(rng, clock, target))
    .call('exec', { pod: 'pg-ledger-0', namespace: 'payments', command: 'df -h' });
  log
    .note(
      'note-2',
      'The migration fails with "No space left on device" on pg-ledger-0 (data_directory /var/lib/postgresql/data/pgdata). Checking the volume.',
    )
    .tool('obs-2', 'exec', 'tool_output', dfOutput(rng))
    .call('exec', {
      pod: 'pg-ledger-0',
      namespace: 'payments',
      command: 'du -xh --max-depth=1 /var/lib/postgresql/data/pgdata | sort -rh | head -n 12',
    });
  log
    .note(
      'note-3',
      '/dev/nvme1n1 mounted on /var/lib/postgresql/data is at 100% (99G of 99G). Finding what fills it.',
    )
    .tool('obs-3', 'exec', 'tool_output', duOutput())
    .call('logs', { pod: 'pg-ledger-0', namespace: 'payments', grep: 'archive|PANIC|wal-g', tail: 400 });
  log
    .note(
      'note-4',
      'pg_wal holds 91G of the 99G: WAL segments are not being recycled, which usually means archiving is failing.',
    )
    .tool('obs-4', 'logs', 'log', archiveLogs(rng, clock, firstFailure))
    .call('kubectl', { args: 'get pvc -n payments' });
  log
    .note(
      'note-5',
      `wal-g wal-push has failed with AccessDenied (403) against s3://acme-prod-pg-wal/ledger since ${since} UTC, so Postgres keeps every segment in pg_wal.\nDECISION: restore WAL archiving first (rotate the wal-g S3 credentials used by pg-ledger-0) so pg_wal can drain; then size the volume for headroom. Checking the PVC before proposing the expansion.`,
    )
    .tool('obs-5', 'kubectl', 'tool_output', pvcTable(rng))
    .final(
      `DECISION: root cause is WAL archiving failing since ${since} UTC (wal-g wal-push → AccessDenied 403 on s3://acme-prod-pg-wal/ledger). pg_wal grew to 91G and filled /dev/nvme1n1 (99G, 100%) on pg-ledger-0, so writes fail with "No space left on device" and ledger-writer crash-loops on migration 20240502141500. Fix: rotate the wal-g S3 credentials, verify archiving resumes and pg_wal shrinks, then expand PVC data-pg-ledger-0 from 100Gi to 150Gi. Needs human approval before touching pg-ledger-0.`,
    );
  return log.finish('sre-disk-incident', 'datasets/generate.ts', 'pass');
}

/** The SRE disk incident. */
export const sreDiskIncident: TrajectoryBuilder = { id: 'sre-disk-incident', build };
