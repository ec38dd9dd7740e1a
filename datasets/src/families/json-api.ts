import { Clock } from '../clock.js';
import { type Json, jsonLines } from '../json-lines.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { imageRef, podSuffix, podTemplateHash, privateIp, workloadName } from '../vocab-infra.js';
import { NOUNS, phrase, plural } from '../vocab-words.js';
import { type ApiResponse, charges, orders, workflowRuns } from './json-api-records.js';

/**
 * JSON API responses with arrays of records — a CI provider's workflow runs, a payments list endpoint,
 * Kubernetes `-o json`, an internal orders API with cursors, a search engine's hits — pretty-printed (2 or
 * 4 spaces) or as NDJSON. Records are heterogeneous: optional fields come and go, values are null, nested
 * objects and arrays vary in shape. Each response answers a question about a few records; kept lines are
 * those records' identifying and deciding fields (and the pagination flag when more pages must be fetched).
 */

const SCALE_RECORDS: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [1, 3],
  medium: [6, 20],
  large: [40, 80],
  huge: [70, 90],
};

function podsJson(rng: Rng, n: number, clock: Clock): ApiResponse {
  const items: Json[] = [];
  const broken = new Set<number>();
  const ns = rng.pick(['payments', 'ledger', 'checkout']);
  const forced = rng.int(0, n - 1);
  for (let i = 0; i < n; i++) {
    const app = workloadName(rng);
    const name = `${app}-${podTemplateHash(rng)}-${podSuffix(rng)}`;
    const bad = i === forced || rng.chance(0.15);
    if (bad) broken.add(i);
    const reason = rng.pick(['CrashLoopBackOff', 'ImagePullBackOff', 'CreateContainerConfigError']);
    const state: Json = bad
      ? {
          waiting: {
            reason,
            message:
              reason === 'CrashLoopBackOff'
                ? `back-off 5m0s restarting failed container=${app} pod=${name}_${ns}(${rng.uuid()})`
                : reason === 'ImagePullBackOff'
                  ? `Back-off pulling image "${imageRef(rng, app)}"`
                  : `secret "${app}-env" not found`,
          },
        }
      : { running: { startedAt: clock.isoSeconds() } };
    items.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        creationTimestamp: clock.isoSeconds(),
        generateName: `${app}-`,
        labels: { app, 'pod-template-hash': podTemplateHash(rng) },
        name,
        namespace: ns,
        resourceVersion: String(rng.int(1_000_000, 99_999_999)),
        uid: rng.uuid(),
      },
      spec: {
        containers: [
          {
            image: imageRef(rng, app),
            name: app,
            ports: [{ containerPort: rng.pick([8080, 3000, 9090]), protocol: 'TCP' }],
            resources: {
              limits: { memory: rng.pick(['256Mi', '512Mi']) },
              requests: { cpu: rng.pick(['100m', '250m']) },
            },
          },
        ],
        nodeName: `ip-10-0-${rng.int(0, 63)}-${rng.int(1, 254)}.ec2.internal`,
        restartPolicy: 'Always',
      },
      status: {
        conditions: [
          { lastTransitionTime: clock.isoSeconds(), status: bad ? 'False' : 'True', type: 'Ready' },
        ],
        containerStatuses: [
          {
            ...(bad && reason !== 'CrashLoopBackOff' ? {} : { containerID: `containerd://${rng.hex(64)}` }),
            image: imageRef(rng, app),
            name: app,
            ready: !bad,
            restartCount: bad && reason === 'CrashLoopBackOff' ? rng.int(5, 60) : 0,
            started: !bad,
            state,
          },
        ],
        hostIP: privateIp(rng, false),
        phase: bad && reason !== 'CrashLoopBackOff' ? 'Pending' : 'Running',
        podIP: privateIp(rng),
        qosClass: 'Burstable',
        startTime: clock.isoSeconds(),
      },
    });
  }
  return {
    body: { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } },
    keep: (p) =>
      p[0] === 'items' &&
      broken.has(p[1] as number) &&
      ((p[2] === 'metadata' && p[3] === 'name') ||
        (p[2] === 'status' &&
          p[3] === 'containerStatuses' &&
          ((p[5] === 'state' && (p[7] === 'reason' || p[7] === 'message')) || p[5] === 'restartCount'))),
    task: `find the pods in ${ns} that are not ready and why`,
    why: 'not-ready pods: their metadata.name and the waiting reason, message and restart count',
  };
}

function searchHits(rng: Rng, n: number, clock: Clock): ApiResponse {
  const service = workloadName(rng);
  const hits: Json[] = [];
  const errors = new Set<number>();
  const forced = rng.int(0, n - 1);
  for (let i = 0; i < n; i++) {
    clock.rewind(rng.int(100, 60_000));
    const drawn = rng.weighted([
      ['INFO', 10],
      ['WARN', 2],
      ['ERROR', 1],
    ] as const);
    const level = i === forced ? 'ERROR' : drawn;
    if (level === 'ERROR') errors.add(i);
    hits.push({
      _index: `logs-${service}-${clock.iso().slice(0, 10).replace(/-/g, '.')}`,
      _id: rng.alnum(20),
      _score: null,
      _source: {
        '@timestamp': clock.iso(),
        level,
        message:
          level === 'ERROR'
            ? rng.pick([
                `upstream connect error or disconnect/reset before headers. reset reason: connection timeout`,
                `payment provider returned 502 for ${rng.pick(NOUNS)} ${rng.alnum(8)}`,
                `deadlock detected while updating ${plural(rng.pick(NOUNS))}`,
              ])
            : phrase(rng),
        service: { name: service, version: `v${rng.int(1, 4)}.${rng.int(0, 30)}.${rng.int(0, 9)}` },
        ...(rng.chance(0.7) ? { trace: { id: rng.hex(32), span_id: rng.hex(16) } } : {}),
        ...(rng.chance(0.5)
          ? {
              http: {
                method: rng.pick(['GET', 'POST']),
                status_code: level === 'ERROR' ? rng.pick([500, 502, 504]) : 200,
                path: `/v1/${plural(rng.pick(NOUNS))}`,
              },
            }
          : {}),
      },
      sort: [clock.epochMs],
    });
  }
  const shards = rng.int(1, 12);
  return {
    body: {
      took: rng.int(2, 900),
      timed_out: false,
      _shards: { total: shards, successful: shards, skipped: 0, failed: 0 },
      hits: {
        total: { value: n + rng.int(0, 9000), relation: rng.pick(['eq', 'gte']) },
        max_score: null,
        hits,
      },
    },
    keep: (p) =>
      p[0] === 'hits' &&
      p[1] === 'hits' &&
      errors.has(p[2] as number) &&
      p[3] === '_source' &&
      (p[4] === '@timestamp' ||
        p[4] === 'message' ||
        p[4] === 'level' ||
        (p[4] === 'trace' && p[5] === 'id')),
    task: `find the ERROR log entries of ${service} in the last hour`,
    why: `${errors.size} error hit(s): timestamp, level, message and trace id`,
  };
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const clock = Clock.within(rng);
  const [lo, hi] = SCALE_RECORDS[scale];
  const n = rng.int(lo, hi);
  const shape = (['runs', 'charges', 'pods', 'orders', 'search'] as const)[index % 5]!;
  const api = { runs: workflowRuns, charges, pods: podsJson, orders, search: searchHits }[shape](
    rng,
    n,
    clock,
  );
  const out = new LabelledText();
  const ndjson = shape === 'orders' && rng.chance(0.4);
  if (ndjson) {
    const records = (api.body as { results: Json[] }).results;
    records.forEach((r, i) => {
      const keepRecord = jsonLines(r as Json, 2).some((l) => api.keep(['results', i, ...l.path]));
      out.add(JSON.stringify(r), keepRecord);
    });
  } else {
    const indent = rng.pick([2, 2, 4]);
    for (const l of jsonLines(api.body, indent)) {
      const leaf = !/[[{]$/.test(l.text.trimEnd()) && !/^\s*[\]}],?$/.test(l.text);
      out.add(l.text, leaf && api.keep(l.path));
    }
  }
  const { text, keep } = out.finish();
  return {
    name: `json-api-${String(index).padStart(2, '0')}-${shape}`,
    ext: ndjson ? 'ndjson' : 'json',
    kind: 'json',
    text,
    keep,
    task: api.task,
    why: api.why,
  };
}

/** The json-api family. */
export const jsonApiFamily: Family = {
  name: 'json-api',
  scales: ['medium', 'small', 'medium', 'large', 'small', 'medium', 'huge', 'small', 'medium', 'large'],
  generate,
};
