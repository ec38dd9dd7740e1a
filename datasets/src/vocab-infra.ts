import type { Rng } from './prng.js';
import { PROJECT_STEMS, PROJECT_SUFFIXES, words } from './vocab-words.js';

/** Names for clusters, hosts, images and runners, composed per file. */

export const NAMESPACES = words(`
  payments checkout ledger identity search ingest platform monitoring observability kube-system
  data-pipeline notifications billing api-gateway batch-jobs ml-serving staging
`);

export const REGISTRIES = words(`
  ghcr.io 123456789012.dkr.ecr.us-east-1.amazonaws.com europe-west1-docker.pkg.dev/acme-prod/apps
  registry.gitlab.com quay.io docker.io/library harbor.internal.example.net
`);

export const REGIONS = words(
  'us-east-1 us-west-2 eu-west-1 eu-central-1 ap-southeast-2 europe-west1 us-central1',
);

/** A Kubernetes node name in one of the managed-cluster styles. */
export function nodeName(rng: Rng, style: number): string {
  if (style === 0)
    return `ip-10-${rng.int(0, 3)}-${rng.int(0, 255)}-${rng.int(1, 254)}.${rng.pick(REGIONS)}.compute.internal`;
  if (style === 1)
    return `gke-prod-${rng.pick(['default', 'highmem', 'spot'])}-pool-${rng.hex(8)}-${rng.alnum(4)}`;
  return `aks-nodepool${rng.int(1, 3)}-${rng.int(10_000_000, 99_999_999)}-vmss${rng.alnum(6).toUpperCase()}`;
}

/** A workload name such as `ledger-writer`. */
export function workloadName(rng: Rng): string {
  return `${rng.pick(PROJECT_STEMS)}-${rng.pick(PROJECT_SUFFIXES)}`;
}

/** The hash part of a ReplicaSet name (`7d9f8b6c4`), using kube's safe alphabet. */
export function podTemplateHash(rng: Rng): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let s = '';
  const n = rng.int(9, 10);
  for (let i = 0; i < n; i++) s += alphabet[rng.int(0, alphabet.length - 1)];
  return s;
}

/** A pod suffix (`x2kq9`), kube's safe alphabet again. */
export function podSuffix(rng: Rng): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let s = '';
  for (let i = 0; i < 5; i++) s += alphabet[rng.int(0, alphabet.length - 1)];
  return s;
}

/** A private IPv4 address in a pod or node range. */
export function privateIp(rng: Rng, pods = true): string {
  return pods
    ? `10.${rng.int(40, 250)}.${rng.int(0, 255)}.${rng.int(2, 254)}`
    : `10.0.${rng.int(0, 63)}.${rng.int(2, 254)}`;
}

/** A container image reference with a tag. */
export function imageRef(rng: Rng, name: string): string {
  const tag = rng.pick([
    `v${rng.int(0, 4)}.${rng.int(0, 30)}.${rng.int(0, 12)}`,
    `sha-${rng.hex(7)}`,
    `${rng.int(2023, 2025)}.${String(rng.int(1, 12)).padStart(2, '0')}.${rng.int(1, 28)}-${rng.hex(7)}`,
    `main-${rng.int(1000, 9999)}`,
  ]);
  return `${rng.pick(REGISTRIES)}/${name}:${tag}`;
}

/**
 * A request id in one of the shapes services use; pass `style` (0–3) to keep one service's ids in one
 * shape, as real services do.
 */
export function requestId(rng: Rng, style: number = rng.int(0, 3)): string {
  if (style === 0) return rng.uuid();
  if (style === 1) return `req_${rng.alnum(24)}`;
  if (style === 2) return rng.hex(32);
  return `${rng.hex(16)}-${rng.int(1000, 9999)}`;
}
