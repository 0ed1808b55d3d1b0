/**
 * Shared plumbing of the learning benchmarks: run a training job on the default CPU backend
 * with a CPU-time budget, play held-out evaluation episodes with given agents, and report.
 */
import type { Agent } from '../../src/core/agent';
import type { Env, SeatInfo } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import type { Registry } from '../../src/core/registry';
import { Rng, deriveSeed } from '../../src/core/rng';
import { runMatch } from '../../src/match/runner';
import { describeChoice, selectBackend } from '../../src/train/backend';
import { resolveConfig, type TrainConfigInput } from '../../src/train/config';
import { policyAgent } from '../../src/train/policy-agents';
import { PolicyModel } from '../../src/train/policy-model';
import type { Schedule } from '../../src/train/schedule';
import type { OpponentMode } from '../../src/train/seat-plan';
import { Trainer, type IterationMetrics } from '../../src/train/trainer';
import { cloneWeights } from '../../src/train/mlp';

/**
 * The same env (same id, so checkpoints stay valid for it) whose `init` redraws, with derived
 * seeds, every start state that `reject` refuses: training that never sees held-out instances,
 * or only solvable puzzles.
 */
export function withFilteredInit<S>(env: Env<S>, reject: (state: S) => boolean, tries = 1000): Env<S> {
  const init = (params: Params, seed: number | string): S => {
    for (let i = 0; i < tries; i++) {
      const s = env.init(params, i === 0 ? seed : `${seed}/redraw-${i}`);
      if (!reject(s)) return s;
    }
    throw new Error(`${env.meta.id}: no acceptable start state in ${tries} draws from seed ${seed}`);
  };
  return { ...env, init };
}

/** Seconds of CPU time used by this process so far. */
export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** What a learning task reports. */
export interface TaskReport {
  task: string;
  targets: { name: string; value: number; goal: string; pass: boolean }[];
  notes: string[];
  wallSeconds: number;
  cpuSeconds: number;
  iterations: number;
  curve: Record<string, JsonValue>[];
}

export interface TrainJob {
  env: Env;
  params: Params;
  registry: Registry;
  roles: string[][];
  opponents?: OpponentMode[];
  schedule?: Schedule;
  iterations: number;
  config: TrainConfigInput;
  outDir?: string;
  /** Stop early when this process has used this many CPU seconds. */
  cpuBudget: number;
  /** Called once the trainer exists, before the first iteration (e.g. to start from given weights). */
  prepare?: (t: Trainer) => void;
  /** Called after each iteration (progress line, curve points). */
  onIteration?: (m: IterationMetrics, t: Trainer) => void | Promise<void>;
}

/** A trainer for `job`, not started (the caller steps it and disposes it). */
export async function createTrainer(job: Omit<TrainJob, 'cpuBudget' | 'onIteration'>): Promise<Trainer> {
  const backend = await selectBackend(process.env.ARENA_BACKEND);
  console.error(describeChoice(backend));
  const trainer = await Trainer.create({
    env: job.env,
    params: job.params,
    registry: job.registry,
    roles: job.roles,
    opponents: job.opponents ?? ['self'],
    schedule: job.schedule ?? { kind: 'simultaneous' },
    iterations: job.iterations,
    config: resolveConfig(job.config),
    backend,
    outDir: job.outDir,
    signal: new AbortController().signal,
  });
  job.prepare?.(trainer);
  return trainer;
}

/** Runs a training job; returns the trainer (caller disposes) and every iteration's metrics. */
export async function train(job: TrainJob): Promise<{ trainer: Trainer; metrics: IterationMetrics[] }> {
  const metrics: IterationMetrics[] = [];
  const trainer = await createTrainer(job);
  while (trainer.iteration < job.iterations) {
    const m = (await trainer.step())!; // no signal: never abandoned
    metrics.push(m);
    await job.onIteration?.(m, trainer);
    if (cpuSeconds() > job.cpuBudget) {
      console.error(`CPU budget of ${job.cpuBudget} s reached after ${trainer.iteration} iterations`);
      break;
    }
  }
  return { trainer, metrics };
}

/** An agent from a learner's current weights (a frozen copy): greedy, or sampling with `seed`. */
export function policyFrom(trainer: Trainer, learnerId: string, seed: number | null = null): Agent {
  const e = trainer.entries.find((x) => x.id === learnerId);
  if (!e) throw new Error(`no learner ${learnerId}`);
  const model = new PolicyModel(e.learner.layout, e.learner.model.encoder, cloneWeights(e.learner.weights));
  return policyAgent(`trained-${learnerId}`, model, seed === null ? null : Rng.fromSeed(seed));
}

/** A greedy (argmax) agent from a learner's current weights (a frozen copy). */
export function greedyFrom(trainer: Trainer, learnerId: string): Agent {
  return policyFrom(trainer, learnerId, null);
}

/** Plays one episode per params entry; returns the episode summaries, returns and seats. */
export async function playEpisodes(
  env: Env,
  paramsList: readonly Params[],
  agents: (k: number, seats: readonly SeatInfo[]) => Agent[],
  seed = 1,
): Promise<{ summaries: JsonValue[]; returns: number[][]; seats: SeatInfo[][] }> {
  const summaries: JsonValue[] = [];
  const returns: number[][] = [];
  const seats: SeatInfo[][] = [];
  for (let k = 0; k < paramsList.length; k++) {
    const r = await runMatch({ env, params: paramsList[k], seed: deriveSeed(seed, 'heldout', k), agents: (s) => agents(k, s) });
    summaries.push(r.summary);
    returns.push(r.returns);
    seats.push(r.seats);
  }
  return { summaries, returns, seats };
}

/** Prints a task report as a markdown table plus one JSON line. */
export function printReport(r: TaskReport): void {
  console.log(`\n### ${r.task}\n`);
  console.log('| target | measured | goal | met |');
  console.log('|---|---:|---|---|');
  for (const t of r.targets) console.log(`| ${t.name} | ${Number.isInteger(t.value) ? t.value : t.value.toFixed(3)} | ${t.goal} | ${t.pass ? 'yes' : 'NO'} |`);
  console.log(`\n${r.iterations} iterations, ${r.wallSeconds.toFixed(0)} s wall, ${r.cpuSeconds.toFixed(0)} s CPU`);
  for (const n of r.notes) console.log(`- ${n}`);
  console.log(`\nJSON ${JSON.stringify({ task: r.task, targets: r.targets, iterations: r.iterations, wallSeconds: r.wallSeconds, cpuSeconds: r.cpuSeconds, curve: r.curve })}`);
}
