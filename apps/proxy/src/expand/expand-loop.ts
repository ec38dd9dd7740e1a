import { type PreparedExchange, postUpstream, recordExchange } from '../exchange.js';
import { bypassReasonOf } from '../fail-open/part-failure.js';
import { standAside } from '../fail-open/stand-aside.js';
import type { UpstreamErrorKind } from '../http/provider-errors.js';
import type { UpstreamResponse } from '../http/upstream.js';
import type { BilledUsage } from '../savings/billed-usage.js';
import type { DialectTools, DistilCallScope } from './distil-tools.js';
import { credentialDigest, ownsHandle } from './handle-owners.js';
import { RoundTally } from './round-tally.js';

/**
 * How a turn ends, which decides what the client's reply says:
 * `answered` — the model's last reply made no distil call (or could not be continued): it is the end;
 * `capped`   — past the loop cap (the model was told its expand budget is spent and still called only
 *              distil tools): the calls go unanswered and unseen, and the reply says the turn ended;
 * `handed`   — the client must run calls of its own first: the distil answers wait for its next request.
 */
export type EndingKind = 'answered' | 'capped' | 'handed';

/** The end of a turn and the round it came in (round 0 `answered`: nothing was spliced). */
export interface TurnEnding {
  readonly kind: EndingKind;
  readonly round: number;
}

/** Whether the client gets the upstream's own reply as it came: the first round ended the turn. */
export function endsAsIs(ending: TurnEnding): boolean {
  return ending.kind === 'answered' && ending.round === 0;
}

/** What one round of upstream reply gave the loop. */
export type RoundRead<Reply> =
  | {
      readonly kind: 'reply';
      readonly reply: Reply;
      /** What the round was billed; null when the upstream did not say (a stream without usage). */
      readonly usage: BilledUsage | null;
      readonly model: string | undefined;
      /** The reply cannot be continued whatever it holds (a Responses stream that ended incomplete). */
      readonly final: boolean;
    }
  | {
      /** The round broke after the client's reply began; the client was told in its own format. */
      readonly kind: 'failed';
      readonly reason: string;
      /** The upstream's own error type and code, when it refused the round with an error body. */
      readonly errorKind?: UpstreamErrorKind;
      /** What the round was billed as far as the upstream said before it broke. */
      readonly usage: BilledUsage | null;
      readonly model: string | undefined;
    }
  /** The upstream's answer went to the client as it came (an error status, a body the proxy cannot read). */
  | { readonly kind: 'relayed' };

/** The distil calls and the agent's own calls of one reply. */
export interface RoundCalls {
  /** Distil calls the proxy answers (none when it did not offer the tools: then they are the client's). */
  readonly distil: number;
  /** Whether the reply holds calls the client must run itself. */
  readonly agent: boolean;
}

/**
 * One API's side of a turn (Messages, Chat Completions, Responses): sorting a reply's calls, what the
 * client sees of it, answering the distil calls, the continuation, and the splice the next turn needs.
 */
export interface ReplyTurn<Reply> {
  readonly provider: 'anthropic' | 'openai';
  /** The distil tools as this API writes them (what offering them cost). */
  readonly tools: DialectTools;
  /**
   * Whether distil calls at the loop cap are answered, their results owed to the client's next request,
   * rather than dropped unseen. Needed where the upstream keeps the reply that made them: a stored
   * Responses reply the client chains on needs an output for each of its calls.
   */
  readonly owesAtCap: boolean;
  /** Takes one round's reply: its visible part joins what the client gets. */
  take(reply: Reply): RoundCalls;
  /** Answers the last reply's distil calls; how many it answered. */
  answer(scope: DistilCallScope): Promise<number>;
  /** Remembers how the reply the client gets really went upstream, for the next turn (see Splice). */
  remember(kind: EndingKind): void;
  /** The next request of the loop: the last reply and its answers appended. */
  continuation(): unknown;
}

/** One transport's side of a turn (a JSON body or an event stream): reading rounds, ending the reply. */
export interface ReplyChannel<Reply> {
  read(upstream: UpstreamResponse, round: number): Promise<RoundRead<Reply>>;
  /** Sends (or ends) the one reply the client sees. */
  finish(ending: TurnEnding): Promise<void>;
  /** A failure the loop raised: reported in the client's format once its reply began, else thrown on. */
  fail(error: unknown): Promise<void>;
  close(): void;
}

/** Handles this exchange's caller may expand: issued to it now, in its session, or granted in the store. */
function mayExpandFor(exchange: PreparedExchange): (handle: string) => Promise<boolean> {
  // digested only when a handle must be looked up in the store: most turns expand nothing
  let owner: ReturnType<typeof credentialDigest> | undefined;
  const ownerDigest = (): ReturnType<typeof credentialDigest> => {
    owner ??= credentialDigest(exchange.req.headers);
    return owner;
  };
  return async (handle) =>
    exchange.outcome.issued.has(handle) ||
    exchange.session.grantedHandles.has(handle) ||
    (await ownsHandle(exchange.rt.store, handle, ownerDigest()));
}

/**
 * The expand loop, once for every API and transport: while the model calls only distil tools (and the
 * cap allows), the proxy answers them from the restore store and asks again; the client sees one reply.
 * Every upstream call is priced in the ledger: the client's request, each expand round trip, and the
 * usage of a round that broke.
 */
export async function runExpandLoop<Reply>(
  exchange: PreparedExchange,
  turn: ReplyTurn<Reply>,
  channel: ReplyChannel<Reply>,
  body: Buffer | string,
  rewritten: boolean,
): Promise<void> {
  const tally = new RoundTally();
  const scope: DistilCallScope = {
    store: exchange.rt.store,
    handlesInContext: exchange.outcome.handles,
    mayExpand: mayExpandFor(exchange),
    onFailure: (error) => standAside(exchange, bypassReasonOf(error), error, 'distil call answered unread'),
    onExpanded: (handle) => {
      // one conversation expanding a handle again is no new evidence
      if (exchange.session.countedExpands.has(handle)) return;
      exchange.session.countedExpands.add(handle);
      exchange.rt.learning.recordExpand(handle);
    },
  };
  const cap = exchange.rt.config.expandLoopCap;
  const post = (bytes: Buffer | string, changed: boolean): Promise<UpstreamResponse> => {
    tally.posted();
    return postUpstream(exchange, bytes, changed);
  };
  try {
    let upstream = await post(body, rewritten);
    // the handle grants and record syncs ran while the model read the request; none of the reply is read first
    await exchange.stored;
    for (let round = 0; ; round++) {
      const read = await channel.read(upstream, round);
      tally.read(read);
      if (read.kind !== 'reply') return;
      const calls = turn.take(read.reply);
      let kind: EndingKind | null = null;
      if (calls.distil === 0 || read.final) kind = 'answered';
      else if (!calls.agent && round > cap && !turn.owesAtCap) kind = 'capped';
      else {
        // At the cap the model is told its expand budget is spent and asked once more, so it can go on
        // with its own tools: ending the turn there would hand the agent an empty reply, a decision the
        // model never made.
        const spent = !calls.agent && round >= cap;
        tally.expands += await turn.answer(spent ? { ...scope, budgetSpent: cap } : scope);
        if (calls.agent || round > cap) kind = 'handed';
      }
      if (kind !== null) {
        turn.remember(kind);
        await channel.finish({ kind, round });
        return;
      }
      upstream = await post(JSON.stringify(turn.continuation()), true);
    }
  } catch (error) {
    await channel.fail(error);
  } finally {
    channel.close();
    if (tally.priced) {
      await recordExchange(
        exchange,
        turn.provider,
        tally.model ?? exchange.model,
        turn.tools,
        tally.calls,
        tally.expands,
      );
    }
  }
}
