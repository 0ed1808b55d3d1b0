import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '../../app/catalog';
import { checkpointFile } from '../../src/train/run-state';
import type { Agent } from '../../src/core/agent';
import { selectBackend, type BackendChoice } from '../../src/train/backend';
import { resolveConfig } from '../../src/train/config';
import { allocateSources, checkSources, EpisodeSourceError, type EpisodeSource } from '../../src/train/episode-sources';
import { Trainer, type IterationMetrics } from '../../src/train/trainer';

let backend: BackendChoice;
beforeAll(async () => {
  backend = await selectBackend('cpu');
});

describe('allocating episode groups to sources', () => {
  test('counts follow the weights exactly (largest remainders, ties to the earlier source), spread over the iteration', () => {
    expect(allocateSources([2, 1, 1], 8)).toEqual([0, 1, 2, 0, 0, 1, 2, 0]);
    const count = (list: number[], i: number) => list.filter((x) => x === i).length;
    const a = allocateSources([1, 1, 1], 4);
    expect([0, 1, 2].map((i) => count(a, i))).toEqual([2, 1, 1]);
    const b = allocateSources([0.5, 0.3, 0.2], 10);
    expect([0, 1, 2].map((i) => count(b, i))).toEqual([5, 3, 2]);
    // 7 slots of [1, 2]: quotas 2.33 / 4.67 -> 2 / 5 (the larger remainder wins)
    expect([0, 1].map((i) => count(allocateSources([1, 2], 7), i))).toEqual([2, 5]);
    expect(allocateSources([0, 3], 3)).toEqual([1, 1, 1]);
    expect(allocateSources([1, 1], 6)).toEqual(allocateSources([1, 1], 6));
  });

  test('bad source lists are answered with one line naming the source', () => {
    const s = (label: string, weight: number): EpisodeSource => ({ label, weight });
    expect(() => checkSources([s('gen', 1), s('snap', -1)])).toThrow('episode source "snap": weight must be a finite number >= 0 (got -1)');
    expect(() => checkSources([s('gen', Number.NaN)])).toThrow('episode source "gen": weight');
    expect(() => checkSources([s('gen', 1), s('gen', 2)])).toThrow('episode source "gen": label used twice');
    expect(() => checkSources([s('a', 0), s('b', 0)])).toThrow('episode sources: every weight is 0 (a, b)');
    expect(() => checkSources([])).toThrow(EpisodeSourceError);
    expect(() => allocateSources([0, 0], 3)).toThrow('every weight is 0');
    expect(() => checkSources([s('gen', 0), s('cur', 1)])).not.toThrow();
  });
});

describe('a trainer with episode sources (Countdown solver)', () => {
  test('episodes come from each source in proportion, with its params and its opponents, and are reported per source', async () => {
    const registry = createRegistry();
    const { env, params } = registry.make('countdown-v1', { rules: 'tinyzero', roles: 'challenger-solver', attempts: 2, contract: { count: 4 } });
    const generator = env.resolveParams({ rules: 'tinyzero', roles: 'solver', attempts: 3, contract: { count: 4 } });
    const proposer = (await registry.createAgent('random-valid', { env, params, seed: 7 })).agent;
    const asked: string[] = [];
    const opponent: Agent = { name: 'proposer', act: (obs, legal, ctx) => proposer.act(obs, legal, ctx) };
    const sources = (): EpisodeSource[] => [
      { label: 'generator', weight: 1, params: generator },
      {
        label: 'proposer',
        weight: 3,
        opponent: (seat, role) => {
          asked.push(`${seat}:${role}`);
          return opponent;
        },
      },
    ];
    const all: IterationMetrics[] = [];
    const t = await Trainer.create({
      env,
      params,
      registry,
      roles: [['solver']],
      opponents: ['baselines'], // replaced by the sources
      schedule: { kind: 'simultaneous' },
      iterations: 2,
      config: resolveConfig({ algorithm: 'grpo', groupSize: 1, seed: 2, episodesPerIteration: 8, hidden: [8], evalEvery: 0, baselines: ['random'], actions: { solver: [[0, 90]] } }),
      backend,
      sources,
      onIteration: (m) => all.push(m),
    });
    await t.run();
    t.dispose();
    expect(all).toHaveLength(2);
    for (const m of all) {
      expect(m.sources!.generator.episodes).toBe(2);
      expect(m.sources!.proposer.episodes).toBe(6);
      // the generator's episodes are played under its params (3 attempts a puzzle, the run's have 2)
      expect(m.sources!.generator.envStats).toMatchObject({ puzzles: 2, attempts: 6, unsolvableProposals: 0 });
      expect(m.sources!.proposer.envStats).toMatchObject({ puzzles: 6, attempts: 12 });
      expect(Object.keys(m.learners.solver.winRate).sort()).toEqual(['proposer']); // the generator's episodes have no opponent
      expect(m.learners.solver.update!.samples).toBeGreaterThan(0);
    }
    // the proposer source was asked for the challenger seat only, once per episode
    expect(asked).toEqual(Array(12).fill('0:challenger'));
  });
});

describe('a trainer started from a checkpoint (init)', () => {
  test("a fresh run starts from the checkpoint's weights; a checkpoint of roles no learner trains is refused", async () => {
    const registry = createRegistry();
    const { env, params } = registry.make('countdown-v1', { rules: 'tinyzero', contract: { count: 3 } });
    const dir = mkdtempSync(join(tmpdir(), 'arena-init-'));
    const make = (seed: number, extra: { init?: string; outDir?: string; roles?: string[][] } = {}) =>
      Trainer.create({
        env,
        params,
        registry,
        roles: extra.roles ?? [['solver']],
        opponents: ['self'],
        schedule: { kind: 'simultaneous' },
        iterations: 1,
        config: resolveConfig({ algorithm: 'grpo', seed, episodesPerIteration: 8, hidden: [8], evalEvery: 0, actions: { solver: [[0, 90]] } }),
        backend,
        ...extra,
      });
    const a = await make(1, { outDir: join(dir, 'a') });
    await a.run();
    const file = checkpointFile(join(dir, 'a'), 'solver', 'latest');
    const b = await make(2, { init: file });
    const fresh = await make(2);
    const w = (t: Trainer) => Array.from(t.entries[0].learner.weights.params[0]);
    expect(w(b)).toEqual(w(a));
    expect(w(fresh)).not.toEqual(w(a));
    const { env: ch, params: chParams } = registry.make('countdown-v1', { rules: 'tinyzero', roles: 'challenger-solver', contract: { count: 3 } });
    await expect(
      Trainer.create({ env: ch, params: chParams, registry, roles: [['challenger']], opponents: ['self'], schedule: { kind: 'simultaneous' }, iterations: 1, config: resolveConfig({ hidden: [8], evalEvery: 0 }), backend, init: file }),
    ).rejects.toThrow(`init: ${file} plays solver, which no learner trains`);
    for (const t of [a, b, fresh]) t.dispose();
  });
});
