/**
 * The Countdown curriculum experiment: per seed, the solver trains from scratch in each arm
 * (arms.ts) on the same number of puzzles and attempts (GRPO: the K attempts at a puzzle are
 * its group), then plays 5-number held-out puzzles (and 4-number ones, for reference) greedily,
 * one attempt each. The challenger arm also records its difficulty curve: per iteration, its
 * distribution over the knobs, the solver's success on what it posed, the posed puzzles' mean
 * number count and exact-solver search effort, and a frozen solver's (the greedy baseline's)
 * success on them (from a per-knob reference table).
 *
 * Resumable like the payoff experiment: the trainer resumes from its checkpoints, the
 * challenger from its per-iteration log (`curve.jsonl`, cut back to the checkpoint), and
 * finished steps are recorded in the ledger.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../../../src/core/agent';
import type { Env } from '../../../src/core/env';
import type { JsonValue } from '../../../src/core/json';
import type { Params } from '../../../src/core/params';
import type { Registry } from '../../../src/core/registry';
import { deriveSeed } from '../../../src/core/rng';
import { resolveConfig, type TrainConfigInput } from '../../../src/train/config';
import { loadCheckpoint } from '../../../src/train/checkpoint';
import { policyAgent } from '../../../src/train/policy-agents';
import { checkLayoutFor, PolicyModel } from '../../../src/train/policy-model';
import { checkpointFile, statePath } from '../../../src/train/run-state';
import { selectBackend } from '../../../src/train/backend';
import { Trainer } from '../../../src/train/trainer';
import { difficultyFromEffort, frontierAggregate, knobStats, ParamChallenger, type ParamChallengerOptions } from '../../../league/curriculum/param-challenger';
import { cpuSeconds, playEpisodes, withFilteredInit } from '../common';
import { Ledger } from '../payoff/ledger';
import { runSteps, type Step } from '../payoff/steps';
import { BASE, CURRICULUM_ARMS, fixedSources, generatorShares, knobEfforts, KNOBS, type CurriculumArm } from './arms';

/** The scale of a run. */
export interface CurriculumScale {
  iterations: number;
  /** Puzzles per iteration (each with K = 8 attempts). */
  puzzles: number;
  /** Held-out puzzles per set. */
  heldOut: number;
  /** Puzzles per knob in the frozen-solver reference table. */
  reference: number;
}

/** What a run needs. */
export interface CurriculumRun {
  scale: CurriculumScale;
  seeds: readonly number[];
  dir: string;
  registry: Registry;
  arms?: readonly CurriculumArm[];
  backend?: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Overrides of the challenger's settings ({@link challengerOptions}). */
  challenger?: ParamChallengerOptions;
}

/**
 * The challenger's settings here unless a run overrides them: the difficulty term on (weight
 * `difficultyWeight`, the knobs' difficulty from the exact solver's search effort on 100 of
 * their puzzles) and the step size `lr`. Step 2, not the challenger's own default 0.5: the
 * 5-number knobs start ~9 logits below the generator's knobs (the warm start gives a knob the
 * generator never deals 1e-4), and at rewards of ~0.1–0.3 a step of 0.5 takes most of a
 * 300-iteration run to close that gap. Chosen on the training curve of one pilot seed (its share
 * of 5-number puzzles), not on held-out scores.
 */
export const CHALLENGER_DEFAULTS = { difficultyWeight: 0.9, lr: 2 } as const;

/** The challenger's options of a run: a floor of one puzzle per knob per iteration, the difficulty term, then the run's overrides. */
export function challengerOptions(r: Pick<CurriculumRun, 'scale' | 'challenger'>, env: Env): ParamChallengerOptions {
  return { puzzles: r.scale.puzzles, difficulty: difficultyFromEffort(knobEfforts(env, KNOBS)), ...CHALLENGER_DEFAULTS, ...r.challenger };
}

/** The solver's training config (the co-evolution example's solver). */
export const SOLVER_CONFIG: TrainConfigInput = { algorithm: 'grpo', groupSize: 1, epochs: 2, minibatchSize: 512, hidden: [256, 256], lr: 5e-4, entropyCoef: 0.001, actions: { solver: [[0, 90]] }, evalEvery: 0, checkpointEvery: 10 };

/** One iteration of an arm, as logged. */
export interface CurvePoint {
  iteration: number;
  /** Probability of each source (knob) this iteration. */
  weights: Record<string, number>;
  /** Per source: puzzles, the solver's success on them, their mean count and exact-solver nodes. */
  sources: Record<string, { puzzles: number; solveRate: number; meanCount: number; nodes: number; uncertainty: number }>;
  /** The challenger's logits after its update (challenger arm). */
  theta?: number[];
  rewards?: (number | null)[];
}

interface PuzzleSummary {
  numbers: number[] | null;
  target: number | null;
  verdict: { reachable: boolean; nodes: number } | null;
  solved: number;
}

const keyOf = (p: PuzzleSummary) => `${[...(p.numbers ?? [])].sort((a, b) => a - b).join(',')}=${p.target}`;

/** The first `n` solvable puzzles the generator deals under `params` from seeds derived from `tag`. */
function solvable(env: Env, params: Params, n: number, tag: string): PuzzleSummary[] {
  const out: PuzzleSummary[] = [];
  for (let k = 0; out.length < n; k++) {
    const p = env.summary(env.init(params, deriveSeed(4242, tag, k))) as unknown as PuzzleSummary;
    if (p.verdict?.reachable) out.push(p);
  }
  return out;
}

/** The held-out sets: solvable 5-number puzzles (the hard distribution) and 4-number ones. */
export function heldOutSets(env: Env, n: number): { hard: PuzzleSummary[]; four: PuzzleSummary[] } {
  const at = (count: number) => env.resolveParams({ ...BASE, attempts: 1, contract: { count } });
  return { hard: solvable(env, at(5), n, 'curriculum-heldout-5'), four: solvable(env, at(4), n, 'curriculum-heldout-4') };
}

/** Success of `agent` on `list` (one attempt each). */
async function successOn(env: Env, list: readonly PuzzleSummary[], agent: Agent): Promise<number> {
  const params = list.map((p) => env.resolveParams({ ...BASE, attempts: 1, numbers: p.numbers, target: p.target }));
  const r = await playEpisodes(env, params, () => [agent], 3);
  return r.summaries.reduce((s: number, x) => s + (x as unknown as PuzzleSummary).solved, 0) / list.length;
}

const trainKey = (arm: CurriculumArm, seed: number) => `train-${arm}-${seed}`;
const evalKey = (arm: CurriculumArm, seed: number) => `eval-${arm}-${seed}`;

/** The steps: the knob reference table, each arm's training, then its held-out evaluation. */
export function curriculumSteps(seeds: readonly number[], arms: readonly CurriculumArm[] = CURRICULUM_ARMS): Step[] {
  return [
    { key: 'reference', after: [] },
    ...seeds.flatMap((s) => arms.map((a) => ({ key: trainKey(a, s), after: [] }))),
    ...seeds.flatMap((s) => arms.map((a) => ({ key: evalKey(a, s), after: [trainKey(a, s)] }))),
  ];
}

/** Per knob: the greedy baseline's success (one attempt) and the exact solver's mean search effort on its solvable puzzles. */
export type ReferenceTable = Record<string, { greedy: number; nodes: number; solvable: number }>;

async function referenceTable(r: CurriculumRun, env: Env): Promise<ReferenceTable> {
  const greedy = (await r.registry.createAgent('greedy', { env, params: env.resolveParams(BASE), seed: 5 })).agent;
  const out: ReferenceTable = {};
  for (const k of KNOBS) {
    const params = env.resolveParams({ ...BASE, attempts: 1, ...k.params });
    const drawn = Array.from({ length: r.scale.reference }, (_, i) => env.summary(env.init(params, deriveSeed(77, k.label, i))) as unknown as PuzzleSummary);
    const ok = drawn.filter((p) => p.verdict?.reachable);
    out[k.label] = { greedy: ok.length ? await successOn(env, ok, greedy) : 0, nodes: ok.reduce((t, p) => t + p.verdict!.nodes, 0) / Math.max(1, ok.length), solvable: ok.length / drawn.length };
  }
  return out;
}

/** Reads the curve log up to iteration `upTo` (later lines, from a run killed after its last checkpoint, are dropped). */
function readCurve(file: string, upTo: number): CurvePoint[] {
  if (!existsSync(file)) return [];
  const points = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CurvePoint).filter((p) => p.iteration <= upTo);
  writeFileSync(file, points.map((p) => JSON.stringify(p) + '\n').join(''));
  return points;
}

/** Trains one arm of one seed; false when stopped. */
async function trainArm(r: CurriculumRun, arm: CurriculumArm, seed: number): Promise<boolean> {
  const countdown = r.registry.env('countdown-v1');
  const held = heldOutSets(countdown, r.scale.heldOut);
  const excluded = new Set([...held.hard, ...held.four].map(keyOf));
  const env = frontierAggregate(withFilteredInit(countdown, (s) => excluded.has(keyOf(countdown.summary(s) as unknown as PuzzleSummary))));
  const dir = join(r.dir, `${arm}-${seed}`);
  const curveFile = join(dir, 'curve.jsonl');
  const challenger = arm === 'challenger' ? new ParamChallenger(KNOBS, generatorShares(countdown, KNOBS), challengerOptions(r, countdown)) : null;
  const N = r.scale.iterations;
  const sources = (it: number) => (challenger ? challenger.sources(env, BASE) : fixedSources(arm as Exclude<CurriculumArm, 'challenger'>, env, it, N));
  const trainer = await Trainer.create({
    env,
    params: env.resolveParams(BASE),
    registry: r.registry,
    roles: [['solver']],
    opponents: ['self'],
    schedule: { kind: 'simultaneous' },
    iterations: N,
    config: resolveConfig({ ...SOLVER_CONFIG, episodesPerIteration: r.scale.puzzles, seed: deriveSeed(seed, 'curriculum-solver') % 1_000_000 }),
    backend: await selectBackend(r.backend),
    outDir: dir,
    resume: existsSync(statePath(dir)),
    runId: `curriculum-${arm}-${seed}`,
    sources,
  });
  try {
    const before = readCurve(curveFile, trainer.iteration);
    const last = before[before.length - 1];
    if (challenger && last?.theta) challenger.restore({ theta: last.theta });
    while (trainer.iteration < N) {
      const weights = Object.fromEntries(sources(trainer.iteration).map((s) => [s.label, s.weight]));
      const m = await trainer.step(r.signal);
      if (!m) return false;
      const point: CurvePoint = { iteration: m.iteration, weights, sources: {} };
      for (const [label, s] of Object.entries(m.sources ?? {})) {
        const e = (s.envStats ?? {}) as { solveRate?: number; meanSolverNodes?: number; frontier?: { puzzles: number; meanCount: number; uncertainty: number } };
        point.sources[label] = { puzzles: s.episodes, solveRate: e.solveRate ?? NaN, meanCount: e.frontier?.meanCount ?? NaN, nodes: e.meanSolverNodes ?? NaN, uncertainty: e.frontier?.uncertainty ?? NaN };
      }
      if (challenger) {
        point.rewards = challenger.update(knobStats(m.sources as Record<string, { envStats?: { [key: string]: JsonValue } }>)).rewards;
        point.theta = challenger.state().theta;
      }
      appendFileSync(curveFile, JSON.stringify(point) + '\n');
      if (m.iteration % 25 === 0) r.log?.(`countdown ${arm}-${seed}: iteration ${m.iteration}/${N}, success on its puzzles ${weighted(point, 'solveRate').toFixed(3)}, mean count ${weighted(point, 'meanCount').toFixed(2)}`);
    }
    return true;
  } finally {
    trainer.dispose();
  }
}

/** A source-weighted (by puzzles) mean of a per-source figure of a curve point. */
export function weighted(p: CurvePoint, key: 'solveRate' | 'meanCount' | 'nodes' | 'uncertainty'): number {
  let t = 0;
  let n = 0;
  for (const s of Object.values(p.sources)) {
    if (!Number.isFinite(s[key]) || !s.puzzles) continue;
    t += s[key] * s.puzzles;
    n += s.puzzles;
  }
  return n ? t / n : NaN;
}

/** An arm's evaluation: held-out success, and its curve. */
export interface CurriculumResult {
  seed: number;
  arm: CurriculumArm;
  hard: number;
  four: number;
  curve: CurvePoint[];
  cpu: { train: number; eval: number };
}

async function evalArm(r: CurriculumRun, arm: CurriculumArm, seed: number): Promise<{ hard: number; four: number }> {
  const env = r.registry.env('countdown-v1');
  const ckpt = loadCheckpoint(checkpointFile(join(r.dir, `${arm}-${seed}`), 'solver', 'latest'));
  const agent = policyAgent('solver', new PolicyModel(ckpt.layout, checkLayoutFor(ckpt.layout, env), ckpt.weights), null);
  const held = heldOutSets(env, r.scale.heldOut);
  return { hard: await successOn(env, held.hard, agent), four: await successOn(env, held.four, agent) };
}

/** Runs one step (skipped when recorded); false when stopped. */
export async function runCurriculumStep(r: CurriculumRun, key: string): Promise<boolean> {
  const ledger = new Ledger(r.dir);
  if (ledger.has(key)) return true;
  const c0 = cpuSeconds();
  if (key === 'reference') {
    ledger.put(key, await referenceTable(r, r.registry.env('countdown-v1')));
    return true;
  }
  const parts = key.split('-');
  const arm = parts.slice(1, -1).join('-') as CurriculumArm;
  const seed = Number(parts[parts.length - 1]);
  if (!CURRICULUM_ARMS.includes(arm) || !Number.isInteger(seed)) throw new Error(`curriculum: unknown step "${key}"`);
  if (parts[0] === 'train') {
    const ok = await trainArm(r, arm, seed);
    const cpu = cpuSeconds() - c0;
    if (!ok) {
      ledger.addSpent(key, cpu);
      return false;
    }
    ledger.put(key, { cpu: cpu + (ledger.get<number>(`spent-${key}`) ?? 0) });
    return true;
  }
  ledger.put(key, { ...(await evalArm(r, arm, seed)), cpu: cpuSeconds() - c0 });
  return true;
}

/** Runs every step not yet recorded; the results (and the reference table), or null when stopped. */
export async function runCurriculum(r: CurriculumRun, jobs = 1, runOne: (key: string) => Promise<boolean> = (k) => runCurriculumStep(r, k)): Promise<{ results: CurriculumResult[]; reference: ReferenceTable } | null> {
  const ledger = new Ledger(r.dir);
  const arms = r.arms ?? CURRICULUM_ARMS;
  if (!(await runSteps(curriculumSteps(r.seeds, arms), (k) => ledger.has(k), jobs, runOne)) || r.signal?.aborted) return null;
  const results = r.seeds.flatMap((seed) =>
    arms.map((arm) => {
      const e = ledger.get<{ hard: number; four: number; cpu: number }>(evalKey(arm, seed))!;
      const curve = readCurve(join(r.dir, `${arm}-${seed}`, 'curve.jsonl'), Infinity);
      return { seed, arm, hard: e.hard, four: e.four, curve, cpu: { train: ledger.get<{ cpu: number }>(trainKey(arm, seed))!.cpu, eval: e.cpu } };
    }),
  );
  return { results, reference: ledger.get<ReferenceTable>('reference')! };
}
