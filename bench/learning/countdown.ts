/**
 * Countdown learning tasks (tinyzero arithmetic: all four numbers used, + − × ÷, numbers 1–99,
 * target 1–99; step actions, one attempt, no search).
 *
 * - solver: trained with GRPO (8 episodes per puzzle form a group) on solvable 4-number puzzles,
 *   never on the 1,000 held-out ones; target: solves ≥ 50% of the held-out puzzles greedily.
 *
 * Co-evolution of a challenger and this solver runs through the league: countdown-coevolution.ts.
 */
import { createRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import { deriveSeed } from '../../src/core/rng';
import type { Rules } from '../../envs/countdown/scoring';
import type { TrainConfigInput } from '../../src/train/config';
import { stepSolutions } from '../../envs/countdown/step-solutions';
import { cpuSeconds, createTrainer, greedyFrom, playEpisodes, policyFrom, train, withFilteredInit, type TaskReport } from './common';

const ENV = 'countdown-v1';
const BASE = { rules: process.env.COUNTDOWN_RULES ?? 'tinyzero', contract: { count: 4 } };

interface PuzzleSummary {
  numbers: number[] | null;
  target: number | null;
  verdict: { reachable: boolean; nodes: number } | null;
  solved: number;
}

const summaryOf = (env: Env, s: unknown) => env.summary(s) as unknown as PuzzleSummary;
const keyOf = (p: PuzzleSummary) => `${[...(p.numbers ?? [])].sort((a, b) => a - b).join(',')}=${p.target}`;

/** Mean solve rate of `solver` on `list` (one attempt each). */
async function solveRate(env: Env, list: Params[], solver: Agent): Promise<number> {
  const r = await playEpisodes(env, list, () => [solver], 3);
  return r.summaries.reduce((s: number, x) => s + (x as unknown as PuzzleSummary).solved, 0) / list.length;
}

/** The first `n` solvable puzzles the generator deals from seeds derived from `tag`. */
function solvablePuzzles(env: Env, params: Params, n: number, tag: string): PuzzleSummary[] {
  const out: PuzzleSummary[] = [];
  for (let k = 0; out.length < n; k++) {
    const p = summaryOf(env, env.init(params, deriveSeed(4242, tag, k)));
    if (p.verdict?.reachable) out.push(p);
  }
  return out;
}

/** Params that pose the puzzle `p` under BASE. */
const posing = (env: Env, p: PuzzleSummary): Params => env.resolveParams({ ...BASE, numbers: p.numbers, target: p.target });

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** Mean of the numeric values of `key` over curve points (NaN when none). */
const meanOf = (points: readonly Record<string, JsonValue>[], key: string): number =>
  mean(points.map((p) => p[key]).filter((x): x is number => typeof x === 'number'));

export async function countdownSolver(quick: boolean): Promise<TaskReport> {
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  const registry = createRegistry();
  const { env, params } = registry.make(ENV, BASE);
  const held = solvablePuzzles(env, params, 1000, 'heldout');
  const heldKeys = new Set(held.map(keyOf));
  const heldParams = held.map((p) => posing(env, p));
  const trainingEnv = withFilteredInit(env, (s) => {
    const p = summaryOf(env, s);
    return !p.verdict?.reachable || heldKeys.has(keyOf(p));
  });
  const curve: Record<string, JsonValue>[] = [];
  const { trainer, metrics } = await train({
    env: trainingEnv,
    params,
    registry,
    roles: [['solver']],
    iterations: quick ? 3 : 800,
    cpuBudget: cpu0 + 800,
    config: {
      algorithm: 'grpo',
      seed: 3,
      groupSize: 8,
      episodesPerIteration: 512,
      epochs: 2,
      minibatchSize: 512,
      hidden: [256, 256],
      lr: 5e-4,
      entropyCoef: 0.001,
      rewardScale: BASE.rules === 'uk' ? 0.1 : 1,
      actions: { solver: [[0, 90]] },
      evalEvery: 0,
    },
    onIteration: async (m, t) => {
      if (m.iteration % 50 !== 0 && !quick) return;
      const rate = await solveRate(env, heldParams.slice(0, 200), greedyFrom(t, 'solver'));
      curve.push({ iteration: m.iteration, trainingSolveRate: (m.envStats?.solveRate as number) ?? null, heldOutSolveRate: rate });
      console.error(`iter ${m.iteration}: training success ${String(m.envStats?.solveRate)}, held-out greedy ${rate.toFixed(3)} (200 puzzles)`);
    },
  });
  const trained = await solveRate(env, heldParams, greedyFrom(trainer, 'solver'));
  const refs: Record<string, number> = {};
  for (const b of ['greedy', 'random']) refs[b] = await solveRate(env, heldParams, (await registry.createAgent(b, { env, params, seed: 1 })).agent);
  trainer.dispose();
  return {
    task: 'Countdown step-action solver: held-out solvable 4-number puzzles, one attempt',
    targets: [{ name: 'held-out solve rate (greedy policy, one attempt)', value: trained, goal: '>= 0.50', pass: trained >= 0.5 }],
    notes: [
      '1,000 held-out solvable puzzles (tinyzero rules: all numbers used, numbers 1-99, target 1-99), never drawn in training',
      `same puzzles: greedy baseline ${refs.greedy.toFixed(3)}, random ${refs.random.toFixed(3)}`,
      `${metrics.length} iterations x 512 episodes`,
    ],
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: cpuSeconds() - cpu0,
    iterations: metrics.length,
    curve,
  };
}
