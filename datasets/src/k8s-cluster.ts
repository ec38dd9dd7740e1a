import type { Rng } from './prng.js';
import {
  imageRef,
  NAMESPACES,
  nodeName,
  podSuffix,
  podTemplateHash,
  privateIp,
  workloadName,
} from './vocab-infra.js';
import { NOUNS } from './vocab-words.js';

/**
 * A small model of a Kubernetes cluster: nodes, workloads and pods, some of them broken in the ways
 * on-call engineers meet. `kubectl get`, `describe` and `logs` render from one model so a crashing pod
 * has the same name, reason and exit code in all three.
 */

/** Why a pod is unhealthy. */
export type PodFault =
  | 'CrashLoopBackOff'
  | 'OOMKilled'
  | 'ImagePullBackOff'
  | 'Pending'
  | 'Evicted'
  | 'CreateContainerConfigError';

/** The details a fault carries into every rendering. */
export interface FaultDetail {
  readonly fault: PodFault;
  /** A one-line cause as an event or log would state it. */
  readonly cause: string;
  readonly exitCode?: number;
  /** The event reason kubectl shows (`BackOff`, `FailedScheduling`, `Failed`, …). */
  readonly eventReason: string;
  /** The event message. */
  readonly eventMessage: string;
}

export interface Pod {
  readonly namespace: string;
  readonly name: string;
  readonly workload: string;
  readonly container: string;
  readonly image: string;
  readonly node: string | null;
  readonly ip: string | null;
  readonly ageSec: number;
  readonly restarts: number;
  readonly lastRestartSec: number;
  readonly memLimit: string;
  readonly cpuRequest: string;
  readonly uid: string;
  readonly fault: FaultDetail | null;
  readonly completed: boolean;
}

export interface KubeNode {
  readonly name: string;
  readonly status: 'Ready' | 'NotReady' | 'Ready,SchedulingDisabled';
  readonly roles: string;
  readonly ageSec: number;
  readonly version: string;
  readonly internalIp: string;
  readonly diskPressure: boolean;
  readonly memoryPressure: boolean;
}

export interface Cluster {
  readonly name: string;
  readonly version: string;
  readonly nodes: readonly KubeNode[];
  readonly pods: readonly Pod[];
}

const FAULTS: readonly PodFault[] = [
  'CrashLoopBackOff',
  'OOMKilled',
  'ImagePullBackOff',
  'Pending',
  'Evicted',
  'CreateContainerConfigError',
];

function faultDetail(
  rng: Rng,
  fault: PodFault,
  pod: { name: string; namespace: string; container: string; image: string; uid: string; memLimit: string },
  nodes: readonly KubeNode[],
): FaultDetail {
  switch (fault) {
    case 'CrashLoopBackOff': {
      const cause = rng.pick([
        `dial tcp ${privateIp(rng, false)}:5432: connect: connection refused`,
        `required environment variable ${rng.pick(['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'KAFKA_BROKERS', 'STRIPE_API_KEY'])} is not set`,
        `failed to load config /etc/${pod.container}/config.yaml: yaml: line ${rng.int(3, 80)}: mapping values are not allowed in this context`,
        `listen tcp :${rng.pick([8080, 8443, 9090, 3000])}: bind: address already in use`,
        `panic: runtime error: invalid memory address or nil pointer dereference`,
        `migrations: relation "${rng.pick(NOUNS)}_${rng.pick(NOUNS)}" does not exist`,
      ]);
      return {
        fault,
        cause,
        exitCode: cause.startsWith('panic') ? 2 : 1,
        eventReason: 'BackOff',
        eventMessage: `Back-off restarting failed container ${pod.container} in pod ${pod.name}_${pod.namespace}(${pod.uid})`,
      };
    }
    case 'OOMKilled':
      return {
        fault,
        cause: `container exceeded its memory limit of ${pod.memLimit}`,
        exitCode: 137,
        eventReason: 'BackOff',
        eventMessage: `Back-off restarting failed container ${pod.container} in pod ${pod.name}_${pod.namespace}(${pod.uid})`,
      };
    case 'ImagePullBackOff': {
      const msg = `Failed to pull image "${pod.image}": rpc error: code = NotFound desc = failed to pull and unpack image "${pod.image}": failed to resolve reference "${pod.image}": ${pod.image}: not found`;
      return { fault, cause: `image ${pod.image} not found`, eventReason: 'Failed', eventMessage: msg };
    }
    case 'Pending': {
      const n = nodes.length;
      const cpu = rng.int(1, Math.max(1, n - 1));
      const msg = rng.chance(0.6)
        ? `0/${n} nodes are available: ${cpu} Insufficient cpu, ${n - cpu} node(s) didn't match Pod's node affinity/selector. preemption: 0/${n} nodes are available: ${cpu} No preemption victims found for incoming pod, ${n - cpu} Preemption is not helpful for scheduling.`
        : `0/${n} nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;
      return {
        fault,
        cause: msg.includes('Insufficient')
          ? 'insufficient cpu on every eligible node'
          : 'its PersistentVolumeClaim is unbound',
        eventReason: 'FailedScheduling',
        eventMessage: msg,
      };
    }
    case 'Evicted': {
      const used = rng.int(2_000_000, 9_000_000);
      const msg = `The node was low on resource: ephemeral-storage. Threshold quantity: ${rng.int(1_000_000_000, 3_000_000_000)}, available: ${rng.int(500_000, 2_000_000)}Ki. Container ${pod.container} was using ${used}Ki, request is 0, has larger consumption of ephemeral-storage.`;
      return { fault, cause: 'node ran out of ephemeral storage', eventReason: 'Evicted', eventMessage: msg };
    }
    case 'CreateContainerConfigError': {
      const secret = `${pod.container}-${rng.pick(['secrets', 'credentials', 'env'])}`;
      return {
        fault,
        cause: `secret "${secret}" not found`,
        eventReason: 'Failed',
        eventMessage: `Error: secret "${secret}" not found`,
      };
    }
  }
}

/** A cluster with about `podCount` pods of which `faultCount` are broken. */
export function buildCluster(rng: Rng, podCount: number, faultCount: number): Cluster {
  const style = rng.int(0, 2);
  const minor = rng.int(26, 31);
  const version = `v1.${minor}.${rng.int(1, 12)}${style === 0 ? `-eks-${rng.hex(7)}` : style === 1 ? `-gke.${rng.int(1000, 2200)}000` : ''}`;
  const nodes: KubeNode[] = [];
  for (let i = rng.int(3, 9); i > 0; i--) {
    nodes.push({
      name: nodeName(rng, style),
      status: rng.weighted([
        ['Ready', 30],
        ['NotReady', 1],
        ['Ready,SchedulingDisabled', 1],
      ] as const),
      roles: style === 2 && i === 1 ? 'control-plane' : '<none>',
      ageSec: rng.int(86_400, 200 * 86_400),
      version,
      internalIp: privateIp(rng, false),
      diskPressure: rng.chance(0.08),
      memoryPressure: rng.chance(0.05),
    });
  }
  const namespaces = rng.sample(NAMESPACES, rng.int(2, 7));
  const pods: Pod[] = [];
  while (pods.length < podCount) {
    const namespace = rng.pick(namespaces);
    const workload = workloadName(rng);
    if (pods.some((p) => p.workload === workload && p.namespace === namespace)) continue;
    const hash = podTemplateHash(rng);
    const image = imageRef(rng, workload);
    const replicas = rng.weighted([
      [1, 3],
      [2, 4],
      [3, 3],
      [rng.int(4, 8), 1],
    ] as const);
    const ageSec = rng.int(300, 90 * 86_400);
    const isJob = rng.chance(0.08);
    for (let r = 0; r < replicas && pods.length < podCount; r++) {
      const node = rng.pick(nodes);
      pods.push({
        namespace,
        name: isJob
          ? `${workload}-${rng.int(28_000_000, 29_000_000)}-${podSuffix(rng)}`
          : `${workload}-${hash}-${podSuffix(rng)}`,
        workload,
        container: workload,
        image,
        node: node.name,
        ip: privateIp(rng),
        ageSec: ageSec + rng.int(0, 600),
        restarts: rng.chance(0.15) ? rng.int(1, 4) : 0,
        lastRestartSec: rng.int(3600, ageSec + 3600),
        memLimit: rng.pick(['256Mi', '512Mi', '1Gi', '2Gi']),
        cpuRequest: rng.pick(['100m', '250m', '500m', '1']),
        uid: rng.uuid(),
        fault: null,
        completed: isJob,
      });
    }
  }
  const victims = rng.sample(
    pods.filter((p) => !p.completed),
    faultCount,
  );
  for (const victim of victims) {
    const fault = rng.pick(FAULTS);
    const idx = pods.indexOf(victim);
    const detail = faultDetail(rng, fault, victim, nodes);
    const pending = fault === 'Pending';
    const crashing = fault === 'CrashLoopBackOff' || fault === 'OOMKilled';
    pods[idx] = {
      ...victim,
      node: pending ? null : victim.node,
      ip: pending || fault === 'Evicted' ? null : victim.ip,
      ageSec: rng.int(240, 7200),
      restarts: crashing ? rng.int(5, 48) : 0,
      lastRestartSec: rng.int(20, 290),
      fault: detail,
    };
  }
  return {
    name: rng.pick(['prod-eu-1', 'prod-us-east', 'staging', 'shared-services', 'payments-prod']),
    version,
    nodes,
    pods,
  };
}

/** The READY column: containers ready over total. */
export function readyColumn(pod: Pod): string {
  return pod.fault || pod.completed ? '0/1' : '1/1';
}

/** The STATUS column kubectl prints for a pod. */
export function statusColumn(pod: Pod): string {
  if (pod.completed) return 'Completed';
  if (!pod.fault) return 'Running';
  if (pod.fault.fault === 'OOMKilled') return 'OOMKilled';
  return pod.fault.fault;
}
