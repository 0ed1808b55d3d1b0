/**
 * Werewolf (`arena` preset) learning task, in two phases:
 *
 * 1. The villager team (villager + seer + doctor: one network with a role input) trains by
 *    self-play against `random` werewolves. Target: it wins at least as often as the
 *    `rule-based` villagers do against `random` werewolves (same held-out seeds).
 * 2. The werewolves train against the frozen trained villagers (loaded from phase 1's
 *    checkpoint through the `neural` agent). Target: they win it back — more often than random
 *    werewolves do against the same villagers, and more than half of the games.
 *
 * Trained policies are evaluated with greedy (argmax) play, as in the other tasks and as the
 * `neural` agent plays by default; play that samples from the policy is reported beside it.
 * The villagers' win rate fluctuates by several points between iterations, so every 20
 * iterations the policy is scored on 200 validation games (seeds disjoint from the test games)
 * and the best one is kept (model selection).
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { createRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { Env, SeatInfo } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import type { Registry } from '../../src/core/registry';
import { cloneWeights, type MlpWeights } from '../../src/train/mlp';
import { checkpointFile } from '../../src/train/run-state';
import { cpuSeconds, greedyFrom, playEpisodes, policyFrom, train, type TaskReport } from './common';

const ENV = 'werewolf-v1';
const TOWN = ['villager', 'seer', 'doctor'];

/** Seeds of the held-out test games and of the validation games (model selection). */
const TEST_SEED = 99;
const VALIDATION_SEED = 123;

/** Win rate of the werewolves over `games` games (test seeds unless given) with role-based agents. */
async function wolfWinRate(env: Env, params: Params, games: number, agentFor: (role: string, seat: number) => Agent, seed = TEST_SEED): Promise<number> {
  const list = Array.from({ length: games }, () => params);
  const r = await playEpisodes(env, list, (_k, seats: readonly SeatInfo[]) => seats.map((s, i) => agentFor(s.role, i)), seed);
  let wolves = 0;
  r.summaries.forEach((_s, k) => {
    const ret = r.returns[k];
    const w = r.seats[k].findIndex((s) => s.role === 'werewolf');
    if (ret[w] > 0) wolves++;
  });
  return wolves / games;
}

async function agentsOf(registry: Registry, env: Env, params: Params, spec: string, seats: number): Promise<Agent[]> {
  const out: Agent[] = [];
  for (let i = 0; i < seats; i++) out.push((await registry.createAgent(spec, { env, params, seed: 1000 + i })).agent);
  return out;
}

export async function werewolfTask(quick: boolean): Promise<TaskReport> {
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  const registry = createRegistry();
  const { env, params } = registry.make(ENV, { preset: 'arena' });
  const seats = env.seats(env.init(params, 0)).length;
  const evalGames = quick ? 20 : 500;
  const random = await agentsOf(registry, env, params, 'random', seats);
  const rule = await agentsOf(registry, env, params, 'rule-based', seats);
  const refRule = 1 - (await wolfWinRate(env, params, evalGames, (role, i) => (role === 'werewolf' ? random[i] : rule[i])));
  const refRandom = 1 - (await wolfWinRate(env, params, evalGames, (_role, i) => random[i]));
  console.error(`reference vs random wolves: rule-based villagers win ${refRule.toFixed(3)}, random villagers ${refRandom.toFixed(3)}`);
  const out = mkdtempSync(join(tmpdir(), 'arena-werewolf-'));
  const curve: Record<string, JsonValue>[] = [];
  const common = { hidden: [128, 128], lr: 1e-3, entropyCoef: 0.01, evalEvery: 0, minibatchSize: 512, episodesPerIteration: 64, checkpointEvery: 100000 };
  // Phase 1: villagers.
  let best = { win: -1, iteration: 0, weights: null as MlpWeights | null };
  const p1 = await train({
    env,
    params,
    registry,
    roles: [TOWN],
    iterations: quick ? 2 : 400,
    cpuBudget: cpu0 + 640,
    outDir: join(out, 'villagers'),
    config: { ...common, seed: 11, roleAgents: { werewolf: 'random' } },
    onIteration: async (m, t) => {
      if (m.iteration % 20 !== 0 && !quick) return;
      const town = greedyFrom(t, TOWN.join('+'));
      const win = 1 - (await wolfWinRate(env, params, quick ? 10 : 200, (role, i) => (role === 'werewolf' ? random[i] : town), VALIDATION_SEED));
      if (win > best.win) best = { win, iteration: m.iteration, weights: cloneWeights(t.entries[0].learner.weights) };
      curve.push({ phase: 'villagers', iteration: m.iteration, villagerWinRate: win });
      console.error(`villagers iter ${m.iteration}: win ${win.toFixed(3)} vs random wolves (200 validation games), ${cpuSeconds().toFixed(0)} s CPU`);
    },
  });
  if (best.weights) p1.trainer.entries[0].learner.restore(best.weights, undefined);
  p1.trainer.saveCheckpoints();
  const town = greedyFrom(p1.trainer, TOWN.join('+'));
  const villagersWin = 1 - (await wolfWinRate(env, params, evalGames, (role, i) => (role === 'werewolf' ? random[i] : town)));
  const townSampled = policyFrom(p1.trainer, TOWN.join('+'), 7);
  const villagersWinSampled = 1 - (await wolfWinRate(env, params, evalGames, (role, i) => (role === 'werewolf' ? random[i] : townSampled)));
  const townCkpt = checkpointFile(join(out, 'villagers'), TOWN.join('+'), 'latest');
  const iters1 = p1.trainer.iteration;
  p1.trainer.dispose();
  // Phase 2: wolves against the frozen trained villagers.
  const neural = `neural:${JSON.stringify({ checkpoint: townCkpt })}`;
  const p2 = await train({
    env,
    params,
    registry,
    roles: [['werewolf']],
    iterations: quick ? 2 : 60,
    cpuBudget: cpu0 + 840,
    config: { ...common, seed: 12, roleAgents: { villager: neural, seer: neural, doctor: neural }, baselines: [neural] },
    onIteration: async (m, t) => {
      if (m.iteration % 10 !== 0 && !quick) return;
      const wolf = greedyFrom(t, 'werewolf');
      const win = await wolfWinRate(env, params, quick ? 10 : 100, (role) => (role === 'werewolf' ? wolf : town), VALIDATION_SEED);
      curve.push({ phase: 'werewolves', iteration: m.iteration, wolfWinRate: win });
      console.error(`wolves iter ${m.iteration}: win ${win.toFixed(3)} vs trained villagers (100 validation games)`);
    },
  });
  const wolf = greedyFrom(p2.trainer, 'werewolf');
  const wolvesWin = await wolfWinRate(env, params, evalGames, (role) => (role === 'werewolf' ? wolf : town));
  const wolvesWinSampled = await wolfWinRate(env, params, evalGames, (role) => (role === 'werewolf' ? policyFrom(p2.trainer, 'werewolf', 8) : town));
  const randomWolvesWin = 1 - villagersWin;
  const iters2 = p2.trainer.iteration;
  p2.trainer.dispose();
  return {
    task: 'Werewolf arena: villagers vs random wolves, then wolves vs the trained villagers',
    targets: [
      { name: 'trained villagers win rate vs random wolves, minus rule-based villagers\'', value: villagersWin - refRule, goal: '>= 0', pass: villagersWin >= refRule },
      { name: 'trained wolves win rate vs trained villagers, minus random wolves\'', value: wolvesWin - randomWolvesWin, goal: '> 0', pass: wolvesWin > randomWolvesWin },
      { name: 'trained wolves win rate vs trained villagers', value: wolvesWin, goal: '> 0.5', pass: wolvesWin > 0.5 },
    ],
    notes: [
      `${evalGames} held-out games each; villagers vs random wolves: trained ${villagersWin.toFixed(3)} (sampling play ${villagersWinSampled.toFixed(3)}), rule-based ${refRule.toFixed(3)}, random ${refRandom.toFixed(3)}`,
      `wolves vs the trained villagers: random wolves ${randomWolvesWin.toFixed(3)}, trained wolves ${wolvesWin.toFixed(3)} (sampling play ${wolvesWinSampled.toFixed(3)})`,
      `iterations: villagers ${iters1} (kept the policy of iteration ${best.iteration}, best on validation games: ${best.win.toFixed(3)}), wolves ${iters2}`,
    ],
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: cpuSeconds() - cpu0,
    iterations: iters1 + iters2,
    curve,
  };
}
