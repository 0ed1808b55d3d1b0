/**
 * deal-or-no-deal-v1: the multi-issue bargaining game of Lewis et al. (2017) in two protocols —
 * `openspiel` (OpenSpiel's `bargaining`, exactly) and `dialogue` (FAIR's free-text protocol) —
 * with the objective reward_i = own_i + coop * other_i. See README.md.
 *
 * In the openspiel protocol `legalActions` is OpenSpiel's LegalActions (ids in OpenSpiel's
 * order, also in every seat observation as `legal`); in the dialogue protocol the action set is
 * open (free text), so `legalActions` answers null and validateAction + sampleAction apply.
 */
import type { ActionCheck, EnvDefinition, StepResult } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import { Rng, type Seed } from '../../src/core/rng';
import type { Visibility } from '../../src/core/visibility';
import { initDialogue, noAgreementAllowed, stepDialogue, validateDialogue, type DialogueAction } from './dialogue-protocol';
import { encoder } from './encoder';
import { DEFAULT_INSTANCES, generateInstance, parseInstanceLine, type Instance } from './instance';
import { canonicalProposal, DEAL_TEXT } from './messages';
import { render } from './render';
import { observe, type DondObservation } from './observe';
import { legalIds, OFFERS } from './offers';
import { initOpenSpiel, legalOpenSpiel, stepOpenSpiel, validateOpenSpiel } from './openspiel-protocol';
import { configOf, ENV_ID, maxLengthOf, PARAM_SCHEMA, utilityOf, type Config } from './config';
import { privateVariants } from './privacy';
import { dealOrNoDealPrompt } from './prompt';
import type { DondState } from './state';
import { aggregate, episodeSummary, ownScores } from './summary';

/** Config and fixed instance per resolved params object (params are reused across episodes). */
const SETUP = new WeakMap<Params, { cfg: Config; fixed: Instance | null }>();

function setupOf(params: Params): { cfg: Config; fixed: Instance | null } {
  let setup = SETUP.get(params);
  if (!setup) {
    const given = params.instance;
    let fixed: Instance | null = null;
    if (typeof given === 'number') fixed = DEFAULT_INSTANCES[given];
    else if (typeof given === 'string') {
      const parsed = parseInstanceLine(given);
      if (typeof parsed === 'string') throw new Error(`${ENV_ID}: param "instance" ${parsed}`);
      fixed = parsed;
    }
    setup = { cfg: configOf(params), fixed };
    SETUP.set(params, setup);
  }
  return setup;
}

const SEAT0: readonly number[] = Object.freeze([0]);
const SEAT1: readonly number[] = Object.freeze([1]);
const NOBODY: readonly number[] = Object.freeze([]);
const EMPTY: readonly number[] = Object.freeze([]);

/**
 * OpenSpiel's LegalActions for `seat` in the openspiel protocol (offer ids that fit the pool, then
 * 120 = Agree once an offer is on the table); empty when `seat` is not to act or in the dialogue
 * protocol (open action set). Shared frozen array: do not mutate.
 */
export function legalActionIds(state: DondState, seat: number): readonly number[] {
  return state.protocol === 'openspiel' ? legalOpenSpiel(state, seat) : EMPTY;
}

/** Mixes own scores into rewards: r_i = own_i + coop * own_{1-i}. */
export function mixRewards(own: readonly number[], coop: number): number[] {
  return [own[0] + coop * own[1], own[1] + coop * own[0]];
}

/** A random plausible action from a seat's observation (the random agent of this open action set). */
export function sampleAction(obs: DondObservation, rng: Rng): unknown {
  if (obs.protocol === 'openspiel') return obs.legal.length ? obs.legal[rng.int(obs.legal.length)] : 0;
  const offers = legalIds(obs.pool, false);
  if (obs.phase === 'talk') {
    const r = rng.next();
    if (r < 0.15) return { type: 'selection' };
    if (r < 0.35) return { type: 'message', text: DEAL_TEXT };
    return { type: 'message', text: canonicalProposal(offers[rng.int(offers.length)]) };
  }
  if (obs.noAgreementAllowed && rng.next() < 0.1) return { type: 'no-agreement' };
  return { type: 'choose', keep: [...OFFERS[offers[rng.int(offers.length)]]] };
}

/** The env definition (registered by envs/index.ts). */
export const dealOrNoDealEnv: EnvDefinition<DondState, unknown, DondObservation> = {
  meta: {
    id: ENV_ID,
    description:
      'Multi-issue bargaining (Lewis et al. 2017) over books, hats and balls with private values: OpenSpiel\'s bargaining protocol or FAIR\'s free-text dialogue; reward_i = own_i + coop * other_i.',
    roles: [{ name: 'negotiator', count: 2, description: 'proposes and accepts splits of the pool; knows only its own values' }],
    dynamics: 'sequential',
    chance: true,
    information: 'imperfect',
    utility: utilityOf,
    maxLength: maxLengthOf,
    params: PARAM_SCHEMA,
  },
  // A fixed `instance` names both private value vectors: spectators see that one is set, not which.
  publicParams: (params: Params) => (params.instance === undefined ? params : { ...params, instance: 'hidden' }),

  init(params: Params, seed: Seed): DondState {
    const { cfg, fixed } = setupOf(params);
    let rng: Rng | null = null;
    let inst = fixed;
    if (!inst) {
      rng = Rng.fromSeed(seed);
      inst = params.instances === 'default' ? DEFAULT_INSTANCES[rng.int(DEFAULT_INSTANCES.length)] : generateInstance(rng, params.instances === 'novel');
    }
    if (cfg.protocol === 'dialogue') return initDialogue(inst, cfg);
    return initOpenSpiel(inst, cfg, cfg.probEnd > 0 ? (rng ?? Rng.fromSeed(seed)).state() : null);
  },

  toAct(s: DondState): readonly number[] {
    return s.toAct === 0 ? SEAT0 : s.toAct === 1 ? SEAT1 : NOBODY;
  },

  legalActions(s: DondState, seat: number): readonly number[] | null {
    return s.protocol === 'openspiel' ? legalOpenSpiel(s, seat) : null;
  },

  validateAction(s: DondState, seat: number, action: unknown): ActionCheck {
    return s.protocol === 'openspiel' ? validateOpenSpiel(s, seat, action) : validateDialogue(s, seat, action);
  },

  step(s: DondState, actions: Record<number, unknown>): StepResult<DondState> {
    return s.protocol === 'openspiel' ? stepOpenSpiel(s, actions) : stepDialogue(s, actions);
  },

  isTerminal(s: DondState): boolean {
    return s.toAct < 0;
  },

  returns(s: DondState): number[] {
    return mixRewards(ownScores(s), s.cfg.coop);
  },

  outcome(s: DondState): string {
    return s.outcome;
  },

  observe,
  render,
  sampleAction,

  summary(s: DondState): JsonValue {
    return episodeSummary(s);
  },

  aggregate,

  actionVisibility(s: DondState, seat: number): Visibility {
    return s.protocol === 'dialogue' && s.phase === 'choose' ? { seat } : 'public';
  },

  defaultAction(s: DondState): unknown {
    if (s.protocol === 'openspiel') return 0;
    if (s.phase === 'talk') return { type: 'selection' } satisfies DialogueAction;
    return noAgreementAllowed(s) ? ({ type: 'no-agreement' } satisfies DialogueAction) : ({ type: 'choose', keep: [0, 0, 0] } satisfies DialogueAction);
  },

  privateVariants,
  encoder,
  prompt: dealOrNoDealPrompt,
};
