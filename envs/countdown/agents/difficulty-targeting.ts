/**
 * `difficulty-targeting` for countdown-v1 (challenger): aims its puzzles at a ~50% solve rate,
 * where its reward 1 − |2p − 1| is highest.
 *
 * Each episode it draws `candidates` solvable in-contract puzzles (as `random-valid` does)
 * and describes each by the exact solver's difficulty measures: search effort
 * (log2 of the solver's node count) and how many numbers the solver's expression needs. A
 * logistic model p̂ = σ(w · [1, log2(nodes) / 10, numbers / 6]) predicts the solver's success
 * rate; it proposes the candidate with p̂ closest to `aim` (a random one with probability
 * `explore`). After the episode it recovers p, the fraction of attempts solved, from the
 * returns and takes one gradient step of the logistic loss toward it. The model lives in the
 * agent, so it learns across the episodes of a run.
 *
 * Recovering p: the challenger's return r = 1 − |2p − 1| gives p = (1 ± (1 − r)) / 2; the
 * solver's mean score m decides the sign — the upper root only when m / maxScore is at least
 * that root (a solver solving a fraction p scores at least p · maxScore). This is exact
 * except when partial credit (uk near misses) lifts m above the upper root for a puzzle solved
 * less than half the time.
 *
 * Options (`difficulty-targeting:{"aim":0.5,"candidates":12,"explore":0.1,"rate":0.5,"answer":"text"}`;
 * `answer: "steps"` composes the puzzle by index).
 */
import type { Agent, AgentFactory } from '../../../src/core/agent';
import { maxScore, type Rules } from '../scoring';
import type { CountdownAction, CountdownObservation, Proposal } from '../types';
import { ANSWER_OPTION, COUNTDOWN, formOption, proposalAction, solvablePuzzle, type Candidate } from './common';

/** Model state of a difficulty-targeting agent (exposed for tests and reports). */
export interface DifficultyModel {
  weights: number[];
  /** Recent recovered solve rates (last 50). */
  recent: number[];
}

function features(c: Candidate): number[] {
  return [1, Math.log2(1 + c.nodes) / 10, c.tiles / 6];
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** Predicted solve rate of a candidate under the model. */
export function predictRate(model: DifficultyModel, c: Candidate): number {
  const f = features(c);
  return sigmoid(f.reduce((s, x, i) => s + x * model.weights[i], 0));
}

/** The fraction of attempts solved, recovered from the returns (null for an unsolvable puzzle). */
export function recoverRate(challengerReturn: number, solverReturn: number, rules: Rules): number | null {
  if (challengerReturn <= -1) return null;
  const u = Math.min(1, Math.max(0, 1 - challengerReturn));
  const hi = (1 + u) / 2;
  return solverReturn / maxScore(rules) >= hi - 1e-9 ? hi : (1 - u) / 2;
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

export const difficultyTargetingAgent: AgentFactory = {
  name: 'difficulty-targeting',
  description: 'countdown challenger: learns solver success vs. puzzle difficulty from recent outcomes and aims at ~50%',
  envs: [COUNTDOWN],
  roles: ['challenger'],
  options: {
    aim: { type: 'number', min: 0, max: 1, default: 0.5, description: 'target solve rate' },
    candidates: { type: 'integer', min: 1, max: 1000, default: 12, description: 'puzzles considered per proposal' },
    explore: { type: 'number', min: 0, max: 1, default: 0.1, description: 'probability of a random candidate' },
    rate: { type: 'number', min: 0, max: 1, default: 0.5, description: 'learning rate of the difficulty model' },
    answer: ANSWER_OPTION,
  },
  create({ options }): Agent<CountdownObservation, CountdownAction> & { model: DifficultyModel } {
    const aim = num(options?.aim, 0.5);
    const count = Math.max(1, Math.round(num(options?.candidates, 12)));
    const explore = num(options?.explore, 0.1);
    const rate = num(options?.rate, 0.5);
    const form = formOption('difficulty-targeting', options);
    const model: DifficultyModel = { weights: [0, 0, 0], recent: [] };
    let chosen: Candidate | null = null;
    let plan: Proposal | null = null;
    let rules: Rules = 'uk';
    return {
      name: 'difficulty-targeting',
      model,
      start() {
        plan = null;
        chosen = null;
      },
      act(o, _legal, ctx) {
        if (o.role !== 'challenger') throw new Error(`difficulty-targeting plays the challenger role only (asked to play ${o.role})`);
        if (!plan) {
          rules = o.rules;
          const pool = Array.from({ length: count }, () => solvablePuzzle(o.rules, o.contract, ctx.rng, 20));
          if (ctx.rng.next() < explore) chosen = ctx.rng.pick(pool);
          else {
            chosen = pool[0];
            for (const c of pool) if (Math.abs(predictRate(model, c) - aim) < Math.abs(predictRate(model, chosen) - aim)) chosen = c;
          }
          plan = { numbers: chosen.numbers, target: chosen.target };
        }
        return proposalAction(o, plan, form);
      },
      end(returns, ctx) {
        const solverSeat = ctx.seat + 1;
        if (!chosen || returns[solverSeat] === undefined) return;
        const p = recoverRate(returns[ctx.seat], returns[solverSeat], rules);
        if (p === null) return;
        const f = features(chosen);
        const err = p - predictRate(model, chosen);
        for (let i = 0; i < f.length; i++) model.weights[i] += rate * err * f[i];
        model.recent.push(p);
        if (model.recent.length > 50) model.recent.shift();
      },
    };
  },
};
