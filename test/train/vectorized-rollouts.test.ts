/**
 * Vectorized self-play (config.envsPerBatch): episodes in lockstep give the same training, bit
 * for bit, as one episode at a time; lanes have their own fixed agents; aborts and errors.
 */
import type { AgentFactory } from '../../src/core/agent';
import { createRegistry } from '../../app/catalog';
import type { Registry } from '../../src/core/registry';
import { selectBackend, type BackendChoice } from '../../src/train/backend';
import { resolveConfig, type TrainConfigInput } from '../../src/train/config';
import type { OpponentMode } from '../../src/train/seat-plan';
import { Trainer, type IterationMetrics } from '../../src/train/trainer';

let backend: BackendChoice;
beforeAll(async () => {
  backend = await selectBackend();
});

interface Run {
  metrics: IterationMetrics[];
  weights: Float32Array[][];
  trainer: Trainer;
}

async function train(
  envId: string,
  rawParams: Record<string, unknown>,
  roles: string[][],
  config: TrainConfigInput,
  iterations: number,
  opponents: OpponentMode[] = ['self'],
  registry: Registry = createRegistry(),
): Promise<Run> {
  const { env, params } = registry.make(envId, rawParams);
  const metrics: IterationMetrics[] = [];
  const trainer = await Trainer.create({
    env,
    params,
    registry,
    roles,
    opponents,
    schedule: { kind: 'simultaneous' },
    iterations,
    config: resolveConfig(config),
    backend,
    onIteration: (m) => metrics.push(m),
  });
  await trainer.run();
  trainer.dispose();
  return { metrics, weights: trainer.entries.map((e) => e.learner.weights.params.map((p) => p.slice())), trainer };
}

/** Metrics without the wall-clock fields. */
function results(m: IterationMetrics[]): unknown[] {
  return m.map(({ seconds, rolloutSeconds, updateSeconds, episodesPerSec, samplesPerSec, updateSamplesPerSec, ...rest }) => rest);
}

function expectSameRun(a: Run, b: Run): void {
  expect(results(b.metrics)).toEqual(results(a.metrics));
  expect(b.weights.length).toBe(a.weights.length);
  a.weights.forEach((params, i) => params.forEach((p, j) => expect(Buffer.from(b.weights[i][j].buffer).equals(Buffer.from(p.buffer))).toBe(true)));
}

describe('episodes in lockstep train exactly as one episode at a time', () => {
  test('Deal-or-No-Deal self-play: same metrics and weights for 1, 5 and 16 lanes', async () => {
    const config = { seed: 3, episodesPerIteration: 24, hidden: [32, 16], evalEvery: 2, evalEpisodes: 8, minibatchSize: 64 };
    const one = await train('deal-or-no-deal-v1', {}, [['negotiator']], { ...config, envsPerBatch: 1 }, 2);
    expect(one.metrics[1].learners.negotiator.update!.samples).toBeGreaterThan(24);
    for (const lanes of [5, 16]) expectSameRun(one, await train('deal-or-no-deal-v1', {}, [['negotiator']], { ...config, envsPerBatch: lanes }, 2));
  });

  test('a mix of baselines and frozen snapshots (a snapshot every iteration)', async () => {
    const config = { seed: 5, episodesPerIteration: 12, hidden: [16], snapshotEvery: 1, baselines: ['random', 'greedy'], evalEvery: 0 };
    const mix: OpponentMode[] = ['baselines', 'checkpoints'];
    const one = await train('deal-or-no-deal-v1', {}, [['negotiator']], { ...config, envsPerBatch: 1 }, 3, mix);
    expectSameRun(one, await train('deal-or-no-deal-v1', {}, [['negotiator']], { ...config, envsPerBatch: 7 }, 3, mix));
  });

  test('an env with tries (Countdown, 4 attempts per puzzle, GRPO groups)', async () => {
    const params = { rules: 'tinyzero', contract: { count: 4 }, attempts: 4 };
    const config = { algorithm: 'grpo' as const, seed: 2, episodesPerIteration: 8, groupSize: 2, hidden: [16], actions: { solver: [[0, 90]] as [number, number][] }, evalEvery: 0 };
    const one = await train('countdown-v1', params, [['solver']], { ...config, envsPerBatch: 1 }, 2);
    expect(one.metrics[0].learners.solver.update!.samples).toBeGreaterThan(8);
    expectSameRun(one, await train('countdown-v1', params, [['solver']], { ...config, envsPerBatch: 8 }, 2));
  });
});

describe('lanes', () => {
  /** An opponent with per-episode state: it notes each act's match, and any act for a match other than the one it started. */
  function episodeBoundAgent(log: { acts: string[]; crossed: number }): AgentFactory {
    return {
      name: 'episode-bound',
      description: 'test agent with per-episode state',
      options: {},
      create: () => {
        let match: string | null = null;
        return {
          name: 'episode-bound',
          start(ctx) {
            match = ctx.matchId;
          },
          act(_obs, legal, ctx) {
            log.acts.push(ctx.matchId);
            if (ctx.matchId !== match) log.crossed++;
            return legal![ctx.rng.int(legal!.length)];
          },
        };
      },
    };
  }

  test('episodes really interleave, and each lane has its own fixed agents (per-episode state never meets another episode)', async () => {
    const log = { acts: [] as string[], crossed: 0 };
    const registry = createRegistry();
    registry.registerAgent(episodeBoundAgent(log));
    await train('deal-or-no-deal-v1', {}, [['negotiator']], { seed: 1, episodesPerIteration: 16, envsPerBatch: 8, hidden: [8], baselines: ['episode-bound'], evalEvery: 0 }, 1, ['baselines'], registry);
    expect(log.crossed).toBe(0);
    // interleaved: some act of one match comes between two acts of another
    const lastAct = new Map<string, number>();
    let interleaved = false;
    log.acts.forEach((m, i) => {
      const prev = lastAct.get(m);
      if (prev !== undefined && log.acts.slice(prev + 1, i).some((x) => x !== m)) interleaved = true;
      lastAct.set(m, i);
    });
    expect(interleaved).toBe(true);
  });

  test('agents with per-episode state get an instance per lane and seat; stateless ones (no start hook) one per seat', async () => {
    const made = { bound: 0, stateless: 0 };
    const log = { acts: [] as string[], crossed: 0 };
    const bound = episodeBoundAgent(log);
    const registry = createRegistry();
    registry.registerAgent({ ...bound, create: (o) => (made.bound++, bound.create(o)) });
    registry.registerAgent({
      name: 'stateless',
      description: 'no start hook',
      options: {},
      create: () => (made.stateless++, { name: 'stateless', act: (_o, legal, ctx) => legal![ctx.rng.int(legal!.length)] }),
    });
    const config = { seed: 1, episodesPerIteration: 12, envsPerBatch: 6, hidden: [8], baselines: ['episode-bound', 'stateless'], evalEvery: 0 };
    await train('deal-or-no-deal-v1', {}, [['negotiator']], config, 1, ['baselines'], registry);
    expect(made).toEqual({ bound: 6 * 2, stateless: 2 });
    expect(log.crossed).toBe(0);
  });

  test('an abort during the rollouts drops the iteration: null, empty buffers, nothing counted', async () => {
    const registry = createRegistry();
    const ac = new AbortController();
    let acts = 0;
    registry.registerAgent({
      name: 'aborter',
      description: 'aborts the run at its 5th decision',
      options: {},
      create: () => ({ name: 'aborter', act: (_o, legal, ctx) => (++acts === 5 && ac.abort(), legal![ctx.rng.int(legal!.length)]) }),
    });
    const { env, params } = registry.make('deal-or-no-deal-v1', {});
    const t = await Trainer.create({
      env,
      params,
      registry,
      roles: [['negotiator']],
      opponents: ['baselines'],
      schedule: { kind: 'simultaneous' },
      iterations: 1,
      config: resolveConfig({ episodesPerIteration: 32, envsPerBatch: 4, hidden: [8], baselines: ['aborter'], evalEvery: 0 }),
      backend,
    });
    expect(await t.step(ac.signal)).toBeNull();
    expect(t.iteration).toBe(0);
    expect(t.entries[0].buf.size).toBe(0);
    expect(t.entries[0].learner.updates).toBe(0);
    // the episodes under way stopped at their next decision and no lane took another one
    expect(acts).toBeLessThanOrEqual(8);
    t.dispose();
  });

  test('a stop signal with many lanes: the caller\'s signal gets one listener (no listener-leak warning), removed at the end', async () => {
    const registry = createRegistry();
    const { env, params } = registry.make('deal-or-no-deal-v1', {});
    const t = await Trainer.create({
      env,
      params,
      registry,
      roles: [['negotiator']],
      opponents: ['self'],
      schedule: { kind: 'simultaneous' },
      iterations: 1,
      config: resolveConfig({ episodesPerIteration: 32, envsPerBatch: 32, hidden: [8], evalEvery: 0 }),
      backend,
    });
    const ac = new AbortController();
    const sig = ac.signal;
    let now = 0;
    let most = 0;
    const add = sig.addEventListener.bind(sig);
    const remove = sig.removeEventListener.bind(sig);
    sig.addEventListener = ((...a: Parameters<AbortSignal['addEventListener']>) => (now++, (most = Math.max(most, now)), add(...a))) as AbortSignal['addEventListener'];
    sig.removeEventListener = ((...a: Parameters<AbortSignal['removeEventListener']>) => (now--, remove(...a))) as AbortSignal['removeEventListener'];
    expect(await t.step(sig)).not.toBeNull();
    expect(most).toBe(1);
    expect(now).toBe(0);
    t.dispose();
  });

  test('an error in one lane stops the others and reaches the caller', async () => {
    await expect(train('deal-or-no-deal-v1', {}, [['negotiator']], { episodesPerIteration: 8, envsPerBatch: 4, hidden: [8], baselines: ['self'], evalEvery: 0 }, 1, ['baselines'])).rejects.toThrow(
      /--opponents baselines needs at least one baseline/,
    );
  });

  test('envsPerBatch is validated by name', () => {
    expect(() => resolveConfig({ envsPerBatch: 0 })).toThrow(/envsPerBatch/);
    expect(() => resolveConfig({ envsPerBatch: 5000 })).toThrow(/envsPerBatch/);
    expect(resolveConfig({}).envsPerBatch).toBe(16);
  });
});
