import { describe, expect, it } from 'vitest';
import { GuardReason, guardLines } from './guard-lines.js';

const HEADER = 'NAMESPACE   NAME                     READY   STATUS      RESTARTS   AGE';
const row = (i: number, ready = '1/1', status = 'Running'): string =>
  `shop        web-${String(i).padStart(4, '0')}-7f9c            ${ready}     ${status.padEnd(9)}   0          ${10 + (i % 50)}d`;

const table = (rows: number, odd: Record<number, [string, string]> = {}): string[] => [
  '$ kubectl get pods -A',
  HEADER,
  ...Array.from({ length: rows }, (_, i) => (odd[i] ? row(i, ...odd[i]) : row(i))),
];

const rare = (lines: readonly string[]): string[] => {
  const reasons = guardLines(lines, { kind: 'tool_output' });
  return lines.filter((_, i) => (reasons[i]! & GuardReason.tableRow) !== 0);
};

describe('guardTableRows', () => {
  it('guards the row whose state few rows share, though no word on it sounds alarming', () => {
    const lines = table(60, { 17: ['0/1', 'Pending'], 41: ['0/1', 'Running'] });
    expect(rare(lines)).toEqual([HEADER, lines[2 + 17], lines[2 + 41]]);
  });

  it('guards nothing in a column whose values are all different, or that no value dominates', () => {
    const names = table(60);
    expect(rare(names)).toEqual([HEADER]);
    const spread = table(
      60,
      Object.fromEntries(
        Array.from({ length: 30 }, (_, i) => [2 * i, ['1/1', 'Completed'] as [string, string]]),
      ),
    );
    expect(rare(spread)).toEqual([HEADER]);
  });

  it('leaves a run of aligned rows too short to count alone', () => {
    expect(rare(table(12, { 5: ['0/1', 'Pending'] }))).toEqual([]);
  });

  it('reads a short table under a header whole in a short block, and not key-value lines', () => {
    const conditions = [
      'Conditions:',
      '  Type                        Status',
      '  Initialized                 True',
      '  Ready                       False',
      '  PodScheduled                False',
    ];
    const settings = ['Node:', '  Hostname:    web-1', '  Region:      eu-west-1', '  Zone:        b'];
    const lines = ['Name:  web-1', ...settings, ...conditions, 'Events:  <none>'];
    expect(rare(lines)).toEqual(conditions.slice(1));
    const long = [...lines, ...Array.from({ length: 200 }, (_, i) => `event ${i} observed`)];
    expect(rare(long)).toEqual([]);
  });

  it('guards at most the rare share of a table, however its rows are chosen', () => {
    const odd = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [i * 5, ['1/1', `State${i % 6}`] as [string, string]]),
    );
    const lines = table(100, odd);
    // six values of 3-4 rows each are not rare among 100 rows: above 2 rows and 2%
    expect(rare(lines)).toEqual([HEADER]);
  });
});
