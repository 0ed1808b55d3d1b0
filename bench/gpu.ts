/**
 * `npm run bench:gpu`: the GPU backend against wasm on the same machine, as one prepared run
 * (issue 18). Prints the backends probed (with the reasons of those that cannot load), the
 * chosen backend and its device, then a markdown table of PPO update steps/s on
 * 64→256→256→16 (+ value) at batch 256, 4,096 and 65,536 for both update paths where they run
 * (the hand-written backward with host reads; tfjs autodiff + tfjs Adam on the device), and one
 * env's training run (Deal-or-No-Deal self-play, default config, `--iterations` iterations):
 * samples/s. Without a GPU backend it measures wasm alone and says why.
 * Usage: npm run bench:gpu [-- --seconds 3 --iterations 4 --batches 256,4096,65536]
 */
import { Rng } from '../src/core/rng';
import { createRegistry } from '../src/catalog';
import { describeChoice, probeBackends, selectBackend, type BackendChoice } from '../src/train/backend';
import { resolveConfig } from '../src/train/config';
import { Learner, type UpdateOptions } from '../src/train/learner';
import { initMlp } from '../src/train/mlp';
import { SampleBuffer } from '../src/train/sample-buffer';
import { Trainer, type IterationMetrics } from '../src/train/trainer';
import { loadNote, measure, measureAsync, type Rate } from './rate';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SECONDS = Number(arg('--seconds')) || 3;
const ITERATIONS = Number(arg('--iterations')) || 4;
const BATCHES = (arg('--batches') ?? '256,4096,65536').split(',').map(Number);
const GPU_BACKENDS = new Set(['tfjs-node-gpu', 'webgpu']);

function ppo(choice: BackendChoice, batch: number, impl: 'js' | 'tf') {
  const IN = 64;
  const OUT = 16;
  const layout = { env: 'bench-v1', roles: ['p'], roleInput: false, obsSize: IN, numActions: OUT };
  const encoder = { size: IN, numActions: OUT, encode: (_o: unknown, out?: Float32Array) => out ?? new Float32Array(IN), actionIndex: () => 0, action: (i: number) => i };
  const learner = new Learner('p', layout, encoder, initMlp({ inputSize: IN, hidden: [256, 256], outputSize: OUT + 1, activation: 'relu' }, 1), choice, { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, maxGradNorm: 0.5 }, impl);
  const buf = new SampleBuffer(IN, OUT, batch);
  const rng = Rng.fromSeed(2);
  const x = new Float32Array(IN);
  const mask = new Float32Array(OUT);
  for (let i = 0; i < batch; i++) {
    for (let j = 0; j < IN; j++) x[j] = rng.next() * 2 - 1;
    for (let j = 0; j < OUT; j++) mask[j] = j === 0 || rng.next() < 0.7 ? 1 : 0;
    buf.push(x, mask, 0, -1.5, 0);
  }
  const targets = { advantages: Float32Array.from({ length: batch }, () => rng.next() - 0.5), returns: Float32Array.from({ length: batch }, () => rng.next()) };
  const o: UpdateOptions = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.01, epochs: 1, minibatchSize: batch, targetKl: 0, lr: 1e-4, seed: 1 };
  return { learner, buf, targets, o };
}

/** Update steps/s of one path; null where the path cannot run on the backend. */
async function updates(choice: BackendChoice, batch: number, path: 'host' | 'device'): Promise<Rate | null> {
  if (path === 'host' && !choice.syncReads) return null;
  const s = ppo(choice, batch, path === 'host' && choice.tfBackend !== 'tensorflow' ? 'js' : 'tf');
  const seconds = batch >= 65_536 ? SECONDS * 2 : SECONDS;
  const r = path === 'host' ? measure(() => void s.learner.update(s.buf, s.targets, s.o), seconds) : await measureAsync(async () => void (await s.learner.updateOnDevice(s.buf, s.targets, s.o)), seconds);
  s.learner.dispose();
  return r;
}

async function trainRun(choice: BackendChoice): Promise<number> {
  const registry = createRegistry();
  const { env, params } = registry.make('deal-or-no-deal-v1', {});
  const metrics: IterationMetrics[] = [];
  const t = await Trainer.create({ env, params, registry, roles: [['negotiator']], opponents: ['self'], schedule: { kind: 'simultaneous' }, iterations: ITERATIONS, config: resolveConfig({ evalEvery: 0 }), backend: choice, onIteration: (m) => metrics.push(m) });
  const t0 = performance.now();
  await t.run();
  const secs = (performance.now() - t0) / 1000;
  t.dispose();
  return metrics.reduce((n, m) => n + m.samples, 0) / secs;
}

async function main(): Promise<void> {
  console.log(`bench:gpu, node ${process.version}, ${loadNote()}`);
  const probes = await probeBackends();
  for (const p of probes) console.log(`- ${p.name}: ${p.ok ? 'available' : `unavailable (${p.reason})`}`);
  const best = await selectBackend();
  console.log(describeChoice(best));
  const names = GPU_BACKENDS.has(best.name) ? [best.name, 'wasm'] : ['wasm'];
  if (!GPU_BACKENDS.has(best.name)) console.log('no GPU backend loads here: wasm only (the GPU figures stay pending)');
  const fmt = (r: Rate | null) => (r ? r.wall.toFixed(1) : 'n/a');
  console.log('\n| backend | device | batch | hand backward, host reads: steps/s | autodiff + tfjs Adam on the device: steps/s |');
  console.log('|---|---|---:|---:|---:|');
  const rows: Record<string, Record<number, number>> = {};
  for (const name of names) {
    const choice = await selectBackend(name);
    for (const batch of BATCHES) {
      const host = await updates(choice, batch, 'host');
      const device = await updates(choice, batch, 'device');
      (rows[name] ??= {})[batch] = Math.max(host?.wall ?? 0, device?.wall ?? 0);
      console.log(`| ${name} | ${choice.device ?? 'CPU'} | ${batch.toLocaleString('en-US')} | ${fmt(host)} | ${fmt(device)} |`);
    }
  }
  if (names.length > 1) for (const batch of BATCHES) console.log(`\nbatch ${batch}: ${names[0]} / wasm = ${(rows[names[0]][batch] / rows.wasm[batch]).toFixed(1)}× (best path each)`);
  console.log(`\n| backend | arena train deal-or-no-deal-v1, ${ITERATIONS} iterations: samples/s |`);
  console.log('|---|---:|');
  for (const name of names) console.log(`| ${name} | ${Math.round(await trainRun(await selectBackend(name))).toLocaleString('en-US')} |`);
  console.log(`\n(${loadNote()})`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
