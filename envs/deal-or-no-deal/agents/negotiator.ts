/**
 * The shared driver of the deal-or-no-deal baselines: a strategy says what to propose and what to
 * accept; the driver plays it in either protocol.
 *
 * openspiel: accept the partner's offer on the table when the strategy accepts the share it leaves
 * (Agree = 120), else offer the strategy's proposal.
 * dialogue: answer "Deal." to a partner's proposal the strategy accepts; once the partner said
 * "Deal." to our proposal, move to the selection; otherwise say our proposal (canonical phrasing).
 * In the selection, choose the split agreed in talk; without one, walk away (no-agreement) when
 * allowed, else choose our own proposal.
 */
import type { Agent, AgentContext } from '../../../src/core/agent';
import { canonicalProposal, DEAL_TEXT } from '../messages';
import type { DondObservation } from '../observe';
import { AGREE, OFFERS, restOf } from '../offers';

/** What a strategy knows when it decides. */
export interface NegotiationView {
  seat: number;
  pool: readonly number[];
  /** My per-item values. */
  values: readonly number[];
  /** The partner's values: only for omniscient agents (null otherwise). */
  partnerValues: readonly number[] | null;
  coop: number;
  /** openspiel: true when an offer now would be the last one (the game would end without a deal). */
  lastChance: boolean;
  obs: DondObservation;
}

/** A negotiation strategy: the share it asks for, and which shares it accepts. */
export interface Strategy {
  /** Offer id of what I want to keep (must fit the pool). */
  propose(view: NegotiationView): number;
  /** Whether I accept getting `share` (item counts) with the partner keeping the rest. */
  accept(view: NegotiationView, share: readonly number[]): boolean;
}

function viewOf(obs: DondObservation, ctx: AgentContext): NegotiationView {
  const seat = obs.seat ?? ctx.seat;
  const values = obs.values ?? obs.allValues?.[seat];
  if (!values) throw new Error('deal-or-no-deal baseline: the observation shows no values for this seat');
  return {
    seat,
    pool: obs.pool,
    values,
    partnerValues: obs.allValues ? obs.allValues[1 - seat] : null,
    coop: obs.coop,
    lastChance: obs.protocol === 'openspiel' && obs.turn === obs.maxTurns - 1,
    obs,
  };
}

function choose(keep: readonly number[]): { type: 'choose'; keep: number[] } {
  return { type: 'choose', keep: [...keep] };
}

/** Plays `strategy` in either protocol (the agent's action for one decision). */
export function negotiate(strategy: Strategy, obs: DondObservation, ctx: AgentContext): unknown {
  const view = viewOf(obs, ctx);
  const me = view.seat;
  if (obs.protocol === 'openspiel') {
    const last = obs.lastOffer;
    if (last && last.seat !== me && strategy.accept(view, restOf(obs.pool, last.keep))) return AGREE;
    return strategy.propose(view);
  }
  if (obs.phase === 'talk') {
    if (obs.accepted && obs.accepted.seat === me) return { type: 'selection' };
    const p = obs.proposal;
    if (p && p.seat !== me && !obs.accepted && strategy.accept(view, restOf(obs.pool, p.keep))) return { type: 'message', text: DEAL_TEXT };
    return { type: 'message', text: canonicalProposal(strategy.propose(view)) };
  }
  const deal = obs.accepted;
  if (deal) return choose(deal.seat === me ? deal.keep : restOf(obs.pool, deal.keep));
  if (obs.noAgreementAllowed) return { type: 'no-agreement' };
  return choose(OFFERS[strategy.propose(view)]);
}

/** An agent playing `strategy`. */
export function negotiatorAgent(name: string, strategy: Strategy, omniscient = false): Agent<DondObservation> {
  return {
    name,
    ...(omniscient ? { omniscient: true } : {}),
    act: (obs, _legal, ctx) => negotiate(strategy, obs, ctx),
  };
}
