/**
 * Deal-or-No-Deal learning tasks (OpenSpiel protocol, 10 turns), trained on freshly generated
 * instances and evaluated on the default 1,000 instances minus every instance the training
 * ever drew (held out).
 *
 * - coop = 1: a self-play pair (one shared network) must reach ≥ 90% of the Pareto-optimal
 *   joint score (sum of joint scores / sum of the instances' best joint scores).
 * - coop = 0: one network trained against greedy, fair-split and itself must beat greedy and
 *   fair-split head-to-head in mean own score (each instance played from both seats).
 */
import { createRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import type { Env } from '../../src/core/env';
import { cpuSeconds, greedyFrom, playEpisodes, printReport, train, withFilteredInit, type TaskReport } from './common';

const ENV = 'deal-or-no-deal-v1';
const INSTANCES = 1000;

/** Held-out instances: every fifth of the 1,000 default ones (200); training never draws them. */
export const HELD_OUT = Array.from({ length: INSTANCES / 5 }, (_, i) => 5 * i);

/** The instance line of a state (from the public episode summary). */
function lineOf(env: Env, state: unknown): string {
  return (env.summary(state) as { instance: string }).instance;
}

/** deal-or-no-deal-v1 whose training draws skip the held-out instances. */
function trainingEnv(env: Env): Env {
  const held = new Set(HELD_OUT.map((i) => lineOf(env, env.init(env.resolveParams({ instance: i }), 0))));
  return withFilteredInit(env, (s) => held.has(lineOf(env, s)));
}

function agg(env: Env, summaries: JsonValue[]): Record<string, number> {
  return env.aggregate!(summaries) as Record<string, number>;
}

/** coop = 1: the trained pair's share of the Pareto-optimal joint score on held-out instances. */
export async function dondCoop(quick: boolean): Promise<TaskReport> {
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  const registry = createRegistry();
  const { env, params } = registry.make(ENV, { coop: 1, instances: 'generated' });
  const curve: Record<string, JsonValue>[] = [];
  const { trainer, metrics } = await train({
    env: trainingEnv(env),
    params,
    registry,
    roles: [['negotiator']],
    iterations: quick ? 3 : 240,
    cpuBudget: cpu0 + 780,
    config: { seed: 1, episodesPerIteration: 256, hidden: [256, 256], lr: 3e-4, actions: { negotiator: [[0, 120]] }, evalEvery: 0, entropyCoef: 0.01, rewardScale: 0.1 },
    onIteration: async (m, t) => {
      if (m.iteration % 40 !== 0 && !quick) return;
      const pair = greedyFrom(t, 'negotiator');
      const sample = HELD_OUT.slice(0, 100).map((i) => env.resolveParams({ coop: 1, instance: i }));
      const r = await playEpisodes(env, sample, () => [pair, pair]);
      const a = agg(env, r.summaries);
      curve.push({ iteration: m.iteration, sampledJoint: m.learners.negotiator.meanReturn.negotiator, greedyJointOfMax: a.jointOfMax });
      console.error(`iter ${m.iteration}: self-play joint ${m.learners.negotiator.meanReturn.negotiator.toFixed(2)}, greedy pair jointOfMax ${a.jointOfMax.toFixed(3)} (100 held-out instances)`);
    },
  });
  const list = HELD_OUT.map((i) => env.resolveParams({ coop: 1, instance: i }));
  const pair = greedyFrom(trainer, 'negotiator');
  const trained = agg(env, (await playEpisodes(env, list, () => [pair, pair])).summaries);
  const refs: Record<string, Record<string, number>> = {};
  for (const b of ['fair-split', 'greedy']) {
    const a0 = (await registry.createAgent(b, { env, params, seed: 0 })).agent;
    const a1 = (await registry.createAgent(b, { env, params, seed: 1 })).agent;
    refs[b] = agg(env, (await playEpisodes(env, list, () => [a0, a1])).summaries);
  }
  trainer.dispose();
  return {
    task: 'Deal-or-No-Deal coop=1: trained self-play pair on held-out instances',
    targets: [{ name: 'joint score / Pareto-optimal joint score', value: trained.jointOfMax, goal: '>= 0.90', pass: trained.jointOfMax >= 0.9 }],
    notes: [
      `held-out instances: ${HELD_OUT.length} of the 1,000 default ones (every fifth), never drawn in training (${metrics.length * 256} episodes on generated instances)`,
      `trained pair: agreement ${trained.agreementRate.toFixed(3)}, Pareto-optimal deals ${trained.paretoOfAll.toFixed(3)}, mean joint ${trained.meanJoint.toFixed(2)}`,
      `same instances, scripted pairs: fair-split ${refs['fair-split'].jointOfMax.toFixed(3)}, greedy ${refs.greedy.jointOfMax.toFixed(3)} of the optimal joint score`,
    ],
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: cpuSeconds() - cpu0,
    iterations: metrics.length,
    curve,
  };
}

/** Mean own scores of `learner` and `opponent` head-to-head on `list`, each instance from both seats. */
async function headToHead(env: Env, list: Params[], learner: Agent, opponent: Agent): Promise<{ mine: number; theirs: number; agreement: number }> {
  let mine = 0;
  let theirs = 0;
  let deals = 0;
  for (const seat of [0, 1]) {
    const r = await playEpisodes(env, list, () => (seat === 0 ? [learner, opponent] : [opponent, learner]), 7 + seat);
    r.summaries.forEach((s) => {
      const x = s as { scores: number[]; agreement: boolean };
      mine += x.scores[seat];
      theirs += x.scores[1 - seat];
      if (x.agreement) deals++;
    });
  }
  const n = 2 * list.length;
  return { mine: mine / n, theirs: theirs / n, agreement: deals / n };
}

/** coop = 0: the trained agent against greedy and fair-split, head-to-head. */
export async function dondCompete(quick: boolean): Promise<TaskReport> {
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  const registry = createRegistry();
  const { env, params } = registry.make(ENV, { coop: 0, instances: 'generated' });
  const curve: Record<string, JsonValue>[] = [];
  const baselines = ['greedy', 'fair-split'];
  const opp = async (b: string, seed: number) => (await registry.createAgent(b, { env, params, seed })).agent;
  const probe = HELD_OUT.slice(100).map((i) => env.resolveParams({ coop: 0, instance: i }));
  const { trainer, metrics } = await train({
    env: trainingEnv(env),
    params,
    registry,
    roles: [['negotiator']],
    opponents: ['baselines', 'baselines', 'self'],
    iterations: quick ? 3 : 1000,
    cpuBudget: cpu0 + 780,
    config: { seed: 2, episodesPerIteration: 256, hidden: [256, 256], lr: 3e-4, actions: { negotiator: [[0, 120]] }, evalEvery: 0, entropyCoef: 0.01, rewardScale: 0.1, baselines },
    onIteration: async (m, t) => {
      if (m.iteration % 100 !== 0 && !quick) return;
      const me = greedyFrom(t, 'negotiator');
      const point: Record<string, JsonValue> = { iteration: m.iteration };
      for (const b of baselines) {
        const h = await headToHead(env, probe, me, await opp(b, 3));
        point[b] = { mine: h.mine, theirs: h.theirs };
      }
      curve.push(point);
      console.error(`iter ${m.iteration}: ${JSON.stringify(point)}`);
    },
  });
  const list = HELD_OUT.map((i) => env.resolveParams({ coop: 0, instance: i }));
  const me = greedyFrom(trainer, 'negotiator');
  const targets: TaskReport['targets'] = [];
  const notes: string[] = [`held-out instances: ${HELD_OUT.length} of the 1,000 default ones (every fifth, never drawn in training), each played from both seats`];
  for (const b of baselines) {
    const h = await headToHead(env, list, me, await opp(b, 5));
    targets.push({ name: `mean score vs ${b} (trained minus ${b})`, value: h.mine - h.theirs, goal: '> 0', pass: h.mine > h.theirs });
    notes.push(`vs ${b}: trained ${h.mine.toFixed(2)}, ${b} ${h.theirs.toFixed(2)}, agreement ${h.agreement.toFixed(3)}`);
  }
  const ref = await headToHead(env, list, await opp('greedy', 8), await opp('fair-split', 9));
  notes.push(`reference, same instances: greedy ${ref.mine.toFixed(2)} vs fair-split ${ref.theirs.toFixed(2)}`);
  trainer.dispose();
  return {
    task: 'Deal-or-No-Deal coop=0: trained agent head-to-head on held-out instances',
    targets,
    notes,
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: cpuSeconds() - cpu0,
    iterations: metrics.length,
    curve,
  };
}

export { printReport };
