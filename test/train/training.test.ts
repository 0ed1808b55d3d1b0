import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import type { LeagueEvent } from '../../src/core/events';
import { selectBackend, type BackendChoice } from '../../src/train/backend';
import { resolveConfig, type TrainConfigInput } from '../../src/train/config';
import type { OpponentMode } from '../../src/train/seat-plan';
import type { Schedule } from '../../src/train/schedule';
import { Trainer, type IterationMetrics } from '../../src/train/trainer';
import { fixtureEnv } from './fixtures/load';

let backend: BackendChoice;
beforeAll(async () => {
  backend = await selectBackend();
});

async function train(
  envName: 'bandit-env' | 'teams-env',
  roles: string[][],
  config: TrainConfigInput,
  iterations: number,
  extra: { opponents?: OpponentMode[]; schedule?: Schedule; bus?: EventBus } = {},
): Promise<IterationMetrics[]> {
  const env = fixtureEnv(envName);
  const registry = createRegistry();
  registry.registerEnv(require(`./fixtures/${envName}.js`).env);
  const all: IterationMetrics[] = [];
  const t = await Trainer.create({
    env,
    params: env.resolveParams({}),
    registry,
    roles,
    opponents: extra.opponents ?? ['self'],
    schedule: extra.schedule ?? { kind: 'simultaneous' },
    iterations,
    config: resolveConfig(config),
    backend,
    bus: extra.bus,
    onIteration: (m) => all.push(m),
  });
  await t.run();
  t.dispose();
  return all;
}

describe('learning on a contextual bandit', () => {
  test.each(['ppo', 'grpo', 'rloo'] as const)('%s learns to match the context', async (algorithm) => {
    const m = await train(
      'bandit-env',
      [['agent']],
      { algorithm, seed: 1, episodesPerIteration: 64, hidden: [16], lr: 0.02, entropyCoef: 0, evalEvery: 12, evalEpisodes: 40 },
      12,
    );
    const last = m[m.length - 1];
    const before = m[0].learners.agent.meanReturn.agent;
    expect(last.eval!.agent.solo.env).toEqual({ hitRate: 1 });
    expect(last.learners.agent.meanReturn.agent).toBeGreaterThan(Math.max(0.8, before));
    expect(last.learners.agent.update!.samples).toBe(64);
  });
});

describe('roles, teams and schedules', () => {
  test('alternate:2 trains one learner at a time; the other plays frozen', async () => {
    const m = await train('teams-env', [['red'], ['blue']], { seed: 2, episodesPerIteration: 8, hidden: [4], evalEvery: 0 }, 5, { schedule: { kind: 'alternate', every: 2 } });
    expect(m.map((x) => [x.learners.red.training, x.learners.blue.training])).toEqual([
      [true, false],
      [true, false],
      [false, true],
      [false, true],
      [true, false],
    ]);
    expect(m[2].learners.red.update).toBeUndefined();
    expect(m[2].learners.red.updates).toBe(m[1].learners.red.updates);
    expect(m[2].learners.blue.update!.samples).toBe(8); // one blue seat per episode
    expect(m[0].learners.red.update!.samples).toBe(16); // two red seats per episode
  });

  test('baselines mode: the learner plays its whole team; win rate per baseline; metrics on the bus', async () => {
    const bus = new EventBus();
    const seen: LeagueEvent[] = [];
    bus.ofType('training.iteration').subscribe((e) => seen.push(e));
    const m = await train('teams-env', [['red']], { seed: 3, episodesPerIteration: 8, hidden: [4], evalEvery: 1, evalEpisodes: 4 }, 2, {
      opponents: ['baselines'],
      bus,
    });
    expect(m[0].learners.red.update!.samples).toBe(16);
    expect(Object.keys(m[0].learners.red.winRate)).toEqual(['random']);
    expect(m[0].learners.red.games.random).toBe(8);
    expect(Object.keys(m[1].eval!.red)).toEqual(['random']);
    expect(seen.map((e) => [e.type, e.seq])).toEqual([
      ['training.iteration', 1],
      ['training.iteration', 2],
    ]);
    expect((seen[1].data as { iteration: number }).iteration).toBe(2);
  });

  test('per-learner overrides: epochs for one learner only', async () => {
    const m = await train('teams-env', [['red'], ['blue']], { seed: 6, episodesPerIteration: 4, hidden: [4], evalEvery: 0, epochs: 1, learners: { blue: { epochs: 3 } } }, 1);
    expect(m[0].learners.red.update!.epochs).toBe(1);
    expect(m[0].learners.blue.update!.epochs).toBe(3);
  });

  test('one shared net for two roles takes a role input', async () => {
    const m = await train('teams-env', [['red', 'blue']], { seed: 5, episodesPerIteration: 4, hidden: [4], evalEvery: 0 }, 1);
    expect(m[0].learners['red+blue'].update!.samples).toBe(12);
    expect(Object.keys(m[0].learners['red+blue'].meanReturn).sort()).toEqual(['blue', 'red']);
  });
});
