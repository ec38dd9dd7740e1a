import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ContentKind } from '../../packages/contract/src/index.js';
import { Trajectory } from '../../packages/contract/src/index.js';
import { FAMILIES } from './catalog.js';
import { Rng } from './prng.js';
import { TRAJECTORIES } from './trajectories/catalog.js';

/** The seed the committed dataset was generated with. */
export const DATASET_SEED = 20_240_611;

/** One line of `labels.jsonl`. */
export interface LabelRecord {
  readonly file: string;
  readonly family: string;
  readonly kind: ContentKind;
  readonly lines: number;
  readonly keep: readonly number[];
  readonly task: string;
  readonly why: string;
}

/** Every file of the dataset as relative path → text, in a fixed order. */
export function buildDataset(seed: number = DATASET_SEED): Map<string, string> {
  const files = new Map<string, string>();
  const labels: LabelRecord[] = [];
  for (const family of FAMILIES) {
    family.scales.forEach((scale, index) => {
      const rng = Rng.fromKey(seed, `${family.name}/${index}`);
      const draft = family.generate(rng, scale, index);
      const file = `tool_outputs/${family.name}/${draft.name}.${draft.ext}`;
      if (files.has(file)) throw new Error(`two generated files share the path ${file}`);
      const lineCount = draft.text.endsWith('\n')
        ? draft.text.split('\n').length - 1
        : draft.text.split('\n').length;
      for (const n of draft.keep) {
        if (n < 1 || n > lineCount) throw new Error(`${file}: keep line ${n} is outside 1..${lineCount}`);
      }
      files.set(file, draft.text);
      labels.push({
        file,
        family: family.name,
        kind: draft.kind,
        lines: lineCount,
        keep: draft.keep,
        task: draft.task,
        why: draft.why,
      });
    });
  }
  files.set('labels.jsonl', labels.map((l) => JSON.stringify(l)).join('\n') + '\n');
  for (const build of TRAJECTORIES) {
    const rng = Rng.fromKey(seed, `trajectory/${build.id}`);
    // Validate with the contract's own schema: a trajectory that does not parse is never written.
    const trajectory = Trajectory.parse(build.build(rng));
    files.set(`trajectories/${build.id}.json`, `${JSON.stringify(trajectory, null, 2)}\n`);
  }
  return files;
}

/** Replaces `outDir` with the dataset's files. */
export function writeDataset(outDir: string, files: ReadonlyMap<string, string>): void {
  rmSync(outDir, { recursive: true, force: true });
  for (const [rel, text] of files) {
    const path = join(outDir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
