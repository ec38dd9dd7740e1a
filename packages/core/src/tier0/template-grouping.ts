import { MASK } from './template-mask.js';
import { compatible, positionIsVariable, type TokenTraits, traitsOf } from './template-merge-rules.js';

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

class UnionFind {
  readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(x: number): number {
    const p = this.parent;
    while (p[x] !== x) {
      p[x] = p[p[x]!]!;
      x = p[x]!;
    }
    return x;
  }
  union(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
    return true;
  }
}

/** Token interning: ids index `traits`. Id 0 is the bare mask. */
class TokenTable {
  readonly ids = new Map<string, number>();
  readonly traits: TokenTraits[] = [];
  constructor() {
    this.id(MASK);
  }
  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.traits.length;
      this.ids.set(text, id);
      this.traits.push(traitsOf(text));
    }
    return id;
  }
}

interface Group {
  tokens: Int32Array;
  weight: number;
}

/** Result of {@link groupSkeletons}. */
export interface SkeletonGroups {
  /** Group index of every input skeleton. */
  groupOf: Int32Array;
  /** Merged skeleton (tokens joined by spaces, masks as {@link MASK}) per group. */
  templates: string[];
}

const MAX_ROUNDS = 8;
const MAX_PAIRWISE = 200;

// Two independent 32-bit multiplicative mixes combined into one exactly representable double key.
function mix(h: number, v: number): number {
  return Math.imul(h ^ v, 0x9e3779b1) + 0x7f4a7c15;
}
function mix2(h: number, v: number): number {
  return Math.imul(h + v, 0x85ebca77) ^ (h >>> 15);
}
function keyOf(a: number, b: number): number {
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** Merges skeletons (tokens separated by single spaces) into templates. */
export function groupSkeletons(skeletons: readonly string[], weights: readonly number[]): SkeletonGroups {
  const table = new TokenTable();
  const m = skeletons.length;
  let groups = new Map<number, Group>();
  for (let s = 0; s < m; s++) {
    const parts = skeletons[s]!.length === 0 ? [] : skeletons[s]!.split(' ');
    const tokens = new Int32Array(parts.length);
    for (let p = 0; p < parts.length; p++) tokens[p] = table.id(parts[p]!);
    groups.set(s, { tokens, weight: weights[s]! });
  }
  const uf = new UnionFind(m);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let merged = mergeOneDifference(groups, table, uf);
    merged = mergeCompatible(groups, table, uf) || merged;
    merged = mergeAcrossLengths(groups, table, uf) || merged;
    if (!merged) break;
    groups = rebuild(groups, uf);
  }
  const index = new Map<number, number>();
  const templates: string[] = [];
  const groupOf = new Int32Array(m);
  for (let s = 0; s < m; s++) {
    const root = uf.find(s);
    let g = index.get(root);
    if (g === undefined) {
      g = templates.length;
      index.set(root, g);
      const tokens = groups.get(root)!.tokens;
      const texts: string[] = [];
      for (const id of tokens) texts.push(table.traits[id]!.text);
      templates.push(texts.join(' '));
    }
    groupOf[s] = g;
  }
  return { groupOf, templates };
}

/** Step 1: templates of one length that differ in exactly one position. */
function mergeOneDifference(groups: Map<number, Group>, table: TokenTable, uf: UnionFind): boolean {
  // Most keys have one member: keep those as bare numbers, and make a list only on the second member.
  const firsts = new Map<number, number>();
  const buckets = new Map<number, number[]>();
  let prefixA = new Int32Array(64);
  let prefixB = new Int32Array(64);
  for (const [g, { tokens }] of groups) {
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
      const key = keyOf(mix(mix(prefixA[p]!, p + 1) ^ sa, n), mix2(mix2(prefixB[p]!, p + 7) ^ sb, n));
      const first = firsts.get(key);
      if (first === undefined) firsts.set(key, g);
      else {
        const list = buckets.get(key);
        if (list === undefined) buckets.set(key, [first, g]);
        else list.push(g);
      }
      sa = mix(sa, tokens[p]!);
      sb = mix2(sb, tokens[p]!);
    }
  }
  let merged = false;
  const traits = table.traits;
  for (const members of buckets.values()) {
    if (members.length < 2) continue;
    const first = groups.get(members[0]!)!.tokens;
    // Find the position they differ at (hash keys are checked, never trusted).
    const second = groups.get(members[1]!)!.tokens;
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
      const group = groups.get(g)!;
      if (!sameExcept(group.tokens, first, position)) continue;
      same.push(g);
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
function mergeCompatible(groups: Map<number, Group>, table: TokenTable, uf: UnionFind): boolean {
  const traits = table.traits;
  const coarse = new Map<string, number[]>();
  for (const [g, { tokens }] of groups) {
    let key = `${tokens.length}`;
    let anyMasked = false;
    for (const id of tokens) {
      const t = traits[id]!;
      if (t.masked || t.bracketed) {
        key += ',_';
        anyMasked = true;
      } else key += `,${id}`;
    }
    if (!anyMasked) continue;
    const list = coarse.get(key);
    if (list === undefined) coarse.set(key, [g]);
    else list.push(g);
  }
  let merged = false;
  for (const members of coarse.values()) {
    if (members.length < 2 || members.length > MAX_PAIRWISE) continue;
    for (let a = 0; a < members.length; a++) {
      const ta = groups.get(members[a]!)!.tokens;
      const context: TokenTraits[] = [];
      for (const id of ta) context.push(traits[id]!);
      for (let c = a + 1; c < members.length; c++) {
        const tc = groups.get(members[c]!)!.tokens;
        let ok = true;
        for (let p = 0; p < ta.length && ok; p++) {
          if (ta[p] === tc[p]) continue;
          ok = compatible(traits[ta[p]!]!, traits[tc[p]!]!) && absorbableAt(context, p);
        }
        if (ok) merged = uf.union(members[a]!, members[c]!) || merged;
      }
    }
  }
  return merged;
}

function absorbableAt(context: readonly TokenTraits[], p: number): boolean {
  for (let q = p + 1; q < context.length; q++) if (!context[q]!.masked) return true;
  let before = 0;
  for (let q = 0; q < p; q++) if (!context[q]!.masked) before++;
  return before >= 3;
}

/** Step 3: the same constants in the same order, runs of pure variables counted as one. */
function mergeAcrossLengths(groups: Map<number, Group>, table: TokenTable, uf: UnionFind): boolean {
  const traits = table.traits;
  const byKey = new Map<string, number>();
  let merged = false;
  for (const [g, { tokens }] of groups) {
    let key = '';
    let constants = 0;
    let inRun = false;
    for (const id of tokens) {
      if (traits[id]!.pure) {
        if (!inRun) key += '_,';
        inRun = true;
      } else {
        key += `${id},`;
        inRun = false;
        constants++;
      }
    }
    if (constants === 0) continue;
    const other = byKey.get(key);
    if (other === undefined) byKey.set(key, g);
    else merged = uf.union(other, g) || merged;
  }
  return merged;
}

/** New groups after a round: positions where merged same-length templates disagree become masks. */
function rebuild(groups: Map<number, Group>, uf: UnionFind): Map<number, Group> {
  const next = new Map<number, Group>();
  for (const [g, group] of groups) {
    const root = uf.find(g);
    const into = next.get(root);
    if (into === undefined) {
      next.set(root, { tokens: group.tokens.slice(), weight: group.weight });
      continue;
    }
    const total = into.weight + group.weight;
    if (into.tokens.length !== group.tokens.length) {
      // Different lengths: the template of the heavier side stands for the group.
      if (group.weight > into.weight) into.tokens = group.tokens.slice();
    } else {
      for (let p = 0; p < into.tokens.length; p++) if (into.tokens[p] !== group.tokens[p]) into.tokens[p] = 0;
    }
    into.weight = total;
  }
  return next;
}
