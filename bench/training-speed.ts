/**
 * Training speed on the CPU, side by side with eager PyTorch doing exactly the same work
 * (issue 25). Prints markdown tables:
 *
 * 1. update: the PPO minibatch step on 64→256→256→16 + value, batch 256 (masked PPO loss, clip
 *    0.2, value 0.5, entropy 0.01, global-norm clipping 0.5, Adam) — the arena's update paths
 *    and the PyTorch peer (bench/pytorch-update.py: same weights, same batch, plain and
 *    `foreach` Adam, one thread, OPENBLAS_NUM_THREADS=1, the BLAS it really loaded read from
 *    /proc/self/maps). The sides run in interleaved rounds (the order rotates every round), so
 *    load on the shared machine hits them alike; the table gives each side's median over the
 *    rounds, per CPU-second of its own process and per wall second, and the ratios.
 *    `dond-update`: the same comparison on Deal-or-No-Deal's network (144→128→128→364 + value)
 *    and 256 decisions recorded from its self-play (sparse inputs, ~6% of the actions legal).
 * 2. acting: rollouts of Deal-or-No-Deal self-play (decisions per CPU-second) by lanes.
 *
 * The load average is printed with every round and table. End-to-end training against an older
 * build: bench/train-e2e.ts.
 * Usage: npm run bench:train-speed [-- --seconds 2 --rounds 5 --only update,dond-update,acting --before old.wasm]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createRegistry } from '../app/catalog';
import { selectBackend, type BackendChoice } from '../src/train/backend';
import { resolveConfig, type TrainConfigInput } from '../src/train/config';
import { Trainer } from '../src/train/trainer';
import type { OptimizerImpl } from '../src/train/learner';
import { relaxedSimdAvailable, useFusedFile, useFusedFlavour } from '../src/train/fused/wasm';
import { FusedNet } from '../src/train/fused/fused-net';
import { layerSizes, MlpForward, type MlpWeights } from '../src/train/mlp';
import { PolicyModel } from '../src/train/policy-model';
import { ppoSetup, setupFrom, writePeerData, type PpoSetup } from './ppo-fixture';
import { SampleBuffer } from '../src/train/sample-buffer';
import { computeTargets } from '../src/train/targets';
import { loadNote, measureAsync, type Rate } from './rate';
import { TorchPeer, type Window } from './torch-peer';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SECONDS = Number(arg('--seconds')) || 0.5;
const ROUNDS = Number(arg('--rounds')) || 20;
const ONLY = new Set((arg('--only') ?? 'update,dond-update,acting').split(','));
/** Another build of the fused module (e.g. `git show OLD:assembly/fused-mlp.wasm > old.wasm`): one more side of the update table. */
const BEFORE = arg('--before');
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Runs `step` for about `seconds` after `warm` untimed calls: steps, wall and CPU seconds of this process. */
export function timeWindow(step: () => void, seconds: number, warm = 2): Window {
  for (let i = 0; i < warm; i++) step();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let steps = 0;
  do {
    step();
    steps++;
  } while (performance.now() < end);
  const c = process.cpuUsage(cpu0);
  return { steps, wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

/** One side of the update table: a label and a timed window. */
interface Side {
  label: string;
  window(seconds: number): Promise<Window>;
}

/** Makes a fresh learner and batch of one update table (each side gets its own). */
type MakeSetup = (choice: BackendChoice, impl?: OptimizerImpl) => PpoSetup;

/**
 * The batch of the second update table: the first 256 decisions of one iteration of
 * Deal-or-No-Deal self-play (default config) with their targets, and the network's initial weights.
 */
async function dondBatch(wasm: BackendChoice): Promise<{ title: string; make: MakeSetup }> {
  const trainer = await dondTrainer(wasm, {});
  await trainer.rollouts();
  const e = trainer.entries[0];
  const cfg = resolveConfig({});
  const all = computeTargets(e.buf, { algorithm: cfg.algorithm, gamma: cfg.gamma, lambda: cfg.lambda, normalizeAdvantages: cfg.normalizeAdvantages, groupBy: cfg.groupBy });
  const n = Math.min(256, e.buf.size);
  const buf = new SampleBuffer(e.buf.inputSize, e.buf.numActions, n);
  for (let i = 0; i < n; i++) buf.push(e.buf.inputs.subarray(i * buf.inputSize, (i + 1) * buf.inputSize), e.buf.masks.subarray(i * buf.numActions, (i + 1) * buf.numActions), e.buf.actions[i], e.buf.logp[i], 0);
  const targets = { advantages: all.advantages.slice(0, n), returns: all.returns.slice(0, n) };
  const weights = e.learner.weights;
  const title = `Deal-or-No-Deal ${layerSizes(weights.spec).join('→')} (${buf.numActions} actions + value), batch ${n} of recorded self-play decisions`;
  const snapshot = { spec: weights.spec, params: weights.params.map((p) => p.slice()) };
  trainer.dispose();
  return { title, make: (choice, impl) => setupFrom(snapshot, buf, targets, choice, impl) };
}

async function updateSection(title: string, make: MakeSetup): Promise<void> {
  const wasm = await selectBackend('wasm');
  console.log(`## Update: PPO minibatch step, ${title}, one thread\n`);
  const check = make(wasm);
  const dir = mkdtempSync(join(tmpdir(), 'arena-peer-'));
  writePeerData(dir, check);
  const first = check.learner.update(check.buf, check.targets, check.o);
  check.learner.dispose();
  const peer = await TorchPeer.start(dir);
  rmSync(dir, { recursive: true, force: true });
  const sides: Side[] = [];
  const arena = (label: string, choice: BackendChoice, impl?: OptimizerImpl) => {
    const s = make(choice, impl);
    sides.push({ label, window: async (sec) => timeWindow(() => void s.learner.update(s.buf, s.targets, s.o), sec) });
  };
  useFusedFlavour('simd');
  arena('arena, fused WebAssembly SIMD module (default)', wasm);
  if (BEFORE) {
    useFusedFile(BEFORE);
    arena(`arena, fused module, build ${basename(BEFORE)} (before)`, wasm);
    useFusedFile(undefined);
  }
  if (relaxedSimdAvailable()) {
    useFusedFlavour('relaxed');
    arena('arena, fused module, relaxed-SIMD FMA', wasm);
  } else console.log('(relaxed SIMD: this runtime does not validate it; node --experimental-wasm-relaxed-simd adds that row)');
  useFusedFlavour(undefined);
  arena('arena, tfjs-wasm: hand-written backward, JS loss and Adam (default until issue 25)', wasm, 'js');
  if ('reason' in peer) console.log(`PyTorch: not measured (${peer.reason})\n`);
  else {
    const i = peer.info;
    console.log(`PyTorch ${i.torch}, ${i.threads} thread; BLAS loaded (from /proc/self/maps): ${i.blas.join(', ') || 'none mapped'}; torch's build flag BLAS_INFO=${i.blasBuild || '?'}`);
    console.log(`Same step checked: first-step loss arena ${first.loss.toFixed(6)} vs PyTorch ${i.check.loss.toFixed(6)}, gradient norm ${first.gradNorm.toFixed(6)} vs ${i.check.gradNorm.toFixed(6)}\n`);
    sides.push({ label: 'PyTorch, plain Adam (foreach=False)', window: (sec) => peer.run('plain', sec) });
    sides.push({ label: 'PyTorch, foreach Adam', window: (sec) => peer.run('foreach', sec) });
  }
  const perCpu: number[][] = sides.map(() => []);
  const perWall: number[][] = sides.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    const order = sides.map((_, k) => (k + r) % sides.length);
    for (const k of order) {
      const w = await sides[k].window(SECONDS);
      perCpu[k].push(w.steps / w.cpu);
      perWall[k].push(w.steps / w.wall);
    }
    if ((r + 1) % 5 === 0 || r + 1 === ROUNDS) console.log(`rounds ${r + 1}/${ROUNDS} (${loadNote()})`);
  }
  if (!('reason' in peer)) peer.stop();
  const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))];
  console.log(`\n${ROUNDS} interleaved rounds of ${SECONDS} s windows per side; the ratio column is the median over rounds of (arena default ÷ side) within a round.\n`);
  console.log('| side | steps per CPU-second (median; quartiles) | steps/s wall (median) | arena default ÷ side, per CPU-second (median of rounds; quartiles) |');
  console.log('|---|---:|---:|---:|');
  sides.forEach((s, k) => {
    const ratios = perCpu[0].map((a, r) => a / perCpu[k][r]);
    const ratio = k === 0 ? '–' : `${median(ratios).toFixed(2)}× (${q(ratios, 0.25).toFixed(2)}–${q(ratios, 0.75).toFixed(2)})`;
    console.log(`| ${s.label} | ${fmt(median(perCpu[k]), 1)} (${fmt(q(perCpu[k], 0.25), 1)}–${fmt(q(perCpu[k], 0.75), 1)}) | ${fmt(median(perWall[k]), 1)} | ${ratio} |`);
  });
  console.log(`\n(${loadNote()})\n`);
}

function dondTrainer(backend: BackendChoice, config: TrainConfigInput): Promise<Trainer> {
  const registry = createRegistry();
  const { env, params } = registry.make('deal-or-no-deal-v1', {});
  return Trainer.create({
    env,
    params,
    registry,
    roles: [['negotiator']],
    opponents: ['self'],
    schedule: { kind: 'simultaneous' },
    iterations: 1,
    config: resolveConfig({ evalEvery: 0, ...config }),
    backend,
  });
}

/** Rollouts only of Deal-or-No-Deal self-play (the default config, and `config`): decisions/s. */
async function dondActing(backend: BackendChoice, config: TrainConfigInput): Promise<Rate> {
  const trainer = await dondTrainer(backend, config);
  // every call replays the same iteration's seeds: the same decisions each time
  const perRollout = await trainer.rollouts();
  const rate = await measureAsync(async () => void (await trainer.rollouts()), SECONDS * 4);
  trainer.dispose();
  return { wall: rate.wall * perRollout, cpu: rate.cpu * perRollout };
}

/** Runs `f` with the acting forward pass of before issue 25 swapped in: the JS forward, row after row (MlpForward). */
async function withJsForward<T>(f: () => Promise<T>): Promise<T> {
  type Model = { weights: MlpWeights; mask: Float32Array };
  const proto = PolicyModel.prototype as unknown as { forwardRows(this: Model, x: Float32Array, rows: number, masks: Float32Array): Float32Array };
  const fused = proto.forwardRows;
  const js = new WeakMap<MlpWeights, MlpForward>();
  proto.forwardRows = function (this: Model, x, rows, masks) {
    let m = js.get(this.weights);
    if (!m) js.set(this.weights, (m = new MlpForward(this.weights)));
    return m.run(x, rows, masks, this.mask.length);
  };
  try {
    return await f();
  } finally {
    proto.forwardRows = fused;
  }
}

/**
 * One network's forward passes, per CPU-second, at `lanes` rows per pass: the JS forward one row
 * at a time (what acting did before issue 25) against the fused module's one call for all rows,
 * interleaved; inputs and legal masks are `rows` real decisions.
 */
function forwardRatio(label: string, w: MlpWeights, inputs: Float32Array, masks: Float32Array, rows: number, lanes: number): void {
  const inSize = w.spec.inputSize;
  const units = masks.length / rows;
  const js = new MlpForward(w);
  const fused = new FusedNet(w, { rows: lanes });
  const groups = Math.floor(rows / lanes);
  const perRow = () => {
    for (let r = 0; r < groups * lanes; r++) js.run(inputs.subarray(r * inSize, (r + 1) * inSize), 1, masks.subarray(r * units, (r + 1) * units), units);
  };
  const batched = () => {
    for (let g = 0; g < groups; g++) fused.forward(inputs.subarray(g * lanes * inSize), lanes, masks.subarray(g * lanes * units), units);
  };
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const x = timeWindow(perRow, SECONDS / 2, 1);
    const y = timeWindow(batched, SECONDS / 2, 1);
    a.push((x.steps * groups * lanes) / x.cpu);
    b.push((y.steps * groups * lanes) / y.cpu);
  }
  const ratios = a.map((v, k) => b[k] / v);
  console.log(`| ${label} | ${lanes} | ${fmt(median(a))} | ${fmt(median(b))} | ${median(ratios).toFixed(2)}× |`);
}

async function actingSection(): Promise<void> {
  const wasm = await selectBackend('wasm');
  console.log('## Acting: the forward pass, one row at a time in JS (before) vs one fused call per network (after)\n');
  console.log(`${ROUNDS} interleaved rounds; rows per CPU-second, medians; the ratio is the median of the rounds' ratios.\n`);
  console.log('| network and inputs | rows per pass (lanes) | JS, row by row | fused module, one call | fused ÷ JS |');
  console.log('|---|---:|---:|---:|---:|');
  const trainer = await dondTrainer(wasm, {});
  await trainer.rollouts();
  const e = trainer.entries[0];
  const n = e.buf.size;
  const dond = `Deal-or-No-Deal ${layerSizes(e.learner.weights.spec).join('→')}, ${n} recorded decisions`;
  for (const lanes of [1, 16, 64]) forwardRatio(dond, e.learner.weights, e.buf.inputs.subarray(0, n * e.buf.inputSize), e.buf.masks.subarray(0, n * e.buf.numActions), n, lanes);
  trainer.dispose();
  const fx = ppoSetup(wasm, 256);
  forwardRatio('the update fixture 64→256→256→17, dense inputs', fx.weights, fx.buf.inputs.subarray(0, 256 * 64), fx.buf.masks.subarray(0, 256 * 16), 256, 16);
  console.log(`\n(${loadNote()})\n`);

  console.log('## Acting: Deal-or-No-Deal self-play rollouts, decisions per CPU-second\n');
  console.log('| forward | episodes in lockstep | decisions/s (best window) | decisions per CPU-second |');
  console.log('|---|---:|---:|---:|');
  for (const e of [1, 16, 64]) {
    const before = await withJsForward(() => dondActing(wasm, { envsPerBatch: e }));
    const after = await dondActing(wasm, { envsPerBatch: e });
    console.log(`| JS, row by row (before) | ${e} | ${fmt(before.wall)} | ${fmt(before.cpu)} |`);
    console.log(`| fused module, one call per network and turn | ${e}${e === 16 ? ' (default)' : ''} | ${fmt(after.wall)} | ${fmt(after.cpu)} |`);
  }
  console.log(`\n(${loadNote()})\n`);
}

async function main(): Promise<void> {
  console.log(`training speed (issue 25), node ${process.version}, ${loadNote()}\n`);
  if (ONLY.has('update')) await updateSection('64→256→256→16 + value, batch 256', (choice, impl) => ppoSetup(choice, 256, impl));
  if (ONLY.has('dond-update')) {
    const d = await dondBatch(await selectBackend('wasm'));
    await updateSection(d.title, d.make);
  }
  if (ONLY.has('acting')) await actingSection();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
