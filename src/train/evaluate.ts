/**
 * Evaluation of a learner against fixed opponents: a fixed set of held-out episode seeds (the
 * same at every evaluation, disjoint from training seeds by their derivation label), the
 * learner on its side of the table (greedy or sampled), every other seat played by the
 * baseline. Reports mean return per role, win rate, outcomes and the env's own aggregate.
 */
import type { Agent } from '../core/agent';
import type { Env, SeatInfo } from '../core/env';
import type { JsonValue } from '../core/json';
import type { Params } from '../core/params';
import { Rng, deriveSeed } from '../core/rng';
import { runMatch } from '../match/runner';
import { emptyTally, summarizeTally, tallyEpisode } from './episode-stats';
import { planSeats, sideOf, type PlanContext, type SeatPolicy } from './seat-plan';

/** Result of one learner against one opponent. */
export interface EvalResult {
  episodes: number;
  meanReturn: Record<string, number>;
  /** Null when the learner had no opponents (single-agent envs). */
  winRate: number | null;
  outcomes: Record<string, number>;
  /** env.aggregate over the episode summaries, when the env defines it. */
  env?: { [key: string]: JsonValue };
}

/** What evaluation needs: the env, and how to seat the learner and the opponents. */
export interface EvalSetup<L extends SeatPolicy> {
  env: Env;
  params: Params;
  seed: number;
  episodes: number;
  /** Learner agent for a seat in evaluation episode k (greedy or sampled). */
  learnerAgent(learner: L, seat: number, k: number): Agent;
  /** The rest of the plan context (fixed and default agents). */
  ctx: Omit<PlanContext<L>, 'learnerAgent' | 'training'>;
}

/** The held-out seed of evaluation episode k. */
export function evalSeed(seed: number, k: number): number {
  return deriveSeed(seed, 'eval', k);
}

/** True when, in a sample episode, every seat is on the learner's side (no opponent to vary). */
export function isSolo<L extends SeatPolicy>(seats: readonly SeatInfo[], learner: L): boolean {
  const focus = seats.findIndex((s) => learner.roles.includes(s.role));
  if (focus < 0) return false;
  return sideOf(seats, focus, learner).length === seats.length;
}

/**
 * Plays `setup.episodes` evaluation episodes of `learner` against `opponent`: an agent spec,
 * or "self" (the learners play every seat of their roles: self-play, e.g. a cooperative pair).
 */
export async function evaluate<L extends SeatPolicy>(setup: EvalSetup<L>, learner: L, opponent: string): Promise<EvalResult> {
  const { env, params } = setup;
  const tally = emptyTally();
  const outcomes: Record<string, number> = {};
  const summaries: JsonValue[] = [];
  for (let k = 0; k < setup.episodes; k++) {
    const ctx: PlanContext<L> = {
      ...setup.ctx,
      training: () => false,
      learnerAgent: (l, seat) => setup.learnerAgent(l, seat, k),
    };
    let mine: number[] = [];
    let label = opponent;
    const result = await runMatch({
      env,
      params,
      seed: evalSeed(setup.seed, k),
      matchId: `eval:${k}`,
      agents: (seats) => {
        const rng = Rng.fromSeed(deriveSeed(setup.seed, 'eval-plan', k));
        const plan =
          opponent === 'self'
            ? planSeats('self', seats, k, ctx, rng, { record: false })
            : planSeats('baselines', seats, k, ctx, rng, { opponent, only: learner, record: false });
        mine = [...plan.learnerSeats.keys()];
        label = plan.label;
        return plan.agents;
      },
    });
    tallyEpisode(tally, mine, result.returns, result.seats, label);
    outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
    summaries.push(result.summary);
  }
  const s = summarizeTally(tally);
  const rates = Object.values(s.winRate);
  const out: EvalResult = { episodes: setup.episodes, meanReturn: s.meanReturn, winRate: rates.length ? rates[0] : null, outcomes };
  if (env.aggregate) out.env = env.aggregate(summaries);
  return out;
}

/**
 * Every learner against every baseline (once, labelled "solo", when it has no opponents); learners
 * whose roles have no seat with these params are left out.
 */
export async function evaluateLearners<L extends SeatPolicy & { id: string }>(setup: EvalSetup<L>, learners: readonly L[], baselines: readonly string[]): Promise<Record<string, Record<string, EvalResult>>> {
  const seats = setup.env.seats(setup.env.init(setup.params, 0));
  const out: Record<string, Record<string, EvalResult>> = {};
  for (const e of learners) {
    if (!seats.some((s) => e.roles.includes(s.role))) continue;
    out[e.id] = {};
    if (isSolo(seats, e)) out[e.id].solo = await evaluate(setup, e, 'self');
    else for (const b of baselines) out[e.id][b] = await evaluate(setup, e, b);
  }
  return out;
}
