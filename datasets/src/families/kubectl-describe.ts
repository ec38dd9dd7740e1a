import { Clock, kubeAge } from '../clock.js';
import { buildCluster, type Cluster, type Pod } from '../k8s-cluster.js';
import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { columns } from '../text-layout.js';
import { podSuffix, privateIp } from '../vocab-infra.js';
import { describeNode } from './kubectl-describe-node.js';

/**
 * `kubectl describe pod` and `kubectl describe node` for the cluster model. Kept lines for a broken pod:
 * the container State and its Reason, Last State with Reason and Exit Code, Restart Count, the limit that
 * was hit (OOMKilled), and the Warning events; for a node under pressure: the True pressure conditions,
 * the taints they caused and the eviction events. A healthy pod keeps only its Status line.
 */

/** Memory requests are set to half the limit in the model's manifests. */
const HALF_MEMORY: Readonly<Record<string, string>> = {
  '256Mi': '128Mi',
  '512Mi': '256Mi',
  '1Gi': '512Mi',
  '2Gi': '1Gi',
};

function describePod(
  rng: Rng,
  out: LabelledText,
  cluster: Cluster,
  pod: Pod,
  clock: Clock,
  alone = true,
): void {
  const f = pod.fault;
  const started = new Clock(clock.epochMs - pod.ageSec * 1000);
  const kv = (k: string, v: string, keep = false): number => out.add(`${`${k}:`.padEnd(18)}${v}`, keep);
  kv('Name', pod.name);
  kv('Namespace', pod.namespace);
  kv('Priority', '0');
  kv('Service Account', rng.pick(['default', pod.workload]));
  kv(
    'Node',
    pod.node
      ? `${pod.node}/${cluster.nodes.find((n) => n.name === pod.node)?.internalIp ?? '10.0.0.1'}`
      : '<none>',
  );
  kv('Start Time', started.rfc1123());
  kv('Labels', `app.kubernetes.io/name=${pod.workload}`);
  out.add(`${''.padEnd(18)}pod-template-hash=${pod.name.split('-').slice(-2, -1)[0]}`);
  kv(
    'Annotations',
    rng.pick([
      '<none>',
      `kubectl.kubernetes.io/restartedAt: ${started.isoSeconds()}`,
      'prometheus.io/scrape: true',
    ]),
  );
  const status = f?.fault === 'Pending' ? 'Pending' : f?.fault === 'Evicted' ? 'Failed' : 'Running';
  kv('Status', status, (f === null && alone) || f?.fault === 'Pending' || f?.fault === 'Evicted');
  if (f?.fault === 'Evicted') {
    kv('Reason', 'Evicted', true);
    kv('Message', f.eventMessage, true);
  }
  kv('IP', pod.ip ?? '');
  out.add('IPs:');
  if (pod.ip) out.add(`  IP:           ${pod.ip}`);
  kv('Controlled By', `ReplicaSet/${pod.name.split('-').slice(0, -1).join('-')}`);
  out.add('Containers:');
  out.add(`  ${pod.container}:`);
  const ckv = (k: string, v: string, keep = false): number => out.add(`    ${`${k}:`.padEnd(16)}${v}`, keep);
  if (f?.fault !== 'Pending') ckv('Container ID', `containerd://${rng.hex(64)}`);
  ckv('Image', pod.image);
  ckv(
    'Image ID',
    f?.fault === 'ImagePullBackOff' || f?.fault === 'Pending'
      ? ''
      : `${pod.image.split(':')[0]}@sha256:${rng.hex(64)}`,
  );
  const port = rng.pick([8080, 8000, 3000, 9090]);
  ckv('Port', `${port}/TCP`);
  ckv('Host Port', '0/TCP');
  if (!f || f.fault === 'Evicted') {
    ckv('State', f ? 'Terminated' : 'Running');
    out.add(`      Started:      ${started.rfc1123()}`);
  } else if (f.fault === 'Pending') {
    // no state block for unscheduled pods
  } else {
    ckv('State', 'Waiting', true);
    const reason = f.fault === 'OOMKilled' ? 'CrashLoopBackOff' : f.fault;
    out.add(`      Reason:       ${reason}`, true);
    if (f.fault === 'ImagePullBackOff') out.add(`      Message:      Back-off pulling image "${pod.image}"`);
    if (f.fault === 'CreateContainerConfigError')
      out.add(`      Message:      ${f.eventMessage.replace(/^Error: /, '')}`, true);
  }
  if (f && (f.fault === 'CrashLoopBackOff' || f.fault === 'OOMKilled')) {
    ckv('Last State', 'Terminated', true);
    out.add(`      Reason:       ${f.fault === 'OOMKilled' ? 'OOMKilled' : 'Error'}`, true);
    out.add(`      Exit Code:    ${f.exitCode}`, true);
    const fin = new Clock(clock.epochMs - pod.lastRestartSec * 1000);
    const st = new Clock(fin.epochMs - rng.int(2, 40) * 1000);
    out.add(`      Started:      ${st.rfc1123()}`);
    out.add(`      Finished:     ${fin.rfc1123()}`);
  }
  ckv('Ready', f ? 'False' : 'True');
  ckv('Restart Count', String(pod.restarts), pod.restarts > 0 && f !== null);
  out.add('    Limits:');
  out.add(`      cpu:     ${rng.pick(['500m', '1', '2'])}`);
  out.add(`      memory:  ${pod.memLimit}`, f?.fault === 'OOMKilled');
  out.add('    Requests:');
  out.add(`      cpu:      ${pod.cpuRequest}`);
  out.add(`      memory:   ${HALF_MEMORY[pod.memLimit] ?? pod.memLimit}`);
  out.add(
    `    Liveness:   http-get http://:${port}/healthz delay=${rng.pick([5, 10, 15, 30])}s timeout=1s period=10s #success=1 #failure=3`,
  );
  out.add(
    `    Readiness:  http-get http://:${port}/ready delay=5s timeout=1s period=5s #success=1 #failure=3`,
  );
  out.add('    Environment:');
  for (const e of rng.sample(
    ['LOG_LEVEL', 'PORT', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'DATABASE_URL', 'REDIS_URL', 'FEATURE_FLAGS'],
    rng.int(2, 5),
  )) {
    out.add(
      `      ${e}:${' '.repeat(Math.max(1, 28 - e.length))}${e === 'DATABASE_URL' ? `<set to the key 'url' in secret '${pod.workload}-db'>  Optional: false` : rng.pick(['info', String(port), 'http://otel-collector.observability:4317', 'redis://redis-master:6379/0', 'checkout_v2,fast_ledger'])}`,
    );
  }
  if (f?.fault === 'CreateContainerConfigError') out.add(`    Environment Variables from:`);
  if (f?.fault === 'CreateContainerConfigError')
    out.add(`      ${f.cause.split('"')[1]}  Secret  Optional: false`, true);
  const token = `kube-api-access-${rng.alnum(5)}`;
  out.add('    Mounts:');
  out.add(`      /var/run/secrets/kubernetes.io/serviceaccount from ${token} (ro)`);
  out.add('Conditions:');
  const cond = columns([
    ['  Type', 'Status'],
    ['  PodReadyToStartContainers', f?.fault === 'Pending' ? 'False' : 'True'],
    ['  Initialized', 'True'],
    ['  Ready', f ? 'False' : 'True'],
    ['  ContainersReady', f ? 'False' : 'True'],
    ['  PodScheduled', f?.fault === 'Pending' ? 'False' : 'True'],
  ]);
  cond.forEach((l, i) => {
    out.add(l, f?.fault === 'Pending' && i === cond.length - 1);
  });
  out.add('Volumes:');
  out.add(`  ${token}:`);
  out.add(
    '    Type:                    Projected (a volume that contains injected data from multiple sources)',
  );
  out.add('    TokenExpirationSeconds:  3607');
  out.add('QoS Class:                   Burstable');
  out.add(
    `Node-Selectors:              ${rng.pick(['<none>', 'kubernetes.io/arch=amd64', 'workload=general'])}`,
  );
  out.add('Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s');
  out.add('                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s');
  out.add('Events:');
  if (!f && rng.chance(0.5)) {
    out.add('  <none>');
    return;
  }
  const events: {
    type: string;
    reason: string;
    age: string;
    from: string;
    message: string;
    keep: boolean;
  }[] = [];
  const age = pod.ageSec;
  if (f?.fault !== 'Pending') {
    events.push({
      type: 'Normal',
      reason: 'Scheduled',
      age: kubeAge(age),
      from: 'default-scheduler',
      message: `Successfully assigned ${pod.namespace}/${pod.name} to ${pod.node}`,
      keep: false,
    });
    events.push({
      type: 'Normal',
      reason: 'Pulled',
      age: kubeAge(Math.max(1, age - 3)),
      from: 'kubelet',
      message: `Successfully pulled image "${pod.image}" in ${rng.float(0.3, 9).toFixed(3)}s (${rng.float(0.3, 9).toFixed(3)}s including waiting). Image size: ${rng.int(20_000_000, 900_000_000)} bytes.`,
      keep: false,
    });
  }
  if (f) {
    if (f.fault === 'CrashLoopBackOff' || f.fault === 'OOMKilled') {
      events.push({
        type: 'Normal',
        reason: 'Created',
        age: `${kubeAge(pod.lastRestartSec)} (x${pod.restarts + 1} over ${kubeAge(age)})`,
        from: 'kubelet',
        message: `Created container ${pod.container}`,
        keep: false,
      });
      events.push({
        type: 'Normal',
        reason: 'Started',
        age: `${kubeAge(pod.lastRestartSec)} (x${pod.restarts + 1} over ${kubeAge(age)})`,
        from: 'kubelet',
        message: `Started container ${pod.container}`,
        keep: false,
      });
      events.push({
        type: 'Warning',
        reason: 'BackOff',
        age: `${kubeAge(rng.int(2, 60))} (x${pod.restarts * rng.int(3, 6)} over ${kubeAge(age)})`,
        from: 'kubelet',
        message: f.eventMessage,
        keep: true,
      });
    } else {
      events.push({
        type: 'Warning',
        reason: f.eventReason,
        age: `${kubeAge(rng.int(2, 90))} (x${rng.int(2, 40)} over ${kubeAge(age)})`,
        from: f.fault === 'Pending' ? 'default-scheduler' : 'kubelet',
        message: f.eventMessage,
        keep: true,
      });
      if (f.fault === 'ImagePullBackOff') {
        events.push({
          type: 'Warning',
          reason: 'Failed',
          age: kubeAge(rng.int(2, 90)),
          from: 'kubelet',
          message: 'Error: ErrImagePull',
          keep: false,
        });
        events.push({
          type: 'Normal',
          reason: 'BackOff',
          age: kubeAge(rng.int(2, 90)),
          from: 'kubelet',
          message: `Back-off pulling image "${pod.image}"`,
          keep: false,
        });
      }
    }
  }
  const lines = columns([
    ['  Type', 'Reason', 'Age', 'From', 'Message'],
    ['  ----', '------', '----', '----', '-------'],
    ...events.map((e) => [`  ${e.type}`, e.reason, e.age, e.from, e.message]),
  ]);
  lines.forEach((l, i) => {
    out.add(l, i >= 2 && events[i - 2]!.keep);
  });
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const clock = Clock.within(rng);
  const nodeMode = index % 4 === 3;
  let cluster = buildCluster(rng, scale === 'large' ? rng.int(150, 260) : rng.int(20, 80), rng.int(1, 3));
  if (nodeMode) {
    const k = rng.int(0, cluster.nodes.length - 1);
    const disk = rng.chance(0.7);
    cluster = {
      ...cluster,
      nodes: cluster.nodes.map((n, i) => (i === k ? { ...n, diskPressure: disk, memoryPressure: !disk } : n)),
    };
    const node = cluster.nodes[k]!;
    out.add(`$ kubectl describe node ${node.name}`);
    describeNode(rng, out, cluster, node, clock);
    const { text, keep } = out.finish();
    return {
      name: `kubectl-describe-node-${String(index).padStart(2, '0')}`,
      ext: 'txt',
      kind: 'tool_output',
      text,
      keep,
      task: 'find why pods are being evicted from this node',
      why: `${node.diskPressure ? 'DiskPressure' : 'MemoryPressure'} is True: the pressure condition, the taint it added and the eviction events`,
    };
  }
  const broken = cluster.pods.filter((p) => p.fault);
  const pod =
    index % 5 === 4 ? rng.pick(cluster.pods.filter((p) => !p.fault && !p.completed)) : rng.pick(broken);
  let described = [pod];
  if (scale === 'large' && pod.fault) {
    // `describe pods -l app=…` prints every replica; replicas of a broken rollout share the fault.
    described = cluster.pods.filter((p) => p.workload === pod.workload && p.namespace === pod.namespace);
    while (described.length < 4) {
      const restarts = pod.restarts > 0 ? Math.max(1, pod.restarts + rng.int(-3, 3)) : 0;
      described.push({
        ...pod,
        name: `${pod.name.slice(0, pod.name.lastIndexOf('-'))}-${podSuffix(rng)}`,
        uid: rng.uuid(),
        ip: pod.ip ? privateIp(rng) : null,
        restarts,
      });
    }
    out.add(`$ kubectl describe pods -n ${pod.namespace} -l app.kubernetes.io/name=${pod.workload}`);
    described.forEach((p, i) => {
      if (i > 0) out.add('');
      describePod(rng, out, cluster, p, clock, false);
    });
  } else {
    out.add(`$ kubectl describe pod ${pod.name} -n ${pod.namespace}`);
    describePod(rng, out, cluster, pod, clock);
  }
  const { text, keep } = out.finish();
  return {
    name: `kubectl-describe-pod${described.length > 1 ? 's' : ''}-${String(index).padStart(2, '0')}-${pod.fault ? pod.fault.fault.toLowerCase() : 'healthy'}`,
    ext: 'txt',
    kind: 'tool_output',
    text,
    keep,
    task: `find why ${pod.workload} is not serving`,
    why: pod.fault
      ? `${pod.fault.fault}: the container state and reason, the last termination with its exit code, the restart count and the warning events (${pod.fault.cause})`
      : 'the pod is healthy: only its Running status matters',
  };
}

/** The kubectl-describe family. */
export const kubectlDescribeFamily: Family = {
  name: 'kubectl-describe',
  scales: ['medium', 'small', 'medium', 'small', 'medium', 'large', 'small', 'medium'],
  generate,
};
