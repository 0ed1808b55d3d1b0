/**
 * Random actions (`sampleAction`, used by the generic `random` agent and the conformance
 * kit's playouts) and the fault policy's default actions. Both use the index form, so random
 * play is "random legal steps" for every seat.
 */
import type { Rng } from '../../src/core/rng';
import { PREDICT_WRONG, STOP } from './actions';
import { legalIndices } from './observe';
import type { CountdownAction, CountdownObservation, CountdownState } from './types';

/** The env's sampleAction: a uniformly random legal index from the acting seat's observation. */
export function sampleAction(o: CountdownObservation, rng: Rng): CountdownAction {
  return o.legal && o.legal.length ? rng.pick(o.legal) : STOP;
}

/** The fault policy's default action: stop for the solver, "wrong" for the evaluator, the first legal index for the challenger. */
export function defaultAction(state: CountdownState): CountdownAction {
  return state.phase === 'solve' ? STOP : state.phase === 'evaluate' ? PREDICT_WRONG : legalIndices(state)[0];
}
