/**
 * `npm run bench:gpu`: the GPU backend against wasm on the same machine, as one prepared run
 * (issue 18). Prints the backends probed (with the reasons of those that cannot load), the
 * chosen backend and its device, then a markdown table of PPO update steps/s on
 * 64→256→256→16 (+ value) at batch 256, 4,096 and 65,536 for both update paths where they run
 * (the hand-written backward with host reads; tfjs autodiff + tfjs Adam on the device; on a CPU
 * backend also the fused WebAssembly module, the CPU default since issue 25, so the GPU / wasm
 * ratio is taken against the fastest CPU path), and one
 * env's training run (Deal-or-No-Deal self-play, default config, `--iterations` iterations):
 * samples/s. Without a GPU backend it measures wasm alone and says why.
 * Usage: npm run bench:gpu [-- --seconds 3 --iterations 4 --batches 256,4096,65536]
 */
import { createRegistry } from '../app/catalog';
import { describeChoice, probeBackends, selectBackend, type BackendChoice } from '../src/train/backend';
import { CPU_BACKENDS } from '../src/train/learner';
import { resolveConfig } from '../src/train/config';
import { Trainer, type IterationMetrics } from '../src/train/trainer';
import { ppoSetup } from './ppo-fixture';
import { loadNote, measure, measureAsync, type Rate } from './rate';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SECONDS = Number(arg('--seconds')) || 3;
const ITERATIONS = Number(arg('--iterations')) || 4;
const BATCHES = (arg('--batches') ?? '256,4096,65536').split(',').map(Number);
const GPU_BACKENDS = new Set(['tfjs-node-gpu', 'webgpu']);

/** Update steps/s of one path; null where the path cannot run on the backend. */
async function updates(choice: BackendChoice, batch: number, path: 'host' | 'device' | 'fused'): Promise<Rate | null> {
  if (path === 'host' && !choice.syncReads) return null;
  if (path === 'fused' && !CPU_BACKENDS.has(choice.name)) return null;
  const s = ppoSetup(choice, batch, path === 'fused' ? 'fused' : path === 'host' && choice.tfBackend !== 'tensorflow' ? 'js' : 'tf');
  const seconds = batch >= 65_536 ? SECONDS * 2 : SECONDS;
  const r = path !== 'device' ? measure(() => void s.learner.update(s.buf, s.targets, s.o), seconds) : await measureAsync(async () => void (await s.learner.updateOnDevice(s.buf, s.targets, s.o)), seconds);
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
  console.log('\n| backend | device | batch | hand backward, host reads: steps/s | autodiff + tfjs Adam on the device: steps/s | fused WebAssembly module (the CPU default): steps/s |');
  console.log('|---|---|---:|---:|---:|---:|');
  const rows: Record<string, Record<number, number>> = {};
  for (const name of names) {
    const choice = await selectBackend(name);
    for (const batch of BATCHES) {
      const host = await updates(choice, batch, 'host');
      const device = await updates(choice, batch, 'device');
      const fused = await updates(choice, batch, 'fused');
      (rows[name] ??= {})[batch] = Math.max(host?.wall ?? 0, device?.wall ?? 0, fused?.wall ?? 0);
      console.log(`| ${name} | ${choice.device ?? 'CPU'} | ${batch.toLocaleString('en-US')} | ${fmt(host)} | ${fmt(device)} | ${fmt(fused)} |`);
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
