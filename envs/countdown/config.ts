/**
 * Parameters of countdown-v1 and the resolved episode configuration kept in the state.
 */
import type { JsonValue } from '../../src/core/json';
import { ParamError, type ParamSchema, type Params } from '../../src/core/params';
import { MAX_TARGET, MAX_VALUE, SLOTS } from './actions';
import { contractProblem, resolveContract, type Contract } from './contract';
import type { Rules } from './scoring';

export const ENV_ID = 'countdown-v1';

/** Which seats an episode has (seats are numbered in this order). */
export type RoleSetup = 'solver' | 'solver-evaluator' | 'challenger-solver' | 'challenger-solver-evaluator';
export type Role = 'challenger' | 'solver' | 'evaluator';

/** The resolved configuration of one episode (plain JSON, part of the state). */
export interface Config {
  rules: Rules;
  roles: RoleSetup;
  /** K: solver attempts per puzzle. */
  attempts: number;
  answerTag: boolean;
  contract: Contract;
  /** The role of each seat. */
  seats: Role[];
  /** Puzzle parts fixed by params (solver-only setups). */
  numbers: number[] | null;
  target: number | null;
  large: number | null;
}

const ROLE_SETUPS: readonly RoleSetup[] = ['solver', 'solver-evaluator', 'challenger-solver', 'challenger-solver-evaluator'];
/** Most attempts per puzzle. */
export const MAX_ATTEMPTS = 32;

function numbersProblem(v: JsonValue): string | null {
  if (!Array.isArray(v) || v.length < 2 || v.length > SLOTS || !v.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= MAX_VALUE)) {
    return `must be an array of 2 to ${SLOTS} integers in [1, ${MAX_VALUE}] (got ${JSON.stringify(v)})`;
  }
  return null;
}

/** The parameter schema (defaults that depend on `rules` or `roles` are filled by {@link resolveConfig}). */
export const PARAMS: ParamSchema = {
  rules: {
    type: 'enum',
    values: ['uk', 'tinyzero', 'reasoning-gym'],
    default: 'uk',
    description: 'scoring and arithmetic: uk (TV rules, 10/7/5 points), tinyzero (1 / 0.1 format score), reasoning-gym (1 / 0.05 / 0.01)',
  },
  roles: {
    type: 'enum',
    values: ROLE_SETUPS,
    default: 'solver',
    description: 'seats: solver; solver-evaluator; challenger-solver; challenger-solver-evaluator (seat order as named)',
  },
  attempts: {
    type: 'integer',
    min: 1,
    max: MAX_ATTEMPTS,
    description: 'K independent solver attempts per puzzle (default 8 with a challenger, else 1)',
  },
  answerTag: { type: 'boolean', default: false, description: 'take a text answer from the last <answer>…</answer> in the text' },
  numbers: { type: 'json', check: numbersProblem, description: `the puzzle's numbers (2-${SLOTS} integers in 1-${MAX_VALUE}); default: drawn` },
  target: { type: 'integer', min: 1, max: MAX_TARGET, description: 'the target; default: drawn' },
  contract: {
    type: 'json',
    check: contractProblem,
    description: 'puzzle contract overrides {"count":[lo,hi],"values":[lo,hi]|"tiles","target":[lo,hi]}; defaults per rules',
  },
  large: { type: 'integer', min: 0, max: 4, description: 'uk draw: number of large tiles (default uniform 0-4)' },
};

/** Resolved params -> episode configuration. Throws ParamError for combinations the schema cannot express. */
export function resolveConfig(params: Params): Config {
  const rules = params.rules as Rules;
  const roles = params.roles as RoleSetup;
  const challenger = roles.startsWith('challenger');
  if (challenger && (params.numbers !== undefined || params.target !== undefined)) {
    throw new ParamError(ENV_ID, params.numbers !== undefined ? 'numbers' : 'target', `cannot be given with roles "${roles}" (the challenger proposes the puzzle)`);
  }
  const seats: Role[] = [...(challenger ? (['challenger'] as const) : []), 'solver', ...(roles.endsWith('evaluator') ? (['evaluator'] as const) : [])];
  return {
    rules,
    roles,
    attempts: (params.attempts as number | undefined) ?? (challenger ? 8 : 1),
    answerTag: params.answerTag as boolean,
    contract: resolveContract(rules, params.contract),
    seats,
    numbers: (params.numbers as number[] | undefined) ?? null,
    target: (params.target as number | undefined) ?? null,
    large: (params.large as number | undefined) ?? null,
  };
}

/** Upper bound on steps: challenger (≤ 7 decisions), K attempts (≤ 5 decisions each), K predictions. */
export function maxLength(params: Params): number {
  const k = (params.attempts as number | undefined) ?? 8;
  return SLOTS + 1 + k * SLOTS + k;
}

/** Seat of a role in this episode, or -1. */
export function seatOf(cfg: Config, role: Role): number {
  return cfg.seats.indexOf(role);
}
