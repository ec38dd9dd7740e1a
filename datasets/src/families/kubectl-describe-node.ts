import { Clock, kubeAge } from '../clock.js';
import type { Cluster, KubeNode } from '../k8s-cluster.js';
import type { LabelledText } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { columns } from '../text-layout.js';

/** `kubectl describe node`. Kept lines: True pressure conditions, the taint they add, eviction events. */

/** `kubectl describe node` for `node`, with pressure conditions, taints and eviction events when under pressure. */
export function describeNode(
  rng: Rng,
  out: LabelledText,
  cluster: Cluster,
  node: KubeNode,
  clock: Clock,
): void {
  const pressure = node.diskPressure ? 'DiskPressure' : node.memoryPressure ? 'MemoryPressure' : null;
  out.add(`Name:               ${node.name}`);
  out.add(`Roles:              ${node.roles}`);
  out.add('Labels:             beta.kubernetes.io/arch=amd64');
  out.add(`                    kubernetes.io/hostname=${node.name}`);
  out.add('                    kubernetes.io/os=linux');
  out.add(
    `                    node.kubernetes.io/instance-type=${rng.pick(['m6i.xlarge', 'e2-standard-4', 'Standard_D4s_v5', 'c6a.2xlarge'])}`,
  );
  out.add(`CreationTimestamp:  ${new Clock(clock.epochMs - node.ageSec * 1000).rfc1123()}`);
  const taint =
    pressure === 'DiskPressure'
      ? 'node.kubernetes.io/disk-pressure:NoSchedule'
      : pressure === 'MemoryPressure'
        ? 'node.kubernetes.io/memory-pressure:NoSchedule'
        : '<none>';
  out.add(`Taints:             ${taint}`, pressure !== null);
  out.add(`Unschedulable:      ${node.status.includes('SchedulingDisabled') ? 'true' : 'false'}`);
  out.add('Conditions:');
  const hb = clock.rfc1123();
  const rows: [string, string, string, string][] = [
    [
      'MemoryPressure',
      node.memoryPressure ? 'True' : 'False',
      node.memoryPressure ? 'KubeletHasInsufficientMemory' : 'KubeletHasSufficientMemory',
      node.memoryPressure
        ? 'kubelet has insufficient memory available'
        : 'kubelet has sufficient memory available',
    ],
    [
      'DiskPressure',
      node.diskPressure ? 'True' : 'False',
      node.diskPressure ? 'KubeletHasDiskPressure' : 'KubeletHasNoDiskPressure',
      node.diskPressure ? 'kubelet has disk pressure' : 'kubelet has no disk pressure',
    ],
    ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    [
      'Ready',
      node.status === 'NotReady' ? 'Unknown' : 'True',
      node.status === 'NotReady' ? 'NodeStatusUnknown' : 'KubeletReady',
      node.status === 'NotReady' ? 'Kubelet stopped posting node status.' : 'kubelet is posting ready status',
    ],
  ];
  const lines = columns([
    ['  Type', 'Status', 'LastHeartbeatTime', 'LastTransitionTime', 'Reason', 'Message'],
    ['  ----', '------', '-----------------', '------------------', '------', '-------'],
    ...rows.map((r) => [`  ${r[0]}`, r[1], hb, hb, r[2], r[3]]),
  ]);
  lines.forEach((l, i) => {
    // A pressure condition is decisive when True; Ready is decisive when it is not True.
    const row = rows[i - 2];
    const bad = row !== undefined && (row[0] === 'Ready' ? row[1] !== 'True' : row[1] !== 'False');
    out.add(l, bad);
  });
  out.add('Addresses:');
  out.add(`  InternalIP:  ${node.internalIp}`);
  out.add(`  Hostname:    ${node.name}`);
  out.add('Capacity:');
  const cpu = rng.pick([4, 8, 16]);
  out.add(`  cpu:                ${cpu}`);
  out.add(`  ephemeral-storage:  ${rng.pick([20_959_212, 83_873_772, 104_845_292])}Ki`);
  out.add(`  memory:             ${cpu * rng.pick([4, 8]) * 1_020_000}Ki`);
  out.add('  pods:               110');
  out.add(`System Info:`);
  out.add(
    `  Kernel Version:             ${rng.pick(['6.1.102-108.177.amzn2023.x86_64', '5.15.0-1057-azure', '6.6.32+'])}`,
  );
  out.add(`  Container Runtime Version:  containerd://1.7.${rng.int(11, 22)}`);
  out.add(`  Kubelet Version:            ${node.version}`);
  const pods = cluster.pods.filter((p) => p.node === node.name);
  out.add(`Non-terminated Pods:          (${pods.length} in total)`);
  const pl = columns([
    ['  Namespace', 'Name', 'CPU Requests', 'CPU Limits', 'Memory Requests', 'Memory Limits', 'Age'],
    ['  ---------', '----', '------------', '----------', '---------------', '-------------', '---'],
    ...pods.map((p) => [
      `  ${p.namespace}`,
      p.name,
      `${p.cpuRequest} (${rng.int(1, 25)}%)`,
      '0 (0%)',
      `${p.memLimit} (${rng.int(1, 20)}%)`,
      `${p.memLimit} (${rng.int(1, 20)}%)`,
      kubeAge(p.ageSec),
    ]),
  ]);
  for (const l of pl) out.add(l);
  out.add('Allocated resources:');
  out.add('  (Total limits may be over 100 percent, i.e., overcommitted.)');
  out.add('  Resource           Requests      Limits');
  out.add('  --------           --------      ------');
  out.add(
    `  cpu                ${rng.int(500, cpu * 900)}m (${rng.int(10, 95)}%)  ${rng.int(1, cpu * 2)} (${rng.int(20, 200)}%)`,
  );
  out.add(
    `  memory             ${rng.int(500, 9000)}Mi (${rng.int(10, 95)}%)  ${rng.int(1000, 20000)}Mi (${rng.int(20, 200)}%)`,
  );
  out.add(`  ephemeral-storage  0 (0%)        0 (0%)`);
  out.add('Events:');
  if (!pressure) {
    out.add('  <none>');
    return;
  }
  const ev: [string, string, string, string, string, boolean][] = [
    [
      'Warning',
      pressure === 'DiskPressure' ? 'EvictionThresholdMet' : 'EvictionThresholdMet',
      kubeAge(rng.int(60, 3000)),
      'kubelet',
      `Attempting to reclaim ${pressure === 'DiskPressure' ? 'ephemeral-storage' : 'memory'}`,
      true,
    ],
    [
      'Normal',
      `NodeHas${pressure}`,
      kubeAge(rng.int(60, 3000)),
      'kubelet',
      `Node ${node.name} status is now: NodeHas${pressure}`,
      true,
    ],
    [
      'Warning',
      'FreeDiskSpaceFailed',
      kubeAge(rng.int(60, 3000)),
      'kubelet',
      `Failed to garbage collect required amount of images. Attempted to free ${rng.int(1_000_000_000, 9_000_000_000)} bytes, but only found ${rng.int(0, 90_000_000)} bytes eligible to free.`,
      pressure === 'DiskPressure',
    ],
  ];
  const el = columns([
    ['  Type', 'Reason', 'Age', 'From', 'Message'],
    ['  ----', '------', '----', '----', '-------'],
    ...ev.map((e) => [`  ${e[0]}`, e[1], e[2], e[3], e[4]]),
  ]);
  el.forEach((l, i) => {
    out.add(l, i >= 2 && ev[i - 2]![5]);
  });
}
