import { Clock } from '../clock.js';
import type { Rng } from '../prng.js';
import { requestId } from '../vocab-infra.js';
import type { TrajectoryBuilder } from './catalog.js';
import { TurnLog } from './turn-log.js';

/**
 * Exploring a paginated payments API to find and refund a duplicate charge: list the customer's charges,
 * follow `has_more` with `starting_after` (the last id of the page), spot two charges for the same order
 * 38 seconds apart, check no refund exists yet, then refund the second one. Every id in a request comes
 * from the previous response.
 */

const SYSTEM = `You are a support operations agent with access to the payments API (live mode).

Tools:
- http_get(path): GET an API path and return the JSON body.
- http_post(path, body): POST a JSON body and return the JSON response.

Never refund more than the customer was overcharged. Quote the charge ids you act on.`;

type Charge = Record<string, unknown>;

function charge(
  rng: Rng,
  clock: Clock,
  customer: string,
  orderId: string,
  amount: number,
  status: string,
): Charge {
  return {
    id: `ch_${rng.alnum(24)}`,
    object: 'charge',
    amount,
    amount_captured: status === 'succeeded' ? amount : 0,
    amount_refunded: 0,
    balance_transaction: status === 'succeeded' ? `txn_${rng.alnum(24)}` : null,
    created: clock.unix(),
    currency: 'eur',
    customer,
    description: rng.pick(['Order payment', 'Subscription renewal', null]),
    failure_code: status === 'failed' ? 'card_declined' : null,
    livemode: true,
    metadata: {
      order_id: orderId,
      ...(rng.chance(0.5) ? { channel: rng.pick(['web', 'ios', 'android']) } : {}),
    },
    paid: status === 'succeeded',
    payment_intent: `pi_${rng.alnum(24)}`,
    payment_method_details: {
      card: { brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2027 },
      type: 'card',
    },
    refunded: false,
    status,
  };
}

function build(rng: Rng): ReturnType<TrajectoryBuilder['build']> {
  const clock = Clock.within(rng);
  const customer = `cus_${rng.alnum(14)}`;
  const dupOrder = `ord_${rng.alnum(10)}`;
  const dupAmount = rng.pick([4990, 12900, 8450, 2599]);
  const page1: Charge[] = [];
  for (let i = 0; i < 10; i++) {
    clock.rewind(rng.int(3_600_000, 30 * 3_600_000));
    page1.push(
      charge(
        rng,
        clock,
        customer,
        `ord_${rng.alnum(10)}`,
        rng.pick([990, 1990, 4990, 12900, rng.int(500, 30000)]),
        rng.weighted([
          ['succeeded', 9],
          ['failed', 1],
        ] as const),
      ),
    );
  }
  const page2: Charge[] = [];
  clock.rewind(rng.int(3_600_000, 6 * 3_600_000));
  const second = charge(rng, clock, customer, dupOrder, dupAmount, 'succeeded');
  clock.rewind(38_000);
  const firstDup = charge(rng, clock, customer, dupOrder, dupAmount, 'succeeded');
  page2.push(second, firstDup);
  for (let i = 0; i < 6; i++) {
    clock.rewind(rng.int(3_600_000, 40 * 3_600_000));
    page2.push(
      charge(
        rng,
        clock,
        customer,
        `ord_${rng.alnum(10)}`,
        rng.pick([990, 1990, 4990, rng.int(500, 30000)]),
        'succeeded',
      ),
    );
  }
  const json = (v: unknown): string => JSON.stringify(v, null, 2);
  const lastOfPage1 = page1[page1.length - 1]!.id as string;
  const dupId = second.id as string;
  const refundId = `re_${rng.alnum(24)}`;
  const t = new TurnLog();
  t.system(SYSTEM)
    .user(
      'task',
      `Customer ${customer} says order ${dupOrder} was charged twice last week. Check and refund the duplicate if there is one.`,
    )
    .call('http_get', { path: `/v1/charges?customer=${customer}&limit=10` });
  t.tool(
    'obs-0',
    'http_get',
    'json',
    json({ object: 'list', data: page1, has_more: true, url: '/v1/charges' }),
  ).call('http_get', {
    path: `/v1/charges?customer=${customer}&limit=10&starting_after=${lastOfPage1}`,
  });
  t.note(
    'note-1',
    `No charge for ${dupOrder} on the first page and has_more is true; fetching the next page after ${lastOfPage1}.`,
  )
    .tool(
      'obs-1',
      'http_get',
      'json',
      json({ object: 'list', data: page2, has_more: false, url: '/v1/charges' }),
    )
    .call('http_get', { path: `/v1/refunds?charge=${dupId}` });
  t.note(
    'note-2',
    `${firstDup.id as string} and ${dupId} both charge ${dupAmount} (EUR cents) for ${dupOrder}, 38 seconds apart. Making sure ${dupId} has not been refunded already.`,
  )
    .tool(
      'obs-2',
      'http_get',
      'json',
      json({ object: 'list', data: [], has_more: false, url: '/v1/refunds' }),
    )
    .call('http_post', {
      path: '/v1/refunds',
      body: { charge: dupId, reason: 'duplicate', metadata: { order_id: dupOrder } },
    });
  clock.advance(2 * 86_400_000);
  t.tool(
    'obs-3',
    'http_post',
    'json',
    json({
      id: refundId,
      object: 'refund',
      amount: dupAmount,
      balance_transaction: `txn_${rng.alnum(24)}`,
      charge: dupId,
      created: clock.unix(),
      currency: 'eur',
      metadata: { order_id: dupOrder },
      payment_intent: second.payment_intent,
      reason: 'duplicate',
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
      request_id: requestId(rng),
    }),
  ).final(
    `Confirmed a duplicate: ${firstDup.id as string} and ${dupId} both charged €${(dupAmount / 100).toFixed(2)} for ${dupOrder}. Refunded the second charge ${dupId} in full (refund ${refundId}, status succeeded, reason duplicate); ${firstDup.id as string} stands as the order's payment.`,
  );
  return t.finish('json-api-exploration', 'datasets/generate.ts', 'pass');
}

/** The paginated API exploration. */
export const jsonApiExploration: TrajectoryBuilder = { id: 'json-api-exploration', build };
