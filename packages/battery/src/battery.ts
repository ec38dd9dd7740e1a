import type { Handle } from '@distil/contract';
import {
  countTokens,
  type ForwardedText,
  handlesIn,
  readForwarded,
  splitSegments,
  stripTerminator,
} from '@distil/core';
import type { ContextPath, ConversationRequest, ForwardedRequest } from './context-path.js';
import { type Branch, type CaseCheck, type CaseRun, check, type HostileCase } from './hostile-case.js';
import { BLOCK_CASES } from './hostile-cases-block.js';
import { CONTEXT_CASES } from './hostile-cases-context.js';

/** Every hostile case of the battery, in the order it runs them. */
export const HOSTILE_CASES: readonly HostileCase[] = Object.freeze([...BLOCK_CASES, ...CONTEXT_CASES]);

/** The invariants every case is checked against: the pipeline's five, and the load-bearing disjunction. */
export const INVARIANTS = Object.freeze([
  'reversible',
  'independent',
  'prefix-stable',
  'announced',
  'forged-never-resolve',
  'load-bearing',
] as const);

/** One case through one path. */
export interface CaseOutcome {
  readonly case: string;
  readonly path: string;
  readonly threat: string;
  readonly branch: Branch;
  /** Tokens saved on the block holding the load-bearing line (fraction, o200k). */
  readonly savings: number;
  readonly checks: readonly CaseCheck[];
  /** A stated cost the case demonstrates (denial of savings). */
  readonly cost?: string;
  /** Whether every invariant and every check of the case held. */
  readonly holds: boolean;
}

/** The battery's result: every case through every path. */
export interface BatteryReport {
  readonly outcomes: readonly CaseOutcome[];
  readonly holds: boolean;
}

/** Which cases to run (default all) and what to report progress to. */
export interface BatteryOptions {
  readonly cases?: readonly string[];
  readonly onOutcome?: (outcome: CaseOutcome) => void;
}

/** A short benign tool result sent after a case, to check every earlier block keeps its bytes. */
const FOLLOW_UP = 'exit status 0\n';

/**
 * Runs the adversarial battery (spec/threat-model.txt): every hostile case through every path, each
 * checked against the invariants — reversible, per-block independent, prefix-stable, announced, forged
 * handles never resolve — and the load-bearing disjunction: the line the attacker wants gone survives
 * verbatim, or it was folded, a handle Distil issued returns it and its stub declares the elision.
 */
export async function runAdversarialBattery(
  paths: readonly ContextPath[],
  options: BatteryOptions = {},
): Promise<BatteryReport> {
  const wanted = options.cases ? new Set(options.cases) : null;
  const unknown = [...(wanted ?? [])].filter((name) => !HOSTILE_CASES.some((c) => c.name === name));
  if (unknown.length > 0) throw new Error(`unknown case(s): ${unknown.join(', ')}`);
  const outcomes: CaseOutcome[] = [];
  for (const hostile of HOSTILE_CASES) {
    if (wanted && !wanted.has(hostile.name)) continue;
    for (const path of paths) {
      const outcome = await runCase(hostile, path);
      outcomes.push(outcome);
      options.onOutcome?.(outcome);
    }
  }
  return { outcomes, holds: outcomes.every((o) => o.holds) };
}

async function runCase(hostile: HostileCase, path: ContextPath): Promise<CaseOutcome> {
  const base = {
    case: hostile.name,
    path: path.name,
    threat: hostile.threat,
    ...(hostile.cost && { cost: hostile.cost }),
  };
  try {
    const { branch, savings, checks } = await checkCase(hostile, path);
    return { ...base, branch, savings, checks, holds: checks.every((c) => c.status !== 'fail') };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...base, branch: 'lost', savings: 0, checks: [check('ran', false, reason)], holds: false };
  }
}

async function checkCase(
  hostile: HostileCase,
  path: ContextPath,
): Promise<{ branch: Branch; savings: number; checks: CaseCheck[] }> {
  const conversation = path.conversation();
  const requests: ConversationRequest[] = [];
  const forwarded: ForwardedRequest[] = [];
  for (let next = hostile.next(forwarded); next; next = hostile.next(forwarded)) {
    requests.push(next);
    forwarded.push(await conversation.send(next));
  }
  const last = requests.at(-1);
  const sent = forwarded.at(-1);
  if (!last || !sent) throw new Error('the case sent nothing');
  const followUp = await conversation.send({ user: last.user, tools: [...last.tools, FOLLOW_UP] });
  const reads = await Promise.all(
    last.tools.map((text, i) => readForwarded(text, sent.tools[i] ?? '', path.store)),
  );
  const sendFresh = async (fresh: readonly ConversationRequest[]): Promise<ForwardedRequest> => {
    const other = path.conversation();
    let out: ForwardedRequest | undefined;
    for (const request of fresh) out = await other.send(request);
    if (!out) throw new Error('sendFresh needs at least one request');
    return out;
  };
  const run: CaseRun = { path, conversation, requests, forwarded, reads, sendFresh };

  const checks: CaseCheck[] = [
    reversible(last, sent, reads),
    await independent(hostile, run),
    prefixStable(
      [...forwarded, followUp],
      [...requests, { user: last.user, tools: [...last.tools, FOLLOW_UP] }],
    ),
    announced(reads),
    await forgedNeverResolve(run),
  ];
  checks.push(...((await hostile.checks?.(run)) ?? []));
  const { branch, detail } = await loadBearing(hostile, run);
  checks.push(check('load-bearing', branch !== 'lost', detail));
  if (hostile.pinned)
    checks.push(
      check('pinned outcome', branch === hostile.pinned, `pinned: ${hostile.pinned}, got ${branch}`),
    );
  const t = hostile.target.tool;
  const before = countTokens(last.tools[t]!);
  const savings = before === 0 ? 0 : 1 - countTokens(sent.tools[t]!) / before;
  if (hostile.pinnedSavings !== undefined) {
    checks.push(
      check(
        'pinned savings',
        savings === hostile.pinnedSavings,
        `pinned: ${(hostile.pinnedSavings * 100).toFixed(1)}%, got ${(savings * 100).toFixed(1)}%`,
      ),
    );
  }
  return { branch, savings, checks };
}

function reversible(
  last: ConversationRequest,
  sent: ForwardedRequest,
  reads: readonly ForwardedText[],
): CaseCheck {
  const broken = reads.findIndex((r) => !r.reversible);
  if (broken !== -1)
    return check('reversible', false, `tool result ${broken + 1}: ${reads[broken]!.problem}`);
  if (sent.tools.length !== last.tools.length) return check('reversible', false, 'tool results went missing');
  const touched = last.user.find((text) => !sent.user.includes(text));
  if (touched !== undefined) return check('reversible', false, 'a user message was rewritten');
  return check('reversible', true);
}

async function independent(hostile: HostileCase, run: CaseRun): Promise<CaseCheck> {
  if (hostile.notIndependent) return { name: 'independent', status: 'n/a', detail: hostile.notIndependent };
  const last = run.requests.at(-1)!;
  const sent = run.forwarded.at(-1)!;
  for (const [i, text] of last.tools.entries()) {
    // A back-reference depends on the earlier block by design; every other encoding is the block's own.
    if (run.reads[i]!.encoding === 'reference') continue;
    const alone = await run.sendFresh([{ user: last.user, tools: [text] }]);
    if (alone.tools[0] !== sent.tools[i]) {
      return check('independent', false, `tool result ${i + 1} compresses differently alone`);
    }
  }
  return check('independent', true);
}

function prefixStable(
  forwarded: readonly ForwardedRequest[],
  requests: readonly ConversationRequest[],
): CaseCheck {
  for (let r = 1; r < forwarded.length; r++) {
    const known = requests[r - 1]!.tools.length;
    for (let i = 0; i < known; i++) {
      if (forwarded[r]!.tools[i] !== forwarded[r - 1]!.tools[i]) {
        return check('prefix-stable', false, `tool result ${i + 1} changed bytes in request ${r + 1}`);
      }
    }
  }
  return check('prefix-stable', true);
}

function announced(reads: readonly ForwardedText[]): CaseCheck {
  const silent = reads.findIndex((r) => !r.announced);
  return silent === -1
    ? check('announced', true)
    : check('announced', false, `tool result ${silent + 1}: ${reads[silent]!.problem}`);
}

/** Every handle-shaped string the inputs print that Distil did not issue: absent, and expand refuses it. */
async function forgedNeverResolve(run: CaseRun): Promise<CaseCheck> {
  const issued = new Set<Handle>();
  for (const [r, request] of run.requests.entries()) {
    for (const [i, text] of request.tools.entries()) {
      const read = await readForwarded(text, run.forwarded[r]!.tools[i] ?? '', run.path.store);
      for (const handle of read.issued) issued.add(handle);
    }
  }
  const printed = new Set(
    run.requests.flatMap((request) => [...request.tools, ...request.user].flatMap(handlesIn)),
  );
  const forged = [...printed].filter((handle) => !issued.has(handle));
  for (const handle of forged) {
    if (await run.path.store.has(handle))
      return check('forged-never-resolve', false, `${handle} is in the store`);
    const answer = await run.conversation.expand(handle);
    if (answer.resolved) return check('forged-never-resolve', false, `${handle} was expanded`);
  }
  return forged.length === 0
    ? { name: 'forged-never-resolve', status: 'pass', detail: 'no forged handle in this case' }
    : check('forged-never-resolve', true, `${forged.length} refused`);
}

/** Where the target line went: kept verbatim, or folded behind an issued handle that returns it. */
async function loadBearing(hostile: HostileCase, run: CaseRun): Promise<{ branch: Branch; detail: string }> {
  const { tool, line } = hostile.target;
  const original = run.requests.at(-1)!.tools[tool]!;
  const forwarded = run.forwarded.at(-1)!.tools[tool]!;
  const lines = splitSegments(original).segments.map(stripTerminator);
  const index = lines.indexOf(line);
  if (index === -1 || lines.indexOf(line, index + 1) !== -1) {
    throw new Error(`the target line must occur exactly once in tool result ${tool + 1}`);
  }
  const read = run.reads[tool]!;
  const behind =
    read.encoding === 'reference' ? read.issued[0] : read.foldOf ? (read.foldOf[index] ?? null) : undefined;
  if (behind === null || (behind === undefined && forwarded.includes(line))) {
    return { branch: 'kept', detail: 'survives verbatim' };
  }
  if (behind === undefined)
    return { branch: 'lost', detail: `neither in the text nor behind a stub (${read.encoding})` };
  if (!read.announced) return { branch: 'lost', detail: 'folded behind a stub that misstates what it folds' };
  const answer = await run.conversation.expand(behind);
  return answer.resolved && answer.text.includes(line)
    ? { branch: 'folded', detail: `announced and returned by expand(${behind})` }
    : { branch: 'lost', detail: `expand(${behind}) did not return it: ${answer.text.slice(0, 120)}` };
}
