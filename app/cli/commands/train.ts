/**
 * `arena train <env> --roles ... [--opponents self|baselines|checkpoints] [--iterations N]
 * [--params JSON] [--config JSON] [--algo ppo|grpo|rloo] [--backend NAME] [--out DIR]
 * [--resume] [--schedule simultaneous|alternate:K] [--seed N] [--envs-per-batch E] [--sync | --overlap] [--json]`
 *
 * Prints the chosen backend first, then progress (a bar on a TTY, one line per iteration
 * otherwise, on stderr); with --json one metrics object per iteration on stdout. Ctrl-C or
 * SIGTERM stops within an episode: the iteration under way is dropped and the last completed one
 * is saved (the resumed run redoes it exactly).
 */
import { EventBus } from '../../../src/bus/event-bus';
import type { Registry } from '../../../src/core/registry';
import { BACKEND_ORDER, BackendError, probeBackends, selectBackend } from '../../../src/train/backend';
import { CheckpointError, TrainingDivergedError } from '../../../src/train/checkpoint';
import { ConfigError, resolveConfig } from '../../../src/train/config';
import { loadRunState, RunStateError } from '../../../src/train/run-state';
import { parseRoleGroups, RolesError } from '../../../src/train/role-groups';
import { parseSchedule } from '../../../src/train/schedule';
import type { OpponentMode } from '../../../src/train/seat-plan';
import { Trainer, type IterationMetrics } from '../../../src/train/trainer';
import { PolicyLayoutError } from '../../../src/train/policy-model';
import { envAndParams, FailureError, parseJsonOption, UsageError } from '../options';
import { createProgress } from '../progress';
import { stopOnSignals } from '../stop-signal';
import { jsonText } from '../json-output';
import type { TrainArgs } from '../train-options';

const MODES: readonly OpponentMode[] = ['self', 'baselines', 'checkpoints'];

/** Parses --opponents: one mode or several (comma-separated; episodes cycle through them). */
export function parseOpponents(text: string): OpponentMode[] {
  const out = text.split(',').map((s) => s.trim());
  for (const m of out) if (!(MODES as readonly string[]).includes(m)) throw new UsageError(`--opponents: expected ${MODES.join(', ')} (or a comma-separated mix), got "${m}"`);
  return out as OpponentMode[];
}

const fmt = (x: number | undefined, d = 3) => (x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(d));

/** Mean returns per role: one value when every role shares it (one learner, or a team), else `role value` each. */
function returnsText(meanReturn: Record<string, number>): string {
  const entries = Object.entries(meanReturn);
  if (entries.length && entries.every(([, v]) => fmt(v) === fmt(entries[0][1]))) return fmt(entries[0][1]);
  return entries.map(([r, v]) => `${r} ${fmt(v)}`).join(' ');
}

/** One progress line for an iteration. */
export function formatIteration(m: IterationMetrics): string {
  const parts = Object.entries(m.learners).map(([id, l]) => {
    const rets = returnsText(l.meanReturn);
    // only the opponents it met this iteration (a baseline listed but never drawn has no rate)
    const wins = Object.entries(l.winRate)
      .filter(([k]) => !l.games || (l.games[k] ?? 0) > 0)
      .map(([k, v]) => `win[${k}] ${fmt(v, 2)}`)
      .join(' ');
    const u = l.update ? ` loss ${fmt(l.update.loss)} ent ${fmt(l.update.entropy)} kl ${fmt(l.update.approxKl, 4)}` : l.training ? '' : ' (frozen)';
    return `${id}: ret ${rets}${wins ? ' ' + wins : ''}${u}`;
  });
  return `iter ${m.iteration} ${fmt(m.episodesPerSec, 0)} ep/s ${fmt(m.samplesPerSec, 0)} samples/s | ${parts.join(' | ')}`;
}

/** Evaluation lines of an iteration (none when it did not evaluate). */
export function formatEval(m: IterationMetrics): string[] {
  if (!m.eval) return [];
  const lines: string[] = [];
  for (const [id, byOpp] of Object.entries(m.eval)) {
    for (const [opp, r] of Object.entries(byOpp)) {
      const rets = returnsText(r.meanReturn);
      lines.push(`  eval ${id} vs ${opp}: return ${rets}${r.winRate === null ? '' : ` win ${fmt(r.winRate, 3)}`} (${r.episodes} episodes)${r.env ? ' ' + JSON.stringify(r.env) : ''}`);
    }
  }
  return lines;
}

/** Runs the command; returns the exit code. */
export async function trainCommand(registry: Registry, ref: string, args: TrainArgs): Promise<number> {
  try {
    return await run(registry, ref, args);
  } catch (e) {
    if (e instanceof BackendError || e instanceof ConfigError || e instanceof RolesError || e instanceof CheckpointError || e instanceof PolicyLayoutError || e instanceof RunStateError) {
      throw new UsageError(e.message);
    }
    if (e instanceof TrainingDivergedError) throw new FailureError(e.message);
    throw e;
  }
}

async function run(registry: Registry, ref: string, args: TrainArgs): Promise<number> {
  if (args.backend === 'list') {
    for (const p of await probeBackends()) process.stdout.write(`${p.name}: ${p.ok ? 'available' : `unavailable (${p.reason})`}\n`);
    return 0;
  }
  if (args.backend !== undefined && !(BACKEND_ORDER as readonly string[]).includes(args.backend)) {
    throw new UsageError(`--backend: expected one of ${BACKEND_ORDER.join(', ')} (or "list"), got "${args.backend}"`);
  }
  if (args.resume && !args.out) throw new UsageError('--resume needs --out DIR (the folder of the run to resume)');
  const state = args.resume ? loadRunState(args.out!) : undefined;
  // a resumed run keeps its params (different ones are refused by the trainer)
  const { env, params } = await envAndParams(registry, ref, args.params ?? (state ? JSON.stringify(state.params) : undefined));
  let rawConfig = (state?.config ?? parseJsonOption('--config', args.config) ?? {}) as Record<string, unknown>;
  if (typeof rawConfig !== 'object' || rawConfig === null || Array.isArray(rawConfig)) throw new UsageError('--config: expected a JSON object');
  if (!state) {
    if (args.algo !== undefined) rawConfig = { ...rawConfig, algorithm: args.algo };
    if (args.seed !== undefined) rawConfig = { ...rawConfig, seed: args.seed };
  }
  // speed only (the results are the same for every value), so a resumed run may change it too
  if (args.envsPerBatch !== undefined) rawConfig = { ...rawConfig, envsPerBatch: args.envsPerBatch };
  if (args.sync && args.overlap) throw new UsageError('--sync and --overlap: give one of them');
  // the mode from here on (a resumed run keeps its own unless one is given; the metrics record each iteration's policy lag)
  if (args.sync || args.overlap) rawConfig = { ...rawConfig, overlap: !!args.overlap };
  const config = resolveConfig(rawConfig);
  const present = new Set(env.seats(env.init(params, config.seed)).map((s) => s.role));
  const roles = state ? state.roles : parseRoleGroups(args.roles, env.meta.roles, config.sharedNet, present);
  const opponents = state ? (state.opponents as OpponentMode[]) : parseOpponents(args.opponents);
  const schedule = parseSchedule(state ? state.schedule : args.schedule);
  const backend = await selectBackend(args.backend);
  const bus = new EventBus();
  const stop = stopOnSignals('stopping: the iteration under way is dropped, the last completed one is saved');
  const tty = !!process.stderr.isTTY && !args.quiet;
  let progress = tty ? createProgress('train', args.iterations) : null;
  const say = (line: string) => {
    if (args.quiet) return;
    if (progress) progress.log(line); // a line of its own above the bar, never onto it
    else process.stderr.write(line + '\n');
  };
  const trainer = await Trainer.create({
    env,
    params,
    registry,
    roles,
    opponents,
    schedule,
    iterations: args.iterations,
    config,
    backend,
    outDir: args.out,
    resume: !!args.resume,
    bus,
    runId: state?.runId,
    log: say,
    signal: stop.signal,
    onIteration: (m) => {
      if (args.json) process.stdout.write(jsonText(m) + '\n');
      if (progress) progress.tick(1, formatIteration(m).replace(/^iter \d+ /, ''));
      else say(formatIteration(m));
      for (const line of formatEval(m)) say(line);
    },
  });
  const mode = trainer.overlaps ? 'updates in a worker thread overlapped with the next rollouts (policy one version behind)' : 'synchronous';
  say(`training ${env.meta.id}: learners ${trainer.entries.map((e) => e.id).join(', ')}; opponents ${opponents.join(',')}; ${config.algorithm}; ${Math.min(config.envsPerBatch, config.episodesPerIteration)} episodes in lockstep; ${mode}; ${args.iterations} iterations from ${trainer.iteration}${args.out ? `; output in ${args.out}` : ''}`);
  try {
    await trainer.run();
  } finally {
    progress?.stop();
    progress = null; // later lines go below the finished bar
    stop.dispose();
    trainer.dispose();
  }
  if (args.out) say(`checkpoints: ${args.out}/checkpoints (${trainer.entries.map((e) => `${e.id}-latest.json`).join(', ')})`);
  return 0;
}
