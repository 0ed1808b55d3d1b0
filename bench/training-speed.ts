/**
 * Training speed, before and after issue 18 (vectorized self-play, the faster update), side by
 * side with PyTorch on the CPU. Prints three markdown tables:
 *
 * 1. acting: decisions/s of Deal-or-No-Deal self-play rollouts (the trainer's network,
 *    144→128→128→365): before = the naive per-decision forward, one episode at a time; after
 *    = the register-blocked forward, E episodes in lockstep (config.envsPerBatch);
 * 2. update: PPO minibatch steps/s at batch 256 on 64→256→256→16 (+ value), per backend and
 *    implementation, next to PyTorch CPU (bench/pytorch-update.py: same trunk, cross-entropy,
 *    one thread, OPENBLAS_NUM_THREADS=1) when python3 can import torch;
 * 3. end to end: `arena train deal-or-no-deal-v1` samples/s, before vs after.
 *
 * "Before" is reproduced in this process by swapping the previous kernels back in (the naive
 * forward loop; tf.sum for bias gradients); results are the same bits, only the speed differs.
 * The machine is shared: rates are the best window (wall) and per CPU-second of this process;
 * the load average is printed with each table.
 * Usage: npm run bench:train-speed [-- --seconds 2 --iterations 6]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as TF from '@tensorflow/tfjs';
import { createRegistry } from '../src/catalog';
import { selectBackend, type BackendChoice } from '../src/train/backend';
import { resolveConfig, type TrainConfigInput } from '../src/train/config';
import { initMlp, layerSizes, MlpForward } from '../src/train/mlp';
import { TfMlp } from '../src/train/tf-mlp';
import { Trainer, type IterationMetrics } from '../src/train/trainer';
import { ppoSetup } from './ppo-fixture';
import { loadNote, measure, measureAsync, type Rate } from './rate';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SECONDS = Number(arg('--seconds')) || 2;
const ITERATIONS = Number(arg('--iterations')) || 6;
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/** The previous kernels, swapped in for the "before" rows. */
function withBefore<T>(tf: typeof TF, f: () => Promise<T>): Promise<T> {
  const fwd = MlpForward.prototype as unknown as { run(x: Float32Array, rows?: number): Float32Array };
  const mlp = TfMlp.prototype as unknown as { columnSums(dz: TF.Tensor2D): TF.Tensor1D };
  const run = fwd.run;
  const sums = mlp.columnSums;
  fwd.run = function (this: MlpForward, x: Float32Array, rows = 1): Float32Array {
    if (rows !== 1) throw new Error('the naive forward takes one row');
    const sizes = layerSizes(this.weights.spec);
    let input = x;
    for (let l = 0; l + 1 < sizes.length; l++) {
      const out = Float32Array.from(this.weights.params[2 * l + 1]);
      const w = this.weights.params[2 * l];
      const nOut = sizes[l + 1];
      for (let i = 0; i < sizes[l]; i++) {
        const xi = input[i];
        if (xi === 0) continue;
        for (let j = 0; j < nOut; j++) out[j] += xi * w[i * nOut + j];
      }
      if (l + 2 < sizes.length) for (let j = 0; j < nOut; j++) if (out[j] < 0) out[j] = 0;
      input = out;
    }
    return input;
  };
  mlp.columnSums = (dz) => tf.sum(dz, 0) as TF.Tensor1D;
  return f().finally(() => {
    fwd.run = run;
    mlp.columnSums = sums;
  });
}

interface RunFigures {
  samplesPerSec: number;
  samplesPerCpuSec: number;
}

function dondTrainer(backend: BackendChoice, config: TrainConfigInput, iterations: number, metrics: IterationMetrics[] = []): Promise<Trainer> {
  const registry = createRegistry();
  const { env, params } = registry.make('deal-or-no-deal-v1', {});
  return Trainer.create({
    env,
    params,
    registry,
    roles: [['negotiator']],
    opponents: ['self'],
    schedule: { kind: 'simultaneous' },
    iterations,
    config: resolveConfig({ evalEvery: 0, ...config }),
    backend,
    onIteration: (m) => metrics.push(m),
  });
}

/** Rollouts only of Deal-or-No-Deal self-play (the default config, and `config`): decisions/s. */
async function dondActing(backend: BackendChoice, config: TrainConfigInput): Promise<Rate> {
  const trainer = await dondTrainer(backend, config, 1);
  // every call replays the same iteration's seeds: the same decisions each time
  const perRollout = await trainer.rollouts();
  const rate = await measureAsync(async () => void (await trainer.rollouts()), SECONDS);
  trainer.dispose();
  return { wall: rate.wall * perRollout, cpu: rate.cpu * perRollout };
}

/** `iterations` of Deal-or-No-Deal self-play training with the default config (and `config`). */
async function dondRun(backend: BackendChoice, config: TrainConfigInput, iterations: number): Promise<RunFigures> {
  const metrics: IterationMetrics[] = [];
  const trainer = await dondTrainer(backend, config, iterations, metrics);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await trainer.run();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(cpu0);
  trainer.dispose();
  const samples = metrics.reduce((n, m) => n + m.samples, 0);
  return { samplesPerSec: samples / wall, samplesPerCpuSec: samples / ((c.user + c.system) / 1e6) };
}

/** The Python that runs the PyTorch peer: $PYTHON, else Debian's (python3-torch installs there), else python3 on the PATH. */
const PYTHON = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

function pytorch(seconds: number): { rate?: Rate; note: string } {
  const r = spawnSync(PYTHON, [join(__dirname, '..', '..', 'bench', 'pytorch-update.py'), '--seconds', String(seconds)], {
    env: { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' },
    encoding: 'utf8',
  });
  if (r.error) return { note: `${PYTHON} could not run (${r.error.message})` };
  try {
    const j = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as { error?: string; torch?: string; blas?: string; updatesPerSec?: number; updatesPerCpuSec?: number };
    if (j.error) return { note: j.error };
    return { rate: { wall: j.updatesPerSec!, cpu: j.updatesPerCpuSec! }, note: `PyTorch ${j.torch}${j.blas ? `, BLAS ${j.blas}` : ''}` };
  } catch {
    return { note: `bench/pytorch-update.py printed no result: ${(r.stderr || r.stdout).trim().split('\n').pop()}` };
  }
}

async function main(): Promise<void> {
  const wasm = await selectBackend('wasm');
  console.log(`training speed (issue 18), node ${process.version}, ${loadNote()}\n`);

  console.log('## Acting: Deal-or-No-Deal self-play rollouts (144→128→128→365, wasm)\n');
  console.log('| forward | episodes in lockstep | decisions/s (best window) | decisions per CPU-second |');
  console.log('|---|---:|---:|---:|');
  const actBefore = await withBefore(wasm.tf, () => dondActing(wasm, { envsPerBatch: 1 }));
  console.log(`| before: naive loop | 1 | ${fmt(actBefore.wall)} | ${fmt(actBefore.cpu)} |`);
  for (const e of [1, 16, 64]) {
    const r = await dondActing(wasm, { envsPerBatch: e });
    console.log(`| register-blocked (MlpForward) | ${e}${e === 16 ? ' (default)' : ''} | ${fmt(r.wall)} | ${fmt(r.cpu)} |`);
  }
  console.log(`\n(${loadNote()})\n`);

  console.log('## Update: PPO minibatch step, 64→256→256→16 + value, batch 256, one thread\n');
  console.log('| backend | implementation | steps/s (best window) | steps per CPU-second |');
  console.log('|---|---|---:|---:|');
  const row = (b: string, impl: string, r: Rate) => console.log(`| ${b} | ${impl} | ${fmt(r.wall, 1)} | ${fmt(r.cpu, 1)} |`);
  const hand = (choice: BackendChoice) => {
    const s = ppoSetup(choice, 256, 'js');
    return { rate: () => measure(() => void s.learner.update(s.buf, s.targets, s.o), SECONDS), s };
  };
  row('wasm', 'before: hand backward, tf.sum bias gradients, JS Adam', await withBefore(wasm.tf, async () => hand(wasm).rate()));
  const after = hand(wasm).rate();
  row('wasm', 'after: hand backward, ones·dz bias gradients, JS Adam (default)', after);
  const dev = ppoSetup(wasm, 256, 'tf');
  row('wasm', 'device path: tfjs autodiff + tfjs Adam (the GPU path)', await measureAsync(async () => void (await dev.learner.updateOnDevice(dev.buf, dev.targets, dev.o)), SECONDS));
  const fwd = new MlpForward(initMlp({ inputSize: 64, hidden: [256, 256], outputSize: 17, activation: 'relu' }, 1));
  const xs = Float32Array.from({ length: 256 * 64 }, (_, i) => Math.sin(i));
  row('none', 'JS typed arrays: forward pass only (MlpForward, 256 rows), an upper bound for a JS update', measure(() => void fwd.run(xs, 256), SECONDS));
  const cpu = await selectBackend('cpu');
  const onCpu = ppoSetup(cpu, 256, 'js');
  row('cpu', 'hand backward, JS Adam', measure(() => void onCpu.learner.update(onCpu.buf, onCpu.targets, onCpu.o), Math.min(SECONDS, 1.5)));
  await selectBackend('wasm');
  const torch = pytorch(SECONDS);
  if (torch.rate) {
    row('PyTorch CPU', `${torch.note}, cross-entropy step (same trunk)`, torch.rate);
    console.log(`\nwasm default / PyTorch: ${(after.wall / torch.rate.wall).toFixed(2)}× (best windows), ${(after.cpu / torch.rate.cpu).toFixed(2)}× (per CPU-second)`);
  } else console.log(`| PyTorch CPU | not measured: ${torch.note} | – | – |`);
  console.log(`\n(${loadNote()})\n`);

  console.log(`## End to end: arena train deal-or-no-deal-v1, default config, ${ITERATIONS} iterations (wasm)\n`);
  console.log('| version | samples/s (wall) | samples per CPU-second |');
  console.log('|---|---:|---:|');
  const e2eBefore = await withBefore(wasm.tf, () => dondRun(wasm, { envsPerBatch: 1 }, ITERATIONS));
  const e2eAfter = await dondRun(wasm, {}, ITERATIONS);
  console.log(`| before (one episode at a time, previous kernels) | ${fmt(e2eBefore.samplesPerSec)} | ${fmt(e2eBefore.samplesPerCpuSec)} |`);
  console.log(`| after (16 in lockstep, default) | ${fmt(e2eAfter.samplesPerSec)} | ${fmt(e2eAfter.samplesPerCpuSec)} |`);
  console.log(`\nspeed-up: ${(e2eAfter.samplesPerSec / e2eBefore.samplesPerSec).toFixed(2)}× wall, ${(e2eAfter.samplesPerCpuSec / e2eBefore.samplesPerCpuSec).toFixed(2)}× per CPU-second (${loadNote()})`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
