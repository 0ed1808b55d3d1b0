/**
 * Actor-learner overlap (config `overlap`, `--overlap`): the fused update in the update worker
 * while the next iteration plays with the previous weights. Reproducible given the seed and the
 * recorded policy lags; the worker's update is the in-process one bit for bit; --sync keeps the
 * synchronous mode; the worker's failures reach the caller.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '../../app/catalog';
import { selectBackend, type BackendChoice } from '../../src/train/backend';
import { resolveConfig, type TrainConfigInput } from '../../src/train/config';
import { UpdateWorker } from '../../src/train/fused/update-pool';
import { initMlp } from '../../src/train/mlp';
import { Trainer, type IterationMetrics } from '../../src/train/trainer';
import { arena, jsonLines } from '../cli/helpers';

const CONFIG: TrainConfigInput = { seed: 3, episodesPerIteration: 12, hidden: [16], evalEvery: 0, minibatchSize: 32, epochs: 2, lr: 3e-3, checkpointEvery: 1 };

let dir: string;
let cpu: BackendChoice;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-overlap-'));
  cpu = await selectBackend('cpu');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  metrics: IterationMetrics[];
  /** Weights after each iteration (as onIteration saw them). */
  weights: Buffer[];
  overlaps: boolean;
}

async function train(config: TrainConfigInput, iterations: number, extra: { outDir?: string; resume?: boolean } = {}): Promise<Run> {
  const registry = createRegistry();
  const { env, params } = registry.make('deal-or-no-deal-v1', {});
  const run: Run = { metrics: [], weights: [], overlaps: false };
  const t = await Trainer.create({
    env,
    params,
    registry,
    roles: [['negotiator']],
    opponents: ['self'],
    schedule: { kind: 'simultaneous' },
    iterations,
    config: resolveConfig({ ...CONFIG, ...config }),
    backend: cpu,
    ...extra,
    onIteration: (m) => {
      run.metrics.push(m);
      run.weights.push(Buffer.concat(t.entries[0].learner.weights.params.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
    },
  });
  run.overlaps = t.overlaps;
  try {
    await t.run();
  } finally {
    t.dispose();
  }
  return run;
}

describe('overlapped training', () => {
  test('records its policy lags, is reproducible, and its first update is the synchronous one bit for bit', async () => {
    const a = await train({ overlap: true }, 4);
    const b = await train({ overlap: true }, 4);
    const s = await train({ overlap: false }, 4);
    expect(a.overlaps).toBe(true);
    expect(s.overlaps).toBe(false);
    expect(a.metrics.map((m) => m.policyLag)).toEqual([0, 1, 1, 1]);
    expect(s.metrics.map((m) => m.policyLag)).toEqual([0, 0, 0, 0]);
    // the same seed and lags: the same run
    a.weights.forEach((w, i) => expect(w.equals(b.weights[i])).toBe(true));
    expect(a.metrics.map((m) => m.learners.negotiator.update!.loss)).toEqual(b.metrics.map((m) => m.learners.negotiator.update!.loss));
    // iteration 1 played with the initial weights in both modes; its update ran in the worker here
    expect(a.weights[0].equals(s.weights[0])).toBe(true);
    expect(a.metrics[0].samples).toBe(s.metrics[0].samples);
    // iteration 2 was played during that update, with the weights from before it: not the synchronous run's
    expect(a.weights[1].equals(s.weights[1])).toBe(false);
  });

  test('a resumed overlapped run starts fresh (lag 0) and records it; resuming the same way twice gives the same run', async () => {
    const resumeTwice = async (name: string) => {
      const out = join(dir, name);
      const first = await train({ overlap: true }, 2, { outDir: out });
      const second = await train({ overlap: true }, 4, { outDir: out, resume: true });
      return { lags: [...first.metrics, ...second.metrics].map((m) => m.policyLag), last: second.weights[1], jsonl: readFileSync(join(out, 'metrics.jsonl'), 'utf8') };
    };
    const x = await resumeTwice('x');
    const y = await resumeTwice('y');
    expect(x.lags).toEqual([0, 1, 0, 1]);
    expect(x.last.equals(y.last)).toBe(true);
    expect(x.jsonl.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { policyLag: number }).policyLag)).toEqual([0, 1, 0, 1]);
  });

  test('only the fused update overlaps', async () => {
    const host = await train({ overlap: true, update: 'host' }, 2);
    expect(host.overlaps).toBe(false);
    expect(host.metrics.map((m) => m.policyLag)).toEqual([0, 0]);
  });
});

describe('update worker', () => {
  const spec = { inputSize: 3, hidden: [4], outputSize: 3, activation: 'relu' as const };
  const request = (actions: number[]) => {
    const w = initMlp(spec, 1);
    const n = actions.length;
    return {
      learner: 'p',
      spec,
      adam: { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.5 },
      weights: w.params,
      m: w.params.map((p) => new Float32Array(p.length)),
      v: w.params.map((p) => new Float32Array(p.length)),
      step: 0,
      n,
      inputs: new Float32Array(n * 3).fill(0.5),
      masks: new Float32Array(n * 2).fill(1).map((_, i) => (i === 1 ? 0 : 1)),
      actions: Int32Array.from(actions),
      logp: new Float32Array(n).fill(-0.7),
      advantages: new Float32Array(n).fill(1),
      returns: new Float32Array(n),
      options: { clip: 0.2, valueCoef: 0.5, entropyCoef: 0, epochs: 1, minibatchSize: 8, targetKl: 0, lr: 0.01, seed: 1 },
    };
  };

  test('answers an update with new weights and Adam state; a failing one rejects with its message; the next request still runs', async () => {
    const worker = new UpdateWorker();
    try {
      const ok = await worker.run(request([0, 0, 1]));
      expect(ok.step).toBe(1);
      expect(ok.weights.map((p) => p.length)).toEqual([12, 4, 12, 3]);
      expect(ok.stats.minibatches).toBe(1);
      // sample 0 took action 1, which its mask marks illegal
      await expect(worker.run(request([1, 0, 0]))).rejects.toThrow('policyLoss: sample 0 took action 1, which its mask marks illegal');
      expect((await worker.run(request([0, 1, 0]))).step).toBe(1);
    } finally {
      await worker.close();
    }
  });
});

describe('arena train --sync / --overlap', () => {
  const RPS = './examples/rock-paper-scissors.js';
  const config = JSON.stringify({ episodesPerIteration: 8, hidden: [8], evalEvery: 0 });

  test('--overlap says so and records lags; --sync keeps the synchronous mode in the run state; both at once is a usage error', () => {
    const out = join(dir, 'cli');
    const r = arena(['train', RPS, '--iterations', '3', '--config', config, '--params', '{"rounds":2}', '--overlap', '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/updates in a worker thread overlapped with the next rollouts/);
    expect(jsonLines(r.stdout).map((m) => m.policyLag)).toEqual([0, 1, 1]);
    const s = arena(['train', RPS, '--iterations', '4', '--out', out, '--resume', '--params', '{"rounds":2}', '--sync', '--json']);
    expect(s.code).toBe(0);
    expect(s.stderr).toMatch(/; synchronous;/);
    expect(jsonLines(s.stdout).map((m) => m.policyLag)).toEqual([0]);
    expect((JSON.parse(readFileSync(join(out, 'state.json'), 'utf8')) as { config: { overlap: boolean } }).config.overlap).toBe(false);
    const both = arena(['train', RPS, '--iterations', '1', '--sync', '--overlap']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--sync and --overlap: give one of them/);
  });
});
