/**
 * Parameters of deal-or-no-deal-v1, their schema, and the per-episode config kept in State.
 * Names follow OpenSpiel's `bargaining` where they mean the same thing (max_turns, discount, prob_end).
 */
import type { Utility } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import { ParamError, type ParamSchema, type Params } from '../../src/core/params';
import { DEFAULT_INSTANCES, parseInstanceLine } from './instance';

/** The env id. */
export const ENV_ID = 'deal-or-no-deal-v1';

/** `openspiel`: OpenSpiel's bargaining game exactly; `dialogue`: FAIR's free-text protocol. */
export type Protocol = 'openspiel' | 'dialogue';

function checkInstanceParam(value: JsonValue): string | null {
  const n = DEFAULT_INSTANCES.length;
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 && value < n ? null : `must be an index 0..${n - 1} into the default instance set, or a line like "1,2,3 8,1,0 4,0,2" (got ${JSON.stringify(value)})`;
  }
  if (typeof value === 'string') {
    const parsed = parseInstanceLine(value);
    return typeof parsed === 'string' ? `${parsed} (got ${JSON.stringify(value)})` : null;
  }
  return `must be an index 0..${n - 1} into the default instance set, or a line like "1,2,3 8,1,0 4,0,2" (got ${JSON.stringify(value)})`;
}

/** The parameter schema (defaults = OpenSpiel's bargaining defaults, self-interested objective). */
export const PARAM_SCHEMA: ParamSchema = {
  protocol: {
    type: 'enum',
    values: ['openspiel', 'dialogue'],
    default: 'openspiel',
    description: 'openspiel: OpenSpiel bargaining (offer ids 0..119, 120 = Agree); dialogue: free-text talk, then private selections',
  },
  instance: {
    type: 'json',
    description: 'a fixed instance: an index 0..999 into the default set, or a line "pool p0values p1values"; absent = drawn from the seed',
    check: checkInstanceParam,
  },
  instances: {
    type: 'enum',
    values: ['default', 'generated', 'novel'],
    default: 'default',
    description:
      'where drawn instances come from: OpenSpiel\'s 1,000 default instances; "generated": any valid instance; "novel": valid instances outside the default set (train on these, hold out the default set)',
  },
  max_turns: {
    type: 'integer',
    min: 1,
    max: 100,
    default: 10,
    description: 'openspiel: offers before the game ends without agreement; dialogue: messages before the selection (no-agreement allowed then)',
  },
  discount: { type: 'number', min: 0, max: 1, default: 1, description: 'openspiel only: returns multiplied by this for every action from the third on' },
  prob_end: { type: 'number', min: 0, max: 1, default: 0, description: 'openspiel only: chance of the game ending after each offer from the second on' },
  coop: {
    type: 'number',
    min: -1,
    max: 1,
    default: 0,
    description: 'objective alpha: reward_i = own_i + alpha * other_i (1 cooperative, 0 self-interested, -1 zero-sum)',
  },
};

/** Resolved per-episode settings, shared (by reference) by every state of an episode. */
export interface Config {
  protocol: Protocol;
  maxTurns: number;
  discount: number;
  probEnd: number;
  coop: number;
}

/** Config from resolved params; throws ParamError for settings that do not apply to the protocol. */
export function configOf(params: Params): Config {
  const protocol = params.protocol as Protocol;
  const cfg: Config = {
    protocol,
    maxTurns: params.max_turns as number,
    discount: params.discount as number,
    probEnd: params.prob_end as number,
    coop: params.coop as number,
  };
  if (protocol === 'dialogue') {
    if (cfg.discount !== 1) throw new ParamError(ENV_ID, 'discount', `applies only to protocol "openspiel" (must be 1 for "dialogue", got ${cfg.discount})`);
    if (cfg.probEnd !== 0) throw new ParamError(ENV_ID, 'prob_end', `applies only to protocol "openspiel" (must be 0 for "dialogue", got ${cfg.probEnd})`);
  }
  return cfg;
}

/**
 * Utility class for these params. Returns are r_i = own_i + alpha * other_i, so r_0 + r_1 =
 * (1 + alpha)(own_0 + own_1). That sum is constant over episodes only when alpha = -1 (it is
 * then 0: zero-sum); for every other alpha it varies with the deal (0 without one), so the game
 * is general-sum, including alpha = 1 (both get the joint welfare: identical interests).
 */
export function utilityOf(params: Params): Utility {
  return params.coop === -1 ? 'zero-sum' : 'general-sum';
}

/** Upper bound on steps: openspiel max_turns actions; dialogue max_turns messages + selection move + two choices. */
export function maxLengthOf(params: Params): number {
  const turns = params.max_turns as number;
  return params.protocol === 'dialogue' ? turns + 2 : turns;
}
