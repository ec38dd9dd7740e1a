import { PositionKeys, SequenceTable, type TokenTable, UnionFind } from './template-grouping-tables.js';
import {
  absorbable,
  BRACKETED,
  compatible,
  MASKED,
  PURE,
  positionIsVariable,
  type TokenTraits,
} from './template-merge-rules.js';

/**
 * Second stage of template mining: distinct skeletons (with line counts) are merged into templates.
 * It works on distinct skeletons only, so its cost does not grow with the number of lines.
 *
 * Drain (He et al., ICWS 2017) walks a fixed-depth tree keyed by token count and first tokens and merges
 * a line into the most similar cluster above a threshold. Here the same ideas run as set operations that
 * do not depend on line order, repeated until nothing changes:
 * 1. same length, one differing position: a position-excluded key per (template, position) finds every
 *    pair that differs in exactly one token; {@link positionIsVariable} decides whether that position is
 *    a variable (Hamming-1 merging, the "merge clusters whose templates differ only in variable positions"
 *    step of LogPai parsers);
 * 2. same length and the same constants, where every other position holds a pure variable on one side
 *    (`<*>` against `local@tbird-<*>`): merged without further evidence;
 * 3. different lengths but the same sequence of constant tokens once each run of pure-variable tokens
 *    counts as one (`(<*> KB)` present or not, lists of ids): merged.
 */

/**
 * The key tables of the merge steps, kept from call to call like the scratch below: made afresh, the
 * position keys' four arrays (half a megabyte for 500 templates) were allocated and zeroed every call.
 */
let keys = new PositionKeys();
let sequences = new SequenceTable();
/** Elements a key table may keep after a call (more, and it is made afresh next time). */
const KEEP_TABLE = 1 << 20;

/** Prefix hashes of step 1 (grown for long skeletons). */
let prefixA = new Int32Array(64);
let prefixB = new Int32Array(64);
/** The key of a template in steps 2 and 3 (grown for long skeletons). */
let keyScratch = new Int32Array(64);

interface Group {
  /** The skeleton index standing for the group (the least index of its union-find set). */
  key: number;
  tokens: Int32Array;
  /** `tokens` is this group's own copy (else it is shared with a skeleton or an earlier group). */
  owned: boolean;
  weight: number;
}

/** Result of {@link groupSkeletons}. */
export interface SkeletonGroups {
  /** Group index of every input skeleton. */
  groupOf: Int32Array;
  /** Template text per group: its tokens joined by spaces, `<*>` where a variable stands. */
  templates: string[];
}

const MAX_ROUNDS = 8;
const MAX_PAIRWISE = 200;

// Two independent 32-bit multiplicative mixes; a position key is the first mix and 21 bits of the second.
function mix(h: number, v: number): number {
  return Math.imul(h ^ v, 0x9e3779b1) + 0x7f4a7c15;
}
function mix2(h: number, v: number): number {
  return Math.imul(h + v, 0x85ebca77) ^ (h >>> 15);
}

/**
 * Merges skeletons, given as token ids of `table` (and the number of lines of each), into templates.
 * Groups are kept in a list ordered by key, so every step visits them in the same order whatever the
 * input order of equal skeletons.
 */
export function groupSkeletons(
  table: TokenTable,
  skeletons: readonly Int32Array[],
  weights: readonly number[],
): SkeletonGroups {
  const m = skeletons.length;
  let groups: Group[] = [];
  for (let s = 0; s < m; s++)
    groups.push({ key: s, tokens: skeletons[s]!, owned: false, weight: weights[s]! });
  const uf = new UnionFind(m);
  // Steps 1 and 2 compare templates of one length only. Where no template of a length took part in a
  // merge, a round meets those templates as the round before did, which merged none of them: after the
  // first round they look only at lengths that changed.
  let lengths: Set<number> | null = null;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let merged = mergeOneDifference(groups, table, uf, keys, lengths);
    merged = mergeCompatible(groups, table, uf, sequences, lengths) || merged;
    merged = mergeAcrossLengths(groups, table, uf, sequences) || merged;
    if (!merged) break;
    lengths = new Set();
    groups = rebuild(groups, uf, lengths);
  }
  // Every root is a group's key now (the last round either merged nothing or was followed by a rebuild).
  const groupAt = new Int32Array(m);
  for (let g = 0; g < groups.length; g++) groupAt[groups[g]!.key] = g;
  const index = new Int32Array(m).fill(-1);
  const templates: string[] = [];
  const groupOf = new Int32Array(m);
  for (let s = 0; s < m; s++) {
    const root = uf.find(s);
    let g = index[root]!;
    if (g < 0) {
      g = templates.length;
      index[root] = g;
      templates.push(table.template(groups[groupAt[root]!]!.tokens));
    }
    groupOf[s] = g;
  }
  if (prefixA.length > 1 << 16) {
    // Drop the scratch an unusually long template grew.
    prefixA = new Int32Array(64);
    prefixB = new Int32Array(64);
    keyScratch = new Int32Array(64);
  }
  if (keys.retained > KEEP_TABLE) keys = new PositionKeys();
  if (sequences.retained > KEEP_TABLE) sequences = new SequenceTable();
  return { groupOf, templates };
}

/** Step 1: templates of one length that differ in exactly one position. */
function mergeOneDifference(
  groups: readonly Group[],
  table: TokenTable,
  uf: UnionFind,
  keys: PositionKeys,
  lengths: ReadonlySet<number> | null,
): boolean {
  // Most keys have one member: the table keeps the first, and a list is made only on the second member.
  let positions = 0;
  for (const group of groups) if (lengths?.has(group.tokens.length) ?? true) positions += group.tokens.length;
  keys.reset(positions);
  const buckets: number[][] = [];
  for (let g = 0; g < groups.length; g++) {
    const tokens = groups[g]!.tokens;
    if (!(lengths?.has(tokens.length) ?? true)) continue;
    const n = tokens.length;
    if (prefixA.length < n + 1) {
      prefixA = new Int32Array(n * 2 + 1);
      prefixB = new Int32Array(n * 2 + 1);
    }
    let a = n;
    let b = n * 31 + 7;
    for (let p = 0; p < n; p++) {
      prefixA[p] = a;
      prefixB[p] = b;
      a = mix(a, tokens[p]!);
      b = mix2(b, tokens[p]!);
    }
    // Walk back computing suffix hashes; key(p) = prefix before p, position, suffix after p.
    let sa = 0x3c6ef372;
    let sb = 0x1b873593;
    for (let p = n - 1; p >= 0; p--) {
      const ka = mix(mix(prefixA[p]!, p + 1) ^ sa, n);
      const kb = mix2(mix2(prefixB[p]!, p + 7) ^ sb, n) & 0x1fffff;
      keys.add(ka | 0, kb, g, buckets);
      sa = mix(sa, tokens[p]!);
      sb = mix2(sb, tokens[p]!);
    }
  }
  let merged = false;
  const traits = table.traits;
  for (const members of buckets) {
    const first = groups[members[0]!]!.tokens;
    // Find the position they differ at (hash keys are checked, never trusted).
    const second = groups[members[1]!]!.tokens;
    if (second.length !== first.length) continue;
    let position = -1;
    for (let p = 0; p < first.length; p++) {
      if (first[p] !== second[p]) {
        position = p;
        break;
      }
    }
    if (position < 0) continue;
    const values: TokenTraits[] = [];
    const valueWeights: number[] = [];
    const same: number[] = [];
    const seen = new Map<number, number>();
    for (const g of members) {
      const group = groups[g]!;
      if (!sameExcept(group.tokens, first, position)) continue;
      same.push(group.key);
      const id = group.tokens[position]!;
      const at = seen.get(id);
      if (at === undefined) {
        seen.set(id, values.length);
        values.push(traits[id]!);
        valueWeights.push(group.weight);
      } else valueWeights[at]! += group.weight;
    }
    if (values.length < 2) continue;
    const context: TokenTraits[] = [];
    for (const id of first) context.push(traits[id]!);
    if (positionIsVariable(values, valueWeights, context, position)) {
      for (let k = 1; k < same.length; k++) merged = uf.union(same[0]!, same[k]!) || merged;
    }
  }
  return merged;
}

function sameExcept(a: Int32Array, b: Int32Array, position: number): boolean {
  if (a.length !== b.length) return false;
  for (let p = 0; p < a.length; p++) if (p !== position && a[p] !== b[p]) return false;
  return true;
}

/** Step 2: same length and constants; every differing position has a pure variable on one side. */
function mergeCompatible(
  groups: readonly Group[],
  table: TokenTable,
  uf: UnionFind,
  coarse: SequenceTable,
  lengths: ReadonlySet<number> | null,
): boolean {
  const traits = table.traits;
  // Key: the length, then each token's id, or -1 where it holds a mask or is a bracketed field.
  coarse.clear();
  const lists: number[][] = [];
  for (let g = 0; g < groups.length; g++) {
    const tokens = groups[g]!.tokens;
    if (!(lengths?.has(tokens.length) ?? true)) continue;
    if (keyScratch.length < tokens.length + 1) keyScratch = new Int32Array(tokens.length * 2 + 1);
    const key = keyScratch;
    key[0] = tokens.length;
    let anyMasked = false;
    for (let p = 0; p < tokens.length; p++) {
      if ((traits[tokens[p]!]! & (MASKED | BRACKETED)) !== 0) {
        key[p + 1] = -1;
        anyMasked = true;
      } else key[p + 1] = tokens[p]!;
    }
    if (!anyMasked) continue;
    const id = coarse.id(key, tokens.length + 1);
    if (id === lists.length) lists.push([g]);
    else lists[id]!.push(g);
  }
  let merged = false;
  for (const members of lists) {
    if (members.length < 2 || members.length > MAX_PAIRWISE) continue;
    for (let a = 0; a < members.length; a++) {
      const ta = groups[members[a]!]!.tokens;
      const context: TokenTraits[] = [];
      for (const id of ta) context.push(traits[id]!);
      for (let c = a + 1; c < members.length; c++) {
        const tc = groups[members[c]!]!.tokens;
        let ok = true;
        for (let p = 0; p < ta.length && ok; p++) {
          if (ta[p] === tc[p]) continue;
          ok = compatible(traits[ta[p]!]!, traits[tc[p]!]!) && absorbable(context, p);
        }
        if (ok) merged = uf.union(groups[members[a]!]!.key, groups[members[c]!]!.key) || merged;
      }
    }
  }
  return merged;
}

/** Step 3: the same constants in the same order, runs of pure variables counted as one. */
function mergeAcrossLengths(
  groups: readonly Group[],
  table: TokenTable,
  uf: UnionFind,
  byKey: SequenceTable,
): boolean {
  const traits = table.traits;
  // Key: each constant token's id, and -1 for each run of pure variables.
  byKey.clear();
  const firstOf: number[] = [];
  let merged = false;
  for (let g = 0; g < groups.length; g++) {
    const tokens = groups[g]!.tokens;
    if (keyScratch.length < tokens.length) keyScratch = new Int32Array(tokens.length * 2);
    const key = keyScratch;
    let length = 0;
    let constants = 0;
    let inRun = false;
    for (const id of tokens) {
      if ((traits[id]! & PURE) !== 0) {
        if (!inRun) key[length++] = -1;
        inRun = true;
      } else {
        key[length++] = id;
        inRun = false;
        constants++;
      }
    }
    if (constants === 0) continue;
    const id = byKey.id(key, length);
    if (id === firstOf.length) firstOf.push(groups[g]!.key);
    else merged = uf.union(firstOf[id]!, groups[g]!.key) || merged;
  }
  return merged;
}

/**
 * New groups after a round: positions where merged same-length templates disagree become masks. Adds to
 * `lengths` every length a merged template had, before or after.
 */
function rebuild(groups: readonly Group[], uf: UnionFind, lengths: Set<number>): Group[] {
  // Groups come in key order and a set's root is its least key, so each root is met before its members.
  const next: Group[] = [];
  const at = new Map<number, Group>();
  for (const group of groups) {
    const root = uf.find(group.key);
    const into = at.get(root);
    if (into === undefined) {
      // The tokens are shared until a merge changes them: most groups take no other group in a round.
      const fresh = { key: root, tokens: group.tokens, owned: false, weight: group.weight };
      at.set(root, fresh);
      next.push(fresh);
      continue;
    }
    const total = into.weight + group.weight;
    lengths.add(into.tokens.length).add(group.tokens.length);
    if (into.tokens.length !== group.tokens.length) {
      // Different lengths: the template of the heavier side stands for the group.
      if (group.weight > into.weight) {
        into.tokens = group.tokens;
        into.owned = false;
      }
    } else {
      for (let p = 0; p < into.tokens.length; p++) {
        if (into.tokens[p] === group.tokens[p]) continue;
        if (!into.owned) {
          into.tokens = into.tokens.slice();
          into.owned = true;
        }
        into.tokens[p] = 0;
      }
    }
    into.weight = total;
  }
  return next;
}
