import { kubeAge } from '../clock.js';
import { buildCluster, type Cluster, type Pod, readyColumn, statusColumn } from '../k8s-cluster.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { columns } from '../text-layout.js';

/**
 * `kubectl get` tables: pods across namespaces (plain and `-o wide`), nodes, events and deployments.
 * Kept lines: the rows of unhealthy pods (CrashLoopBackOff, OOMKilled, ImagePullBackOff, Pending,
 * Evicted, config errors), NotReady or cordoned nodes, Warning events about them, and deployments with
 * fewer ready replicas than desired. A table with nothing wrong keeps nothing but its header.
 */

const SCALE_PODS: Readonly<Record<Scale, readonly [number, number]>> = {
  small: [20, 60],
  medium: [80, 300],
  large: [450, 1000],
  huge: [1900, 2600],
};

function restartsColumn(pod: Pod): string {
  return pod.restarts > 0 ? `${pod.restarts} (${kubeAge(pod.lastRestartSec)} ago)` : '0';
}

function renderPods(
  out: LabelledText,
  cluster: Cluster,
  allNs: boolean,
  wide: boolean,
  ns: string | null,
): number {
  const pods = cluster.pods
    .filter((p) => allNs || p.namespace === ns)
    .slice()
    .sort((a, b) => (a.namespace + a.name < b.namespace + b.name ? -1 : 1));
  const header = [
    ...(allNs ? ['NAMESPACE'] : []),
    'NAME',
    'READY',
    'STATUS',
    'RESTARTS',
    'AGE',
    ...(wide ? ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'] : []),
  ];
  const rows = pods.map((p) => [
    ...(allNs ? [p.namespace] : []),
    p.name,
    readyColumn(p),
    statusColumn(p),
    restartsColumn(p),
    kubeAge(p.ageSec),
    ...(wide ? [p.ip ?? '<none>', p.node ?? '<none>', '<none>', '<none>'] : []),
  ]);
  const lines = columns([header, ...rows]);
  out.add(lines[0]!);
  let bad = 0;
  pods.forEach((p, i) => {
    out.add(lines[i + 1]!, p.fault !== null);
    if (p.fault) bad++;
  });
  return bad;
}

function renderNodes(out: LabelledText, cluster: Cluster, wide: boolean): number {
  const header = [
    'NAME',
    'STATUS',
    'ROLES',
    'AGE',
    'VERSION',
    ...(wide ? ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'] : []),
  ];
  const rows = cluster.nodes.map((n) => [
    n.name,
    n.status,
    n.roles,
    kubeAge(n.ageSec),
    n.version,
    ...(wide
      ? [
          n.internalIp,
          '<none>',
          'Amazon Linux 2023.5.20240805',
          '6.1.102-108.177.amzn2023.x86_64',
          'containerd://1.7.20',
        ]
      : []),
  ]);
  const lines = columns([header, ...rows]);
  out.add(lines[0]!);
  let bad = 0;
  cluster.nodes.forEach((n, i) => {
    const isBad = n.status !== 'Ready';
    out.add(lines[i + 1]!, isBad);
    if (isBad) bad++;
  });
  return bad;
}

function renderEvents(
  rng: Rng,
  out: LabelledText,
  cluster: Cluster,
  allNs: boolean,
  ns: string | null,
  scale: Scale,
): number {
  type Ev = {
    ns: string;
    seen: number;
    type: string;
    reason: string;
    object: string;
    message: string;
    keep: boolean;
  };
  const events: Ev[] = [];
  const pods = cluster.pods.filter((p) => allNs || p.namespace === ns);
  const noise =
    scale === 'small'
      ? rng.int(10, 30)
      : scale === 'medium'
        ? rng.int(80, 250)
        : scale === 'large'
          ? rng.int(400, 900)
          : rng.int(1800, 2500);
  for (let i = 0; i < noise && pods.length > 0; i++) {
    const p = rng.pick(pods);
    const kind = rng.int(0, 5);
    const [reason, message] = [
      ['Scheduled', `Successfully assigned ${p.namespace}/${p.name} to ${p.node ?? 'node'}`],
      ['Pulled', `Container image "${p.image}" already present on machine`],
      ['Created', `Created container ${p.container}`],
      ['Started', `Started container ${p.container}`],
      ['Killing', `Stopping container ${p.container}`],
      ['SuccessfulCreate', `Created pod: ${p.name}`],
    ][kind]!;
    events.push({
      ns: p.namespace,
      seen: rng.int(5, 7200),
      type: 'Normal',
      reason: reason!,
      object: kind === 5 ? `replicaset/${p.name.split('-').slice(0, -1).join('-')}` : `pod/${p.name}`,
      message: message!,
      keep: false,
    });
  }
  for (const p of pods.filter((x) => x.fault)) {
    const f = p.fault!;
    for (let k = rng.int(1, 3); k > 0; k--) {
      events.push({
        ns: p.namespace,
        seen: rng.int(5, 600),
        type: 'Warning',
        reason: f.eventReason,
        object: `pod/${p.name}`,
        message: f.eventMessage,
        keep: true,
      });
    }
    if (f.fault === 'ImagePullBackOff')
      events.push({
        ns: p.namespace,
        seen: rng.int(5, 600),
        type: 'Normal',
        reason: 'BackOff',
        object: `pod/${p.name}`,
        message: `Back-off pulling image "${p.image}"`,
        keep: false,
      });
  }
  events.sort((a, b) => b.seen - a.seen);
  const header = [...(allNs ? ['NAMESPACE'] : []), 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'];
  const lines = columns([
    header,
    ...events.map((e) => [...(allNs ? [e.ns] : []), kubeAge(e.seen), e.type, e.reason, e.object, e.message]),
  ]);
  out.add(lines[0]!);
  events.forEach((e, i) => {
    out.add(lines[i + 1]!, e.keep);
  });
  return events.filter((e) => e.keep).length;
}

function renderDeployments(out: LabelledText, cluster: Cluster, allNs: boolean, ns: string | null): number {
  const groups = new Map<string, Pod[]>();
  for (const p of cluster.pods) {
    if (p.completed || (!allNs && p.namespace !== ns)) continue;
    const key = `${p.namespace}\u0000${p.workload}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const keys = [...groups.keys()].sort();
  const header = [...(allNs ? ['NAMESPACE'] : []), 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'];
  const rows = keys.map((k) => {
    const ps = groups.get(k)!;
    const ready = ps.filter((p) => !p.fault).length;
    const [namespace, name] = k.split('\u0000') as [string, string];
    return {
      cells: [
        ...(allNs ? [namespace] : []),
        name,
        `${ready}/${ps.length}`,
        String(ps.length),
        String(ready),
        kubeAge(Math.max(...ps.map((p) => p.ageSec))),
      ],
      bad: ready < ps.length,
    };
  });
  const lines = columns([header, ...rows.map((r) => r.cells)]);
  out.add(lines[0]!);
  rows.forEach((r, i) => {
    out.add(lines[i + 1]!, r.bad);
  });
  return rows.filter((r) => r.bad).length;
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const [lo, hi] = SCALE_PODS[scale];
  const what = (['pods', 'pods', 'events', 'nodes', 'deployments', 'pods'] as const)[index % 6]!;
  const podCount =
    what === 'pods'
      ? rng.int(lo, hi)
      : what === 'deployments'
        ? Math.round(rng.int(lo, hi) * 1.8)
        : rng.int(20, 120);
  const faults = rng.weighted([
    [1, 4],
    [2, 3],
    [rng.int(3, 8), 2],
  ] as const);
  let cluster = buildCluster(rng, podCount, faults);
  if (what === 'nodes' && cluster.nodes.every((n) => n.status === 'Ready') && faults > 0) {
    const k = rng.int(0, cluster.nodes.length - 1);
    const status = rng.pick(['NotReady', 'Ready,SchedulingDisabled'] as const);
    cluster = { ...cluster, nodes: cluster.nodes.map((n, i) => (i === k ? { ...n, status } : n)) };
  }
  const allNs = what !== 'nodes' && rng.chance(0.6);
  const faulty = cluster.pods.find((p) => p.fault);
  const ns = allNs ? null : (faulty ?? rng.pick(cluster.pods)).namespace;
  const wide = rng.chance(0.35);
  const ctx = rng.chance(0.3) ? ` --context ${cluster.name}` : '';
  let bad = 0;
  if (what === 'nodes') {
    out.add(`$ kubectl get nodes${wide ? ' -o wide' : ''}${ctx}`);
    bad = renderNodes(out, cluster, wide);
  } else {
    const nsFlag = allNs ? ' -A' : ` -n ${ns}`;
    out.add(
      `$ kubectl get ${what}${nsFlag}${what === 'pods' && wide ? ' -o wide' : ''}${what === 'events' ? " --sort-by='.lastTimestamp'" : ''}${ctx}`,
    );
    if (what === 'pods') bad = renderPods(out, cluster, allNs, wide, ns);
    else if (what === 'events') bad = renderEvents(rng, out, cluster, allNs, ns, scale);
    else bad = renderDeployments(out, cluster, allNs, ns);
  }
  const { text, keep } = out.finish();
  const subject = { pods: 'pods', events: 'warning events', nodes: 'nodes', deployments: 'deployments' }[
    what
  ];
  return {
    name: `kubectl-get-${what}-${String(index).padStart(2, '0')}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task: 'find which workloads are unhealthy in the cluster',
    why:
      bad > 0
        ? `${bad} unhealthy ${subject}: their rows (status, restarts, reason) are what the next command targets`
        : `no unhealthy ${subject}: nothing in the table changes the next step`,
  };
}

/** The kubectl-get family. */
export const kubectlGetFamily: Family = {
  name: 'kubectl-get',
  scales: ['medium', 'small', 'medium', 'small', 'medium', 'large', 'small', 'medium', 'large', 'huge'],
  generate,
};
