import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_KINDS, Trajectory } from '../packages/contract/src/index.js';
import { buildDataset, type LabelRecord, writeDataset } from './src/write-dataset.js';

const COMMITTED = fileURLToPath(new URL('./generated', import.meta.url));

/** SHA-256 of every file under `root`, keyed by its `/`-separated relative path. */
function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else
        out[relative(root, path).split(sep).join('/')] = createHash('sha256')
          .update(readFileSync(path))
          .digest('hex');
    }
  };
  walk(root);
  return out;
}

describe('the bundled dataset', () => {
  let fresh: string;
  let files: Map<string, string>;

  beforeAll(() => {
    fresh = mkdtempSync(join(tmpdir(), 'distil-datasets-'));
    files = buildDataset();
    writeDataset(fresh, files);
  });
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('regenerates byte for byte into the committed tree', () => {
    expect(hashTree(fresh)).toEqual(hashTree(COMMITTED));
  });

  it('stays under 5 MB', () => {
    let bytes = 0;
    for (const text of files.values()) bytes += Buffer.byteLength(text);
    expect(bytes).toBeLessThan(5 * 1024 * 1024);
  });

  it('labels every tool output with its kind and sorted 1-based line numbers inside the file', () => {
    const labels = files
      .get('labels.jsonl')!
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as LabelRecord);
    const outputs = [...files.keys()].filter((k) => k.startsWith('tool_outputs/'));
    expect(labels.map((l) => l.file).sort()).toEqual(outputs.sort());
    for (const label of labels) {
      const text = files.get(label.file)!;
      const lineCount = text.split('\n').length - 1;
      expect(label.lines, label.file).toBe(lineCount);
      expect(CONTENT_KINDS, label.file).toContain(label.kind);
      expect(
        [...label.keep].sort((a, b) => a - b),
        label.file,
      ).toEqual(label.keep);
      expect(new Set(label.keep).size, label.file).toBe(label.keep.length);
      for (const n of label.keep) expect(n >= 1 && n <= lineCount, `${label.file}:${n}`).toBe(true);
      expect(label.why.length, label.file).toBeGreaterThan(0);
    }
    // Every family has a file long enough to exercise folding.
    const families = new Set(labels.map((l) => l.family));
    for (const family of families) {
      expect(
        Math.max(...labels.filter((l) => l.family === family).map((l) => l.lines)),
        family,
      ).toBeGreaterThan(200);
    }
  });

  it('writes trajectories that parse with the contract, with decisions that quote their observations', () => {
    const ids = [...files.keys()].filter((k) => k.startsWith('trajectories/'));
    expect(ids).toEqual(
      expect.arrayContaining([
        'trajectories/sre-disk-incident.json',
        'trajectories/coding-read-edit-reread.json',
      ]),
    );
    for (const id of ids) {
      const trajectory = Trajectory.parse(JSON.parse(files.get(id)!));
      let seen = '';
      trajectory.turns.forEach((turn, n) => {
        for (const block of turn.blocks) seen += `\n${block.text}`;
        const decision = turn.decision;
        if (n === 0 || decision === null || decision.type !== 'tool_call') return;
        // A real agent's next call reuses what it read: at least one long token of the call was in context.
        const tokens = JSON.stringify(decision.arguments).match(/[A-Za-z0-9_]{6,}/g) ?? [];
        expect(
          tokens.some((t) => seen.includes(t)),
          `${id} turn ${n}`,
        ).toBe(true);
      });
    }
  });

  it('makes the coding loop re-read files as near-duplicates of the previous read', () => {
    const trajectory = Trajectory.parse(JSON.parse(files.get('trajectories/coding-read-edit-reread.json')!));
    const lastRead = new Map<string, string>();
    let rereads = 0;
    trajectory.turns.forEach((turn, n) => {
      const previous = trajectory.turns[n - 1]?.decision;
      const read = turn.blocks.find((b) => b.tool === 'read_file');
      if (!read || previous?.type !== 'tool_call') return;
      const path = String(previous.arguments.path);
      const before = lastRead.get(path);
      if (before !== undefined) {
        rereads++;
        const a = before.split('\n');
        const b = read.text.split('\n');
        expect(b.length, path).toBe(a.length);
        expect(a.filter((line, i) => line !== b[i]).length, `${path} at turn ${n}`).toBeLessThanOrEqual(1);
      }
      lastRead.set(path, read.text);
    });
    expect(rereads).toBeGreaterThanOrEqual(4);
    expect(trajectory.turns.length).toBeGreaterThanOrEqual(10);
  });

  it('puts a DECISION: line in the SRE incident', () => {
    const text = files.get('trajectories/sre-disk-incident.json')!;
    const trajectory = Trajectory.parse(JSON.parse(text));
    const blocks = trajectory.turns.flatMap((t) => t.blocks);
    expect(blocks.map((b) => b.id)).toEqual(
      expect.arrayContaining(['system', 'doc-0', 'doc-1', 'obs-0', 'obs-1']),
    );
    expect(blocks.some((b) => b.text.split('\n').some((l) => l.startsWith('DECISION:')))).toBe(true);
  });
});
