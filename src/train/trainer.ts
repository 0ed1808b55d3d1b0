/**
 * The self-play training loop. Each iteration collects `episodesPerIteration` episodes with the
 * match runner (learners' seats record their decisions), computes advantages (GAE for ppo,
 * group-relative for grpo/rloo), updates every learner the schedule lets train, logs metrics
 * (bus event + JSONL/CSV), evaluates against the baselines every `evalEvery` iterations, adds
 * opponent snapshots, and saves checkpoints and the run state so a run resumes exactly.
 *
 * Reproducible: every episode seed, action sampler and minibatch shuffle is derived from the
 * config seed and the iteration, so resuming from a checkpoint continues bit for bit.
 */
import { join } from 'node:path';
import type { EventBus } from '../bus/event-bus';
import type { Env } from '../core/env';
import type { JsonValue } from '../core/json';
import type { Params } from '../core/params';
import type { Registry } from '../core/registry';
import { Rng, deriveSeed } from '../core/rng';
import { describeChoice, type BackendChoice } from './backend';
import { fusedFlavour } from './fused/wasm';
import { checkpointFile, checkResumable, loadRunState, RUN_STATE_FORMAT, saveRunState, snapshotRelPath, type RunState } from './run-state';
import { checkFits, divergedError, loadCheckpoint, saveCheckpoint } from './checkpoint';
import { ConfigError, MAX_PARAMETERS, type TrainConfig } from './config';
import { evaluateLearners, type EvalResult } from './evaluate';
import { FixedAgents } from './fixed-agents';
import { Learner, tfOptimizerFor, updatePathFor, type UpdatePath } from './learner';
import { runUpdates, type IterationUpdate, type UpdateSetup } from './iteration-update';
import { UpdateWorker } from './fused/update-pool';
import { learningRate } from './lr-schedule';
import { MetricsLog, type IterationMetrics, type LearnerMetrics } from './metrics-log';

export type { IterationMetrics, LearnerMetrics } from './metrics-log';
import { initMlp, cloneWeights, paramCount } from './mlp';
import { checkLayoutFor, inputSize, outputUnits, PolicyModel, type PolicyLayout } from './policy-model';
import { probeLegalIndices, resolveActionSubset } from './action-subset';
import { collectEpisodes, type Entry, type LaneContext, type RolloutSetup, type Snapshot } from './rollouts';
import type { DecisionBatcher } from './decision-batcher';
import { policyAgent } from './policy-agents';
import { learnerId } from './role-groups';
import { SampleBuffer } from './sample-buffer';
import { formatSchedule, trainsAt, type Schedule } from './schedule';
import type { OpponentMode } from './seat-plan';
import { checkSources, sourceStats, type EpisodeSource } from './episode-sources';
import type { Batch } from './rollouts';

/** Everything a training run needs. */
export interface TrainerOptions {
  env: Env;
  params: Params;
  registry: Registry;
  /** Learner role groups (see parseRoleGroups). */
  roles: string[][];
  opponents: OpponentMode[];
  schedule: Schedule;
  /** Total iterations (a resumed run continues up to this number). */
  iterations: number;
  config: TrainConfig;
  backend: BackendChoice;
  outDir?: string;
  /** Continue the run saved in outDir. */
  resume?: boolean;
  /**
   * With `resume`: continue from the state saved after this many iterations (its numbered
   * checkpoints), not the latest; what was saved later is redone. The league uses it to resume
   * at the iteration its database recorded.
   */
  resumeAt?: number;
  /** Episode sources of each iteration (called once per iteration; episode-sources.ts); they replace `opponents`. */
  sources?: (iteration: number) => EpisodeSource[];
  /** A checkpoint whose weights a fresh run starts from (ignored when resuming). */
  init?: string;
  bus?: EventBus;
  runId?: string;
  /** The league whose learner this run is (its training events carry it). */
  league?: string;
  log?: (line: string) => void;
  onIteration?: (m: IterationMetrics) => void;
  signal?: AbortSignal;
}

/** A training run. Create with {@link Trainer.create}, then {@link Trainer.run}. */
export class Trainer {
  iteration = 0;
  readonly entries: Entry[] = [];
  private readonly byRole = new Map<string, Entry>();
  /** Fixed agents of each rollout lane (lane 0 also plays evaluations). */
  private fixed: FixedAgents[] = [];
  private metricsLog!: MetricsLog;
  private snapshotFiles: RunState['snapshots'] = [];
  /** Iteration of the last saved checkpoints (null: none saved yet). */
  private lastSaved: number | null = null;
  readonly runId: string;
  private readonly log: (line: string) => void;
  /** The update worker (started by the first overlapped iteration). */
  private worker?: UpdateWorker;
  /** The next iteration's episodes, played during the last update (or what failed there). */
  private ahead: { batch: Batch; seconds: number } | { error: unknown } | null = null;

  private constructor(readonly o: TrainerOptions) {
    this.runId = o.runId ?? `train-${o.env.meta.id}-${o.config.seed}`;
    this.log = o.log ?? (() => {});
  }

  /** Builds learners (fresh, or from the run state in outDir when resuming) and the fixed agents. */
  static async create(o: TrainerOptions): Promise<Trainer> {
    const t = new Trainer(o);
    await t.init();
    return t;
  }

  private get cfg(): TrainConfig {
    return this.o.config;
  }

  /**
   * How updates run (config `update`): `auto` is the fused module on CPU backends, the device
   * update where tensors cannot be read synchronously, else the tfjs host update.
   */
  get updatePath(): UpdatePath {
    return updatePathFor(this.cfg.update, this.o.backend);
  }

  /** Whether updates run on the device (asynchronous reads). */
  private get onDevice(): boolean {
    return this.updatePath === 'device';
  }

  private async init(): Promise<void> {
    const { env, params, config: cfg } = this.o;
    this.log(`${describeChoice(this.o.backend)}; update: ${this.updatePath === 'fused' ? `fused (WebAssembly SIMD${fusedFlavour() === 'relaxed' ? ', relaxed FMA' : ''})` : this.updatePath}`);
    if (cfg.update === 'host' && !this.o.backend.syncReads) {
      throw new ConfigError(`training config: update "host" needs synchronous tensor reads, which the ${this.o.backend.name} backend does not have (use "auto" or "device")`);
    }
    const encoder = env.encoder;
    if (!encoder) throw new Error(`${env.meta.id} has no encoder, so it cannot be trained with neural policies`);
    const adam = { beta1: cfg.beta1, beta2: cfg.beta2, epsilon: cfg.epsilon, maxGradNorm: cfg.maxGradNorm };
    let probed: Promise<Map<string, Set<number>>> | undefined;
    const probe = () => (probed ??= probeLegalIndices(env, params, cfg.probeEpisodes, cfg.seed));
    for (const [index, roles] of this.o.roles.entries()) {
      const id = learnerId(roles);
      const actions = await resolveActionSubset(cfg.actions, env, params, roles, probe);
      const layout: PolicyLayout = { env: env.meta.id, roles, roleInput: roles.length > 1, obsSize: encoder.size, numActions: encoder.numActions, ...(actions ? { actions } : {}) };
      const units = outputUnits(layout);
      const spec = { inputSize: inputSize(layout), hidden: cfg.hidden, outputSize: units + 1, activation: cfg.activation };
      const size = paramCount(spec);
      if (size > MAX_PARAMETERS) {
        throw new ConfigError(`training config: hidden ${JSON.stringify(cfg.hidden)} makes learner ${id} a network of ${size.toLocaleString('en-US')} parameters; the limit is ${MAX_PARAMETERS.toLocaleString('en-US')}`);
      }
      const scale = Array.from({ length: units + 1 }, (_, j) => (j < units ? cfg.policyInitScale : 1));
      const weights = initMlp(spec, deriveSeed(cfg.seed, 'init', id), scale);
      const path = this.updatePath;
      const learner = new Learner(id, layout, encoder, weights, this.o.backend, adam, path === 'fused' ? 'fused' : path === 'device' ? 'tf' : tfOptimizerFor(this.o.backend));
      const entry: Entry = { index, id, roles, learner, buf: new SampleBuffer(spec.inputSize, units), pool: [] };
      this.entries.push(entry);
      for (const r of roles) this.byRole.set(r, entry);
    }
    const seatCount = env.seats(env.init(params, 0)).length;
    const specs = [...cfg.baselines.filter((b) => b !== 'self'), ...Object.values(cfg.roleAgents), 'random'];
    const lanes = Math.min(cfg.envsPerBatch, cfg.episodesPerIteration);
    for (let lane = 0; lane < lanes; lane++) this.fixed.push(await FixedAgents.create(this.o.registry, env, params, specs, seatCount, cfg.seed, this.fixed[0]));
    if (this.o.resume) this.restore();
    else {
      if (this.o.init) this.startFrom(this.o.init);
      for (const e of this.entries) this.addSnapshot(e, 'init', 0);
      for (const file of cfg.opponentCheckpoints) this.addCheckpointOpponent(file);
    }
    this.metricsLog = new MetricsLog(this.runId, this.o.outDir, this.o.bus, this.o.resume ? this.iteration : undefined, this.o.league);
  }

  /** Starts the learner that plays the checkpoint's roles from its weights (a fresh optimizer). */
  private startFrom(file: string): void {
    const ckpt = loadCheckpoint(file);
    const entry = this.entries.find((e) => e.id === ckpt.id) ?? this.entries.find((e) => ckpt.layout.roles.some((r) => e.roles.includes(r)));
    if (!entry) throw new Error(`init: ${file} plays ${ckpt.layout.roles.join('+')}, which no learner trains`);
    checkFits(ckpt, entry.learner.layout, entry.learner.weights.spec, file);
    entry.learner.restore(ckpt.weights, undefined);
  }

  private addCheckpointOpponent(file: string): void {
    const ckpt = loadCheckpoint(file);
    const entry = this.entries.find((e) => ckpt.layout.roles.some((r) => e.roles.includes(r)));
    if (!entry) throw new Error(`opponentCheckpoints: ${file} plays ${ckpt.layout.roles.join('+')}, which no learner trains`);
    const model = new PolicyModel(ckpt.layout, checkLayoutFor(ckpt.layout, this.o.env), ckpt.weights);
    entry.pool.push({ label: `${ckpt.id}@${ckpt.step}`, model });
  }

  /** Freezes the learner's current weights into its opponent pool. */
  private addSnapshot(e: Entry, label: string, iteration: number): void {
    const model = new PolicyModel(e.learner.layout, e.learner.model.encoder, cloneWeights(e.learner.weights));
    const snap: Snapshot = { label: `${e.id}@${label === 'init' ? 0 : iteration}`, model };
    e.pool.push(snap);
    while (e.pool.length > this.cfg.poolSize) e.pool.shift();
    if (this.o.outDir) {
      const rel = snapshotRelPath(e.id, iteration);
      saveCheckpoint(join(this.o.outDir, rel), { id: e.id, layout: e.learner.layout, weights: model.weights, step: iteration, updates: e.learner.updates });
      this.snapshotFiles.push({ learner: e.id, label: snap.label, file: rel });
      const keep = new Set(this.entries.flatMap((x) => x.pool.map((p) => p.label)));
      this.snapshotFiles = this.snapshotFiles.filter((f) => keep.has(f.label));
    }
  }

  private restore(): void {
    const dir = this.o.outDir;
    if (!dir) throw new Error('--resume needs --out DIR (the folder of the run to resume)');
    const s = loadRunState(dir, this.o.resumeAt);
    checkResumable(s, dir, this.o.env.meta.id, this.entries.map((e) => e.id).join(','), this.o.params);
    for (const e of this.entries) {
      const file = checkpointFile(dir, e.id, s.iteration);
      const ckpt = loadCheckpoint(file);
      checkFits(ckpt, e.learner.layout, e.learner.weights.spec, file);
      e.learner.restore(ckpt.weights, ckpt.optimizer);
    }
    this.lastSaved = s.iteration;
    this.iteration = s.iteration;
    for (const f of s.snapshots) {
      const e = this.entries.find((x) => x.id === f.learner);
      if (!e) continue;
      const ckpt = loadCheckpoint(join(dir, f.file));
      checkFits(ckpt, e.learner.layout, e.learner.weights.spec, join(dir, f.file));
      e.pool.push({ label: f.label, model: new PolicyModel(e.learner.layout, e.learner.model.encoder, ckpt.weights), file: f.file });
    }
    this.snapshotFiles = [...s.snapshots];
    for (const file of this.cfg.opponentCheckpoints) this.addCheckpointOpponent(file);
    this.log(`resumed ${this.runId} from ${dir} after ${s.iteration} iterations`);
  }

  /** Saves every learner's checkpoint (numbered and latest) and the run state. */
  saveCheckpoints(): void {
    const dir = this.o.outDir;
    if (!dir) return;
    for (const e of this.entries) {
      const ckpt = {
        id: e.id,
        layout: e.learner.layout,
        weights: e.learner.weights,
        step: this.iteration,
        updates: e.learner.updates,
        optimizer: e.learner.optimizerState(),
        params: this.o.params,
        config: this.cfg as unknown as JsonValue,
      };
      saveCheckpoint(checkpointFile(dir, e.id, this.iteration), ckpt);
      saveCheckpoint(checkpointFile(dir, e.id, 'latest'), ckpt);
    }
    this.lastSaved = this.iteration;
    saveRunState(dir, {
      format: RUN_STATE_FORMAT,
      runId: this.runId,
      env: this.o.env.meta.id,
      params: this.o.params,
      roles: this.entries.map((e) => e.roles),
      opponents: this.o.opponents,
      schedule: formatSchedule(this.o.schedule),
      config: this.cfg as unknown as JsonValue,
      iteration: this.iteration,
      snapshots: this.snapshotFiles,
    });
  }

  /** Baseline agent specs that can sit at the table (config.baselines without "self"). */
  private opponentBaselines(): string[] {
    return this.cfg.baselines.filter((b) => b !== 'self');
  }

  private training(e: Entry, it: number): boolean {
    return trainsAt(this.o.schedule, e.index, this.entries.length, it);
  }

  /** The seat-plan context of rollout lane `lane` (policies through `batcher` when given). */
  private baseContext(lane = 0, batcher?: DecisionBatcher): LaneContext {
    const cfg = this.cfg;
    const fixed = this.fixed[lane];
    const defaultSpec = (role: string) => cfg.roleAgents[role] ?? this.opponentBaselines()[0] ?? 'random';
    return {
      learnerFor: (role) => this.byRole.get(role),
      snapshotAgent: (e, seat, rng) => {
        const snap = e.pool[rng.int(e.pool.length)];
        return { agent: policyAgent(snap.label, snap.model, Rng.fromSeed(deriveSeed(rng.next() * 2 ** 32, 'snap', seat)), batcher), label: snap.label };
      },
      fixedAgent: (spec, seat, role) => fixed.get(spec, seat, role),
      defaultAgent: (seat, role) => fixed.get(defaultSpec(role), seat, role) ?? fixed.get('random', seat, role)!,
    };
  }

  /** What the rollouts of iteration `it` need: the env, the learners, who plays which seat. */
  private rolloutSetup(it: number): RolloutSetup {
    const sources = this.o.sources?.(it);
    if (sources) checkSources(sources);
    return {
      sources,
      env: this.o.env,
      params: this.o.params,
      cfg: this.cfg,
      runId: this.runId,
      opponents: this.o.opponents,
      baselines: this.opponentBaselines(),
      entries: this.entries,
      iteration: it,
      base: (lane, batcher) => this.baseContext(lane, batcher),
      lanes: this.fixed.length,
      training: (e) => this.training(e, it),
    };
  }

  /**
   * Plays the current iteration's rollouts without updating or counting anything (benches:
   * acting speed alone); resolves the number of decisions the learners recorded. The buffers
   * hold them until the next {@link step} clears them (a prefetched batch is dropped).
   */
  async rollouts(): Promise<number> {
    this.ahead = null;
    await collectEpisodes(this.rolloutSetup(this.iteration), undefined);
    return this.entries.reduce((n, e) => n + e.buf.size, 0);
  }

  /**
   * Whether iterations may overlap (config `overlap`): the next iteration's episodes are played
   * while the update runs in the update worker, with the weights from before the update (a
   * policy one version behind). Only the fused update runs there, and not with episode sources
   * (they read the league's state between rounds).
   */
  get overlaps(): boolean {
    return this.cfg.overlap && this.updatePath === 'fused' && !this.o.sources;
  }

  /** Runs iterations until `iterations` are done (or the signal aborts), overlapped where {@link overlaps}; returns the last metrics. */
  async run(): Promise<IterationMetrics | undefined> {
    let last: IterationMetrics | undefined;
    while (this.iteration < this.o.iterations && !this.o.signal?.aborted) {
      const m = await this.step(this.o.signal, true);
      if (!m) break;
      this.o.onIteration?.((last = m));
    }
    if (this.o.signal?.aborted) this.saveCheckpoints();
    return last;
  }

  /**
   * One iteration: rollouts, updates, snapshots, evaluation, metrics and checkpoints. When
   * `signal` aborts during the rollouts, the iteration is abandoned before anything changed
   * (weights, iteration count, files) and null is returned.
   *
   * With `prefetch` (and {@link overlaps}), the next iteration's episodes are played during this
   * iteration's update, which runs in the update worker; the next call uses them (its metrics say
   * `policyLag: 1`). Pass it only when the next call follows with nothing changed in between (the
   * run loop does); an iteration played fresh has `policyLag: 0`.
   */
  async step(signal: AbortSignal | undefined = this.o.signal, prefetch = false): Promise<IterationMetrics | null> {
    const it = this.iteration;
    const cfg = this.cfg;
    const lr = learningRate({ kind: cfg.lrSchedule, lr: cfg.lr, minLr: cfg.minLr, warmupIterations: cfg.warmupIterations, iterations: this.o.iterations }, it);
    const t0 = performance.now();
    const pre = this.ahead;
    this.ahead = null;
    if (pre && 'error' in pre) throw pre.error;
    const batch = pre ? pre.batch : await collectEpisodes(this.rolloutSetup(it), signal);
    if (!batch) return null;
    const t1 = performance.now();
    const rolloutSeconds = pre ? pre.seconds : (t1 - t0) / 1000;
    const overlap = prefetch && this.overlaps && it + 1 < this.o.iterations && !signal?.aborted;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const setup = this.updateSetup(it, lr, overlap);
    const updating = runUpdates({ ...setup, applyAfter: overlap ? released : undefined }, batch);
    // the updates copied what they read: the buffers may take the next iteration's episodes now,
    // played with the weights from before the update (they change once the episodes are done)
    const next = overlap ? this.prefetch(it + 1, signal).finally(release) : undefined;
    let updated: IterationUpdate;
    try {
      updated = await updating;
    } finally {
      release();
      await next;
    }
    const t3 = performance.now();
    const t2 = t1 + updated.seconds * 1000;
    this.iteration = it + 1;
    if (this.iteration % cfg.snapshotEvery === 0) for (const e of this.entries) this.addSnapshot(e, String(this.iteration), this.iteration);
    const metrics: IterationMetrics = {
      run: this.runId,
      env: this.o.env.meta.id,
      backend: this.o.backend.name,
      iteration: this.iteration,
      lr,
      episodes: cfg.episodesPerIteration,
      samples: updated.samples,
      seconds: (t3 - t0) / 1000,
      rolloutSeconds,
      updateSeconds: (t2 - t1) / 1000,
      policyLag: pre ? 1 : 0,
      episodesPerSec: cfg.episodesPerIteration / Math.max(1e-9, rolloutSeconds),
      samplesPerSec: updated.samples / Math.max(1e-9, (t3 - t0) / 1000),
      updateSamplesPerSec: updated.processed / Math.max(1e-9, (t2 - t1) / 1000),
      outcomes: batch.outcomes,
      ...(this.o.env.aggregate ? { envStats: this.o.env.aggregate(batch.summaries) } : {}),
      ...(batch.sourceSummaries ? { sources: sourceStats(this.o.env, batch.sourceSummaries) } : {}),
      learners: updated.learners,
    };
    const last = this.iteration >= this.o.iterations;
    if (cfg.evalEvery > 0 && (this.iteration % cfg.evalEvery === 0 || last)) metrics.eval = await this.evaluateAll();
    this.metricsLog.write(this.iteration, metrics as unknown as { [key: string]: JsonValue });
    if (this.iteration % cfg.checkpointEvery === 0 || last) this.saveCheckpoints();
    return metrics;
  }

  /** Plays iteration `it`'s episodes ahead (with the current weights) for the next {@link step}. */
  private async prefetch(it: number, signal: AbortSignal | undefined): Promise<void> {
    const t = performance.now();
    try {
      const batch = await collectEpisodes(this.rolloutSetup(it), signal);
      if (batch) this.ahead = { batch, seconds: (performance.now() - t) / 1000 };
    } catch (error) {
      this.ahead = { error };
    }
  }

  /** What the updates of iteration `it` need (in the update worker when `inWorker`). */
  private updateSetup(it: number, lr: number, inWorker: boolean): UpdateSetup {
    return {
      entries: this.entries,
      training: (e) => this.training(e, it),
      cfg: this.cfg,
      iteration: it,
      lr,
      onDevice: this.onDevice,
      worker: inWorker ? (this.worker ??= new UpdateWorker()) : undefined,
      diverged: (e, loss) => divergedError(e.id, it, loss, this.o.outDir && this.lastSaved !== null ? { file: checkpointFile(this.o.outDir, e.id, this.lastSaved), iteration: this.lastSaved } : null),
    };
  }

  /** Every learner against every baseline (once, labelled "solo", when it has no opponents). */
  evaluateAll(): Promise<Record<string, Record<string, EvalResult>>> {
    const cfg = this.cfg;
    const setup = {
      env: this.o.env,
      params: this.o.params,
      seed: cfg.seed,
      episodes: cfg.evalEpisodes,
      ctx: this.baseContext(),
      learnerAgent: (e: Entry, seat: number, k: number) =>
        policyAgent(e.id, e.learner.model, cfg.evalGreedy ? null : Rng.fromSeed(deriveSeed(cfg.seed, 'eval-act', k, seat))),
    };
    return evaluateLearners(setup, this.entries, cfg.baselines);
  }

  /** Frees tfjs memory and stops the update worker. */
  dispose(): void {
    for (const e of this.entries) e.learner.dispose();
    this.ahead = null;
    void this.worker?.close();
  }
}
