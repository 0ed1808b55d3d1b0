import type { AgentFactory } from '../../../src/core/agent';
import { nashSplit } from '../analysis';
import { formatLine, type Instance } from '../instance';
import { offerId, OFFERS, restOf, valueOf } from '../offers';
import { ENV_ID } from '../config';
import { negotiatorAgent, type NegotiationView, type Strategy } from './negotiator';

function instanceOf(v: NegotiationView): Instance {
  const values = v.seat === 0 ? [[...v.values], [...v.partnerValues!]] : [[...v.partnerValues!], [...v.values]];
  return { pool: [...v.pool], values, line: formatLine(v.pool, values), index: null };
}

/** My share in the Nash bargaining split of this instance under the coop objective. */
function nashShare(v: NegotiationView): readonly number[] {
  const keep0 = OFFERS[nashSplit(instanceOf(v), v.coop)];
  return v.seat === 0 ? keep0 : restOf(v.pool, keep0);
}

/** My utility under the coop objective when I get `share` and the partner the rest. */
function utility(v: NegotiationView, share: readonly number[]): number {
  return valueOf(v.values, share) + v.coop * valueOf(v.partnerValues!, restOf(v.pool, share));
}

/**
 * The Nash-split strategy: propose my share of the Nash bargaining split (both value vectors
 * known); accept any share I value at least as much under the objective, and, when rejecting
 * would end the game without a deal (openspiel's last offer), any share better than no deal.
 */
export const nashStrategy: Strategy = {
  propose: (v) => offerId(nashShare(v)),
  accept: (v, share) => {
    const u = utility(v, share);
    return u >= utility(v, nashShare(v)) - 1e-9 || (v.lastChance && u > 0);
  },
};

/**
 * `nash-oracle`: omniscient (sees both value vectors) and plays the Nash bargaining split
 * (maximizing the product of the two players' objectives over all splits). For evaluation only:
 * `rated: false`, so leagues must refuse it as a rated seat.
 */
export const nashOracleAgent: AgentFactory = {
  name: 'nash-oracle',
  description: 'OMNISCIENT, evaluation only: proposes and accepts the Nash bargaining split given both value vectors',
  envs: [ENV_ID],
  rated: false,
  options: {},
  create: () => negotiatorAgent('nash-oracle', nashStrategy, true),
};
