import { Clock } from '../clock.js';
import type { Json, JsonPath } from '../json-lines.js';
import type { Rng } from '../prng.js';
import { requestId } from '../vocab-infra.js';
import { commitSubject, NOUNS, person, phrase, projectName, QUALIFIERS } from '../vocab-words.js';

/** Record builders for the CI, payments and orders API responses of the json-api family. */

/** A response body and the question it answers. */
export interface ApiResponse {
  body: Json;
  /** Leaf paths to keep. */
  keep: (path: JsonPath) => boolean;
  task: string;
  why: string;
  ndjson?: Json[];
}

/** A CI provider's workflow-run listing; the failed runs on main are the answer. */
export function workflowRuns(rng: Rng, n: number, clock: Clock): ApiResponse {
  const repo = `${rng.pick(['acme', 'northwind', 'globex'])}/${projectName(rng)}`;
  const runs: Json[] = [];
  const failing = new Set<number>();
  for (let i = 0; i < n; i++) {
    clock.rewind(rng.int(60_000, 7_200_000));
    const branch = rng.weighted([
      ['main', 4],
      [`feat/${rng.pick(NOUNS)}`, 2],
      [`dependabot/npm_and_yarn/${rng.pick(NOUNS)}-${rng.int(1, 9)}.${rng.int(0, 9)}.0`, 1],
    ] as const);
    const status = rng.weighted([
      ['completed', 8],
      ['in_progress', 1],
      ['queued', 1],
    ] as const);
    const conclusion =
      status !== 'completed'
        ? null
        : rng.weighted([
            ['success', 6],
            ['failure', 2],
            ['cancelled', 1],
            ['skipped', 1],
          ] as const);
    if (branch === 'main' && conclusion === 'failure') failing.add(i);
    const actor = person(rng, 'users.noreply.github.com');
    const login = actor.name.toLowerCase().replace(' ', '-');
    const run: { [k: string]: Json } = {
      id: rng.int(5_000_000_000, 9_999_999_999),
      name: rng.pick(['CI', 'Tests', 'Release', 'Lint', 'E2E']),
      node_id: `WFR_kwLO${rng.alnum(12)}`,
      head_branch: branch,
      head_sha: rng.hex(40),
      display_title: commitSubject(rng),
      run_number: rng.int(100, 9000),
      event: rng.pick(['push', 'pull_request', 'schedule', 'workflow_dispatch']),
      status,
      conclusion,
      workflow_id: rng.int(1_000_000, 90_000_000),
      url: '',
      html_url: '',
      created_at: clock.isoSeconds(),
      updated_at: new Clock(clock.epochMs + rng.int(60_000, 1_800_000)).isoSeconds(),
      run_attempt: rng.weighted([
        [1, 8],
        [2, 2],
        [3, 1],
      ] as const),
      actor: {
        login,
        id: rng.int(1_000, 90_000_000),
        type: rng.chance(0.1) ? 'Bot' : 'User',
        site_admin: false,
      },
    };
    run.url = `https://api.github.com/repos/${repo}/actions/runs/${run.id}`;
    run.html_url = `https://github.com/${repo}/actions/runs/${run.id}`;
    if (rng.chance(0.3))
      run.pull_requests = [{ number: rng.int(10, 4000), head: { ref: String(branch), sha: rng.hex(40) } }];
    else run.pull_requests = [];
    if (rng.chance(0.2)) delete run.node_id;
    runs.push(run);
  }
  if (failing.size === 0 && runs.length > 0) {
    const i = rng.int(0, runs.length - 1);
    const r = runs[i] as { [k: string]: Json };
    r.head_branch = 'main';
    r.status = 'completed';
    r.conclusion = 'failure';
    failing.add(i);
  }
  return {
    body: { total_count: n + rng.int(0, 400), workflow_runs: runs },
    keep: (p) =>
      p[0] === 'workflow_runs' &&
      failing.has(p[1] as number) &&
      p.length === 3 &&
      ['id', 'head_branch', 'conclusion', 'head_sha', 'name'].includes(p[2] as string),
    task: `list the failed workflow runs on main for ${repo} and re-run the newest one`,
    why: `${failing.size} failed run(s) on main: their id, name, branch, sha and conclusion fields`,
  };
}

/** A payments list endpoint page; failed charges (and has_more) are the answer. */
export function charges(rng: Rng, n: number, clock: Clock): ApiResponse {
  const data: Json[] = [];
  const failed = new Set<number>();
  // At least one record answers the question, whatever the draws.
  const forced = rng.int(0, n - 1);
  for (let i = 0; i < n; i++) {
    clock.rewind(rng.int(10_000, 3_600_000));
    const drawn = rng.weighted([
      ['succeeded', 10],
      ['failed', 2],
      ['pending', 1],
    ] as const);
    const status = i === forced ? 'failed' : drawn;
    if (status === 'failed') failed.add(i);
    const amount = rng.pick([500, 1200, 1999, 4900, 12900, 25000, rng.int(100, 99999)]);
    const c: { [k: string]: Json } = {
      id: `ch_${rng.alnum(24)}`,
      object: 'charge',
      amount,
      amount_captured: status === 'succeeded' ? amount : 0,
      amount_refunded: rng.chance(0.1) ? rng.int(100, amount) : 0,
      created: clock.unix(),
      currency: rng.pick(['usd', 'eur', 'gbp', 'jpy']),
      customer: rng.chance(0.9) ? `cus_${rng.alnum(14)}` : null,
      description: rng.chance(0.5) ? `Subscription ${rng.pick(['update', 'creation', 'renewal'])}` : null,
      failure_code:
        status === 'failed'
          ? rng.pick(['card_declined', 'expired_card', 'insufficient_funds', 'processing_error'])
          : null,
      failure_message:
        status === 'failed'
          ? rng.pick([
              'Your card was declined.',
              'Your card has expired.',
              'Your card has insufficient funds.',
              'An error occurred while processing your card. Try again in a little bit.',
            ])
          : null,
      livemode: true,
      metadata: rng.chance(0.6)
        ? { order_id: `ord_${rng.alnum(10)}`, ...(rng.chance(0.4) ? { tenant: `t-${rng.int(1, 500)}` } : {}) }
        : {},
      outcome: {
        network_status: status === 'failed' ? 'declined_by_network' : 'approved_by_network',
        reason: status === 'failed' ? rng.pick(['generic_decline', 'expired_card', null]) : null,
        risk_level: rng.pick(['normal', 'normal', 'elevated']),
        risk_score: rng.int(0, 90),
        seller_message:
          status === 'failed'
            ? 'The bank did not return any further details with this decline.'
            : 'Payment complete.',
        type: status === 'failed' ? 'issuer_declined' : 'authorized',
      },
      paid: status === 'succeeded',
      payment_method_details: {
        card: {
          brand: rng.pick(['visa', 'mastercard', 'amex']),
          last4: String(rng.int(1000, 9999)),
          exp_month: rng.int(1, 12),
          exp_year: rng.int(2024, 2031),
          ...(rng.chance(0.3) ? { wallet: { type: rng.pick(['apple_pay', 'google_pay']) } } : {}),
        },
        type: 'card',
      },
      status,
    };
    if (rng.chance(0.2)) c.receipt_url = `https://pay.stripe.com/receipts/payment/${rng.alnum(60)}`;
    data.push(c);
  }
  const hasMore = rng.chance(0.6);
  return {
    body: { object: 'list', data, has_more: hasMore, url: '/v1/charges' },
    keep: (p) =>
      (p[0] === 'data' &&
        failed.has(p[1] as number) &&
        p.length === 3 &&
        ['id', 'failure_code', 'failure_message', 'status'].includes(p[2] as string)) ||
      (hasMore && p[0] === 'has_more'),
    task: 'find the charges that failed today and why',
    why: `${failed.size} failed charge(s): id, status, failure code and message${hasMore ? '; has_more=true means another page must be fetched' : ''}`,
  };
}

/** An internal orders API page with a cursor; orders pending for over a day are the answer. */
export function orders(rng: Rng, n: number, clock: Clock): ApiResponse {
  const results: Json[] = [];
  const stuck = new Set<number>();
  const now = clock.epochMs;
  const forced = rng.int(0, n - 1);
  for (let i = 0; i < n; i++) {
    const drawnAge = rng.int(0, 96);
    const drawn = rng.weighted([
      ['fulfilled', 8],
      ['pending', 3],
      ['cancelled', 1],
      ['refunded', 1],
    ] as const);
    const state = i === forced ? 'pending' : drawn;
    const ageH = i === forced ? Math.max(25, drawnAge) : drawnAge;
    if (state === 'pending' && ageH > 24) stuck.add(i);
    const rec: { [k: string]: Json } = {
      order_id: `ord_${rng.alnum(12)}`,
      state,
      created_at: new Clock(now - ageH * 3_600_000 - rng.int(0, 3_599_000)).iso(),
      customer: rng.chance(0.8)
        ? {
            id: rng.int(1, 999_999),
            email: person(rng).email,
            tier: rng.pick(['free', 'pro', 'enterprise', null]),
          }
        : null,
      lines: Array.from({ length: rng.int(0, 4) }, () => ({
        sku: `${rng.pick(NOUNS).toUpperCase()}-${rng.int(100, 999)}`,
        qty: rng.int(1, 5),
        unit_price: { amount: rng.int(100, 20000), currency: rng.pick(['EUR', 'USD']) },
      })),
      total: rng.int(0, 90000) / 100,
    };
    if (rng.chance(0.3)) rec.notes = phrase(rng);
    if (state === 'pending' && rng.chance(0.6))
      rec.last_error = {
        code: rng.pick(['PAYMENT_TIMEOUT', 'WAREHOUSE_UNAVAILABLE', 'ADDRESS_INVALID']),
        at: new Clock(now - rng.int(1, 20) * 3_600_000).iso(),
        retryable: rng.chance(0.5),
      };
    if (rng.chance(0.15)) rec.tags = rng.sample([...QUALIFIERS], rng.int(1, 3));
    if (rng.chance(0.1)) rec.legacy_id = rng.int(10_000, 99_999);
    results.push(rec);
  }
  const next = rng.chance(0.5) ? `eyJvZmZzZXQiOi${rng.alnum(20)}` : null;
  return {
    body: { results, count: n, next_cursor: next, request_id: requestId(rng) },
    keep: (p) =>
      (p[0] === 'results' &&
        stuck.has(p[1] as number) &&
        (p[2] === 'order_id' ||
          p[2] === 'state' ||
          p[2] === 'created_at' ||
          (p[2] === 'last_error' && p[3] === 'code'))) ||
      (next !== null && p[0] === 'next_cursor'),
    task: 'find orders stuck in pending for more than 24 hours',
    why: `${stuck.size} stuck order(s): id, state, creation time and last error code${next ? '; next_cursor means more pages' : ''}`,
  };
}
