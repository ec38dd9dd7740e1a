import type { Block, Decision, Trajectory } from '@distil/contract';
import fc from 'fast-check';
import type { BlockTransform } from '../src/index.js';

/** A block with defaults for the fields a test does not care about. */
export function block(id: string, text: string, extra: Partial<Block> = {}): Block {
  return { id, role: 'tool', kind: 'tool_output', text, trusted: false, ...extra };
}

/** A tool-call decision. */
export const call = (tool: string, args: Record<string, unknown>): Decision => ({
  type: 'tool_call',
  tool,
  arguments: args,
});

/** A trajectory from turns of [blocks, decision]. */
export function trajectory(id: string, turns: readonly [Block[], Decision | null][]): Trajectory {
  return {
    format: 'distil.trajectory/v1',
    id,
    turns: turns.map(([blocks, decision]) => ({ blocks, decision })),
    outcome: null,
  };
}

/**
 * An on-call run in the shape of the specification's example: a system prompt naming the tools, two
 * runbooks nothing ever cites, and observations whose pod names, paths and sizes the next decisions copy.
 */
export function incident(): Trajectory {
  const system = block(
    'system',
    'You are the on-call assistant.\nTools: kubectl(args), logs(pod), exec(pod, command).\nCite evidence.',
    { role: 'system', kind: 'chat', trusted: true },
  );
  const doc0 = block(
    'doc-0',
    '# Runbook: TLS\nRenew the certificate with cert-manager.\nVerify from outside.',
    { role: 'user', kind: 'doc' },
  );
  const doc1 = block('doc-1', '# Runbook: Kafka lag\nDescribe the consumer group.\nRaise session timeouts.', {
    role: 'user',
    kind: 'doc',
  });
  const obs0 = block(
    'obs-0',
    'NAME READY STATUS\nledger-writer-7f9c-x2x 0/1 CrashLoopBackOff\npg-ledger-0 1/1 Running',
  );
  const obs1 = block(
    'obs-1',
    'error: could not write "pg_wal/xlogtemp.412": No space left on device\ndata_directory=/var/lib/pg/data',
    { kind: 'log' },
  );
  const obs2 = block('obs-2', 'Filesystem Size Used\n/dev/nvme1n1 99G 99G 100% /var/lib/pg/data');
  return trajectory('incident', [
    [[system, doc0, doc1], call('kubectl', { args: 'get pods -n payments' })],
    [[obs0], call('logs', { pod: 'ledger-writer-7f9c-x2x' })],
    [[obs1], call('exec', { pod: 'pg-ledger-0', command: 'df -h /var/lib/pg/data' })],
    [
      [obs2],
      {
        type: 'final',
        text: 'DECISION: /dev/nvme1n1 is full (99G); "No space left on device" on pg-ledger-0.',
      },
    ],
  ]);
}

const FILLER = [
  'the',
  'build',
  'step',
  'ran',
  'with',
  'cache',
  'warm',
  'and',
  'then',
  'waited',
  'for',
  'workers',
];

/** Identifiers a generated run reads and copies: pod-like names, paths, error codes, three-digit numbers. */
const identifierArb = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map((n) => `svc-${n}-pod`),
  fc.integer({ min: 1, max: 40 }).map((n) => `/srv/app/mod_${n}.py`),
  fc.integer({ min: 1, max: 40 }).map((n) => `ERR_${n}`),
  fc.integer({ min: 100, max: 140 }).map(String),
);

const lineArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.array(fc.constantFrom(...FILLER), { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...FILLER), identifierArb, fc.constantFrom(...FILLER))
      .map((parts) => parts.join(' ')),
  },
);

const kindArb = fc.constantFrom('tool_output', 'log', 'doc', 'chat') as fc.Arbitrary<Block['kind']>;

/** A small generated block (its id is assigned by the trajectory). */
const blockBodyArb = fc.record({
  kind: kindArb,
  lines: fc.array(lineArb, { minLength: 1, maxLength: 24 }),
});

/** A decision that copies identifiers (some visible in the context, some invented) and maybe a quote. */
const decisionArb = fc.oneof(
  fc
    .record({
      tool: fc.constantFrom('read', 'grep', 'run'),
      target: identifierArb,
      extra: fc.option(identifierArb, { nil: undefined }),
    })
    .map(
      ({ tool, target, extra }): Decision => call(tool, extra === undefined ? { target } : { target, extra }),
    ),
  fc
    .tuple(identifierArb, identifierArb)
    .map(([a, b]): Decision => ({ type: 'final', text: `done: ${a} and ${b} checked` })),
);

/** Generated trajectories: 1–8 turns of 1–3 blocks each, each turn closed by a decision (or, last, none). */
export const trajectoryArb: fc.Arbitrary<Trajectory> = fc
  .array(
    fc.tuple(
      fc.array(blockBodyArb, { minLength: 1, maxLength: 3 }),
      fc.option(decisionArb, { freq: 8, nil: null }),
    ),
    {
      minLength: 1,
      maxLength: 8,
    },
  )
  .map((turns) => {
    let n = 0;
    return trajectory(
      'generated',
      turns.map(([bodies, decision]) => [
        bodies.map((b) =>
          block(`b${n++}`, b.lines.join('\n'), {
            kind: b.kind,
            role: b.kind === 'chat' ? 'assistant' : 'tool',
          }),
        ),
        decision,
      ]),
    );
  });

/**
 * A stand-in for the pipeline's tiers that folds like tier 1 does: `digest` keeps the first two and last
 * two lines of a block of six or more and replaces the rest with a stub; `lossless` keeps the text.
 */
export const headTailTransform: BlockTransform = async (b, level) => {
  if (level === 'lossless') return b.text;
  const lines = b.text.split('\n');
  if (lines.length < 6) return b.text;
  return [
    ...lines.slice(0, 2),
    `<< +${lines.length - 4} lines, handle=dh_000000000000 >>`,
    ...lines.slice(-2),
  ].join('\n');
};
