import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EventBus } from '../src/bus/event-bus';
import type { Agent } from '../src/core/agent';
import type { Env } from '../src/core/env';
import type { JsonValue } from '../src/core/json';
import type { Params } from '../src/core/params';
import { Rng, deriveSeed } from '../src/core/rng';
import type { Registry } from '../src/core/registry';
import type { PlayerRecord, Store } from '../src/store/store';
import { selectBackend, type BackendChoice } from '../src/train/backend';
import { resolveConfig } from '../src/train/config';
import { policyAgent } from '../src/train/policy-agents';
import { saveCheckpoint } from '../src/train/checkpoint';
import { checkpointFile } from '../src/train/run-state';
import { parseSchedule, trainsAt, type Schedule } from '../src/train/schedule';
import type { OpponentMode } from '../src/train/seat-plan';
import { Trainer } from '../src/train/trainer';
import { FixedAgents } from '../src/train/fixed-agents';
import { learnerId } from '../src/train/role-groups';
import { LeagueConfigError, type LeagueConfig, type LearnerSpec } from './config';
import { LearnerSources, type SourceWorld } from './episode-sources';
import type { HeadToHead } from './matchmaking/head-to-head';
import { learnerOf } from './lineage';
import { runProbes, type ProbeSetup } from './probes';
import { keepInitialWeights, resetToInitial } from './exploiter-reset';
import { DEFAULT_RESET_RULE, ExploiterResetJudge, targetGames, type ResetDecision } from './exploiter-reset-rule';

/** Agent spec stored for a learner player: its current policy, resolved by the league (not the registry). */
export const learnerAgentSpec = (id: string) => `learner:${id}`;

interface LeagueLearner {
  spec: LearnerSpec;
  /** Its self-play run; the learner's iteration count is `trainer.iteration`. */
  trainer: Trainer;
  /** Id of its newest snapshot player (the parent of the next one). */
  lastSnapshot: string | null;
  /** Its snapshot players, in the order they joined (committed ones only). */
  snapshots: PlayerRecord[];
  /** A main exploiter's reset rule and its state (exploiter-reset-rule.ts). */
  judge?: ExploiterResetJudge;
}

/** What the league needs to run its learners. */
export interface LeagueLearnersOptions {
  config: LeagueConfig;
  env: Env;
  params: Params;
  registry: Registry;
  store: Store;
  /** Folder for the learners' runs, checkpoints and snapshots. */
  workDir: string;
  bus?: EventBus;
  /** Training backend name (default: the best available). */
  backend?: string;
  log?: (line: string) => void;
}

/**
 * The learners of a league: one self-play Trainer per learner (checkpoints under workDir, so a
 * restarted league resumes each learner from its last checkpoint). Learners play league matches
 * with their current policy; every `training.every` matches the learners whose turn it is
 * (`together`, or `alternate:K` rounds) train one iteration; a frozen snapshot joins the league
 * every `snapshotEvery` iterations of a learner, or earlier when the learner beats its last
 * snapshot at least `beatParent` of the time in league matches. A main exploiter starts again
 * from its initial weights by AlphaStar's rule (its `reset`): once it beats the main learners
 * it trains against more than 70 % of the time, or after a timeout; it snapshots then too.
 */
export class LeagueLearners {
  private readonly learners: LeagueLearner[] = [];
  private readonly schedule: Schedule;
  private round = 0;
  /** The league's results, as of the training round in progress (episode sources read it). */
  private h2h: HeadToHead | null = null;

  private constructor(private readonly o: LeagueLearnersOptions) {
    const s = o.config.training.schedule;
    this.schedule = s === 'together' ? { kind: 'simultaneous' } : parseSchedule(s);
  }

  /** Builds (or resumes) every learner's trainer. */
  static async create(o: LeagueLearnersOptions): Promise<LeagueLearners> {
    const l = new LeagueLearners(o);
    checkProbeRoles(o.config, o.env, o.params);
    if (!o.config.learners.length) return l;
    const backend: BackendChoice = await selectBackend(o.backend);
    o.log?.(`league ${o.config.name}: training backend ${backend.name}`);
    const stored = o.store.players(o.config.name);
    const byId = new Map(stored.map((p) => [p.id, p]));
    const trained = o.store.trainedIterations(o.config.name);
    const world = await l.sourceWorld(stored);
    for (const [index, spec] of o.config.learners.entries()) {
      const outDir = join(o.workDir, spec.id);
      const { opponents, learners: own, ...options } = spec.options as { opponents?: OpponentMode[]; learners?: Record<string, Record<string, unknown>> } & Record<string, unknown>;
      const sources = spec.sources && new LearnerSources(spec, index, world);
      const trainConfig = resolveConfig({
        algorithm: spec.algorithm,
        seed: deriveSeed(o.config.seed, 'learner', spec.id) % 1_000_000,
        episodesPerIteration: o.config.training.episodes,
        baselines: [...new Set(o.config.players.map((p) => p.agent))],
        roleAgents: roleAgents(o.config, o.env, spec),
        evalEvery: 0,
        ...options,
        learners: spec.reward ? { ...own, [learnerId(spec.roles)]: { ...own?.[learnerId(spec.roles)], reward: spec.reward } } : (own ?? {}),
      });
      const trainer = await Trainer.create({
        env: o.env,
        params: o.params,
        registry: o.registry,
        roles: [spec.roles],
        opponents: opponents ?? ['baselines', 'self'],
        schedule: { kind: 'simultaneous' },
        iterations: Number.MAX_SAFE_INTEGER,
        config: trainConfig,
        backend,
        outDir,
        // The database is the record: resume at the iteration it holds (files saved by a round
        // that was killed before its commit are redone), or start afresh when it holds none.
        resume: (trained.get(spec.id) ?? 0) > 0,
        resumeAt: trained.get(spec.id) ?? 0,
        bus: o.bus,
        runId: `${o.config.name}/${spec.id}`,
        league: o.config.name,
        init: spec.init,
        sources: sources && (() => sources.sources(l.h2h!)),
      });
      const judge = spec.type === 'main-exploiter' ? l.resetJudge(spec, trained.get(spec.id) ?? 0) : undefined;
      if (judge) keepInitialWeights(trainer, outDir);
      const mine = stored.filter((p) => learnerOf(p.id, byId) === spec.id);
      l.learners.push({ spec, trainer, lastSnapshot: mine.length ? mine[mine.length - 1].id : null, snapshots: mine, judge });
    }
    l.round = l.completedRounds();
    return l;
  }

  /**
   * A main exploiter's reset judge, its targets the main learners of its `learner` sources, its
   * state replayed from the iterations the store holds (up to `resumeAt`), so a resumed league
   * resets where an uninterrupted one did.
   */
  private resetJudge(spec: LearnerSpec, resumeAt: number): ExploiterResetJudge {
    const mains = new Set(this.o.config.learners.filter((x) => x.type === 'main').map((x) => x.id));
    const targets = [...new Set((spec.sources ?? []).flatMap((s) => (s.kind === 'learner' && mains.has(s.of) ? [s.of] : [])))];
    if (!targets.length) this.o.log?.(`league ${this.o.config.name}: main exploiter ${spec.id} has no "learner" source of a main learner: it resets by its timeout only`);
    const judge = new ExploiterResetJudge(spec.reset ?? DEFAULT_RESET_RULE, targets);
    if (resumeAt === 0) return judge;
    type Row = { learners: Parameters<typeof targetGames>[0]['learners']; exploiterReset?: ResetDecision };
    for (const r of this.o.store.trainingMetrics(this.o.config.name)) {
      if (r.role !== spec.id || r.iteration > resumeAt) continue;
      const m = r.metrics as unknown as Row;
      judge.add(r.iteration, targetGames(m, targets));
      if (m.exploiterReset) judge.markReset(r.iteration);
    }
    return judge;
  }

  /** What the learners' episode sources read: the other learners, their snapshots, the baselines. */
  private async sourceWorld(stored: readonly PlayerRecord[]): Promise<SourceWorld> {
    const { o } = this;
    const baselines = stored.filter((p) => p.kind === 'baseline');
    const needs = o.config.learners.some((x) => x.sources?.some((s) => s.kind === 'players'));
    const seats = o.env.seats(o.env.init(o.params, 0)).length;
    const fixed = await FixedAgents.create(o.registry, o.env, o.params, needs ? baselines.map((p) => p.agent) : [], seats, o.config.seed);
    const find = (id: string) => {
      const l = this.learners.find((x) => x.spec.id === id);
      if (!l) throw new Error(`episode source: learner ${id} is not ready (learners are built in config order)`);
      return l;
    };
    return {
      env: o.env,
      params: o.params,
      learnerModel: (id) => find(id).trainer.entries[0].learner.model,
      learnerRoles: (id) => o.config.learners.find((x) => x.id === id)?.roles ?? [],
      snapshotsOf: (id) => find(id).snapshots,
      baselines,
      fixed,
    };
  }

  /**
   * Training rounds whose record is in the store: rounds are replayed on the schedule until one
   * would take a learner past the iteration its trainer resumed at (the database's record).
   */
  private completedRounds(): number {
    const counts = this.learners.map(() => 0);
    for (let round = 0; ; round++) {
      for (const [index, l] of this.learners.entries()) {
        if (!trainsAt(this.schedule, index, this.learners.length, round)) continue;
        if (++counts[index] > l.trainer.iteration) return round;
      }
    }
  }

  /**
   * Rounds that `completed` matches made due but that are not recorded (the process was killed
   * during one): runs them now, before the next match, exactly as an uninterrupted run did.
   */
  async catchUp(completed: number, h2h: HeadToHead, signal?: AbortSignal): Promise<PlayerRecord[] | null> {
    const added: PlayerRecord[] = [];
    if (!this.learners.length) return added;
    while (this.round < Math.floor(completed / this.o.config.training.every)) {
      const snaps = await this.trainRound(h2h, signal);
      if (!snaps) return null;
      added.push(...snaps);
    }
    return added;
  }

  /** Player records of the learners themselves (kind "learner"). */
  players(): PlayerRecord[] {
    return this.learners.map(({ spec }) => ({
      id: spec.id,
      kind: 'learner' as const,
      agent: learnerAgentSpec(spec.id),
      version: 0,
      roles: spec.roles,
      parent: null,
      checkpoint: null,
      createdAt: 0,
    }));
  }

  /** An agent playing the learner's current policy (sampled), or undefined for other players. */
  agentFor(playerId: string, seed: number): Agent | undefined {
    const l = this.learners.find((x) => x.spec.id === playerId);
    if (!l) return undefined;
    const model = l.trainer.entries[0].learner.model;
    return policyAgent(playerId, model, Rng.fromSeed(seed));
  }

  /**
   * The learner's current policy as a checkpoint file of its own (weights and layout, no
   * optimizer state), written once per iteration under `<workDir>/<learner>/policies/`; undefined
   * for players that are not learners. Leagues with a pairing window play learners from these
   * files (by reference: workers fetch them by content hash), so a match planned before a
   * training round plays the policy it was planned with.
   */
  policyFile(playerId: string): string | undefined {
    const l = this.learners.find((x) => x.spec.id === playerId);
    if (!l) return undefined;
    const it = l.trainer.iteration;
    const file = join(this.o.workDir, l.spec.id, 'policies', `${l.spec.id}-${it}.json`);
    if (!existsSync(file)) {
      const learner = l.trainer.entries[0].learner;
      // a fixed date: the file's content (and so its hash) depends on the weights only
      saveCheckpoint(file, { id: learner.id, layout: learner.layout, weights: learner.weights, step: it, updates: learner.updates, createdAt: '1970-01-01T00:00:00.000Z' });
    }
    return file;
  }

  /** Whether {@link afterMatch} trains a round once `completed` matches are recorded. */
  dueAt(completed: number): boolean {
    return this.learners.length > 0 && completed % this.o.config.training.every === 0;
  }

  /**
   * Called after each recorded match: when `completed` reaches a training round, the learners
   * whose turn it is train one iteration; returns the snapshot players that joined the league,
   * or null when the signal stopped the round (nothing of it is recorded; a rerun redoes it).
   */
  async afterMatch(completed: number, h2h: HeadToHead, signal?: AbortSignal): Promise<PlayerRecord[] | null> {
    if (!this.dueAt(completed)) return [];
    return this.trainRound(h2h, signal);
  }

  /**
   * One training round. Its checkpoints, run states and snapshot files are written first, then
   * its metrics and snapshot players are committed in one transaction: a kill at any point
   * leaves the round either recorded or not, and an unrecorded round is redone from the
   * previous iteration's numbered checkpoint on resume.
   */
  private async trainRound(h2h: HeadToHead, signal?: AbortSignal): Promise<PlayerRecord[] | null> {
    const t = this.o.config.training;
    const round = this.round;
    const rows: { iteration: number; role: string; metrics: JsonValue }[] = [];
    const snaps: { l: LeagueLearner; record: PlayerRecord }[] = [];
    const lastSnapshot = new Map(this.learners.map((l) => [l, l.lastSnapshot]));
    this.h2h = h2h;
    for (const [index, l] of this.learners.entries()) {
      if (!trainsAt(this.schedule, index, this.learners.length, round)) continue;
      const metrics = await l.trainer.step(signal);
      if (!metrics) return null;
      l.trainer.saveCheckpoints();
      const it = l.trainer.iteration;
      let reset: ResetDecision | null = null;
      if (l.judge) {
        l.judge.add(it, targetGames(metrics, l.judge.targets));
        reset = l.judge.decide(it);
      }
      rows.push({ iteration: it, role: l.spec.id, metrics: (reset ? { ...metrics, exploiterReset: reset } : metrics) as unknown as JsonValue });
      const last = lastSnapshot.get(l)!;
      const beatsParent = last !== null && h2h.results(l.spec.id, last).games >= 10 && h2h.winProbability(l.spec.id, last) >= t.beatParent;
      if (it % (l.spec.snapshotEvery ?? t.snapshotEvery) === 0 || beatsParent || reset) {
        const record = this.snapshotFile(l, it, last);
        snaps.push({ l, record });
        lastSnapshot.set(l, record.id);
      }
      if (reset) {
        // AlphaStar: a main exploiter that beats the mains (or timed out) starts again; its snapshot keeps what it learned
        resetToInitial(l.trainer, join(this.o.workDir, l.spec.id));
        l.judge!.markReset(it);
        this.o.log?.(`league ${this.o.config.name}: main exploiter ${l.spec.id} reset after iteration ${it} (${reset.reason}: ${JSON.stringify(reset.winRates)} over ${JSON.stringify(reset.games)} games, ${reset.iterations} iterations)`);
      }
    }
    const probes = await runProbes(this.probeSetup(), round + 1, signal);
    if (!probes) return null;
    rows.push(...probes);
    this.o.store.recordTrainingRound(this.o.config.name, rows, snaps.map((x) => x.record));
    this.round++;
    for (const { l, record } of snaps) {
      l.lastSnapshot = record.id;
      l.snapshots.push(record);
      this.announce(record);
    }
    for (const r of probes) this.announceProbe(r);
    return snaps.map((x) => x.record);
  }

  /** Copies the learner's checkpoint of `iteration` into the league's snapshots; the player record to commit. */
  private snapshotFile(l: LeagueLearner, iteration: number, parent: string | null): PlayerRecord {
    const dir = resolve(this.o.workDir, 'snapshots');
    mkdirSync(dir, { recursive: true });
    const id = `${l.spec.id}-v${iteration}`;
    const file = join(dir, `${id}.json`);
    copyFileSync(checkpointFile(join(this.o.workDir, l.spec.id), l.trainer.entries[0].id, iteration), file);
    return {
      id,
      kind: 'snapshot',
      agent: `neural:${JSON.stringify({ checkpoint: file, mode: 'sample' })}`,
      version: iteration,
      roles: l.spec.roles,
      parent: parent ?? l.spec.id,
      checkpoint: file,
      createdAt: Date.now(),
    };
  }

  /** What the probes need: the league's env and players; learners play their current policy (sampled). */
  private probeSetup(): ProbeSetup {
    const { config, env, params, registry } = this.o;
    return {
      probes: config.probes,
      env,
      params,
      seed: config.seed,
      agentFor: async (id, seed) => {
        const learner = this.agentFor(id, seed);
        if (learner) return learner;
        const p = config.players.find((x) => x.id === id);
        if (!p) throw new Error(`probe: "${id}" is not a player or learner of league ${config.name}`);
        return (await registry.createAgent(p.agent, { env, params, seed })).agent;
      },
      exploit: {
        registry,
        backend: this.o.backend,
        rolesOf: (id) => config.learners.find((x) => x.id === id)?.roles ?? config.players.find((x) => x.id === id)?.roles ?? null,
      },
    };
  }

  /** A probe's row on the bus (as a training iteration of the run `<league>/probe:<id>`), so the page redraws. */
  private announceProbe(row: { iteration: number; role: string; metrics: JsonValue }): void {
    if (!this.o.bus?.active) return;
    this.o.bus.publish({
      type: 'training.iteration',
      run: `${this.o.config.name}/${row.role}`,
      league: this.o.config.name,
      seq: row.iteration,
      time: Date.now(),
      visibility: 'public',
      data: row.metrics as { [key: string]: JsonValue },
    });
  }

  private announce(record: PlayerRecord): void {
    if (!this.o.bus?.active) return;
    this.o.bus.publish({
      type: 'snapshot.added',
      league: this.o.config.name,
      seq: record.version,
      time: Date.now(),
      visibility: 'public',
      data: { player: record.id, parent: record.parent, iteration: record.version, roles: record.roles },
    });
  }

  dispose(): void {
    for (const l of this.learners) l.trainer.dispose();
  }
}

/** For roles the learner does not train: the agent of the first league player that can play them. */
function roleAgents(config: LeagueConfig, env: Env, spec: LearnerSpec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of env.meta.roles) {
    if (spec.roles.includes(r.name)) continue;
    const p = config.players.find((x) => !x.roles || x.roles.includes(r.name));
    if (p) out[r.name] = p.agent;
  }
  return out;
}

/** Every probe names a player for each role that has a seat, and no role the env lacks (one line naming the field). */
function checkProbeRoles(config: LeagueConfig, env: Env, params: Params): void {
  const roles = [...new Set(env.seats(env.init(params, 0)).map((x) => x.role))];
  config.probes.forEach((p, i) => {
    const players = p.players;
    if (!players) return; // an exploit probe: its sides are checked when it runs
    const missing = roles.find((r) => !players[r]);
    if (missing) throw new LeagueConfigError(`league config: probes.${i}.players: no player for role "${missing}" (roles with seats: ${roles.join(', ')})`);
    const extra = Object.keys(players).find((r) => !roles.includes(r));
    if (extra) throw new LeagueConfigError(`league config: probes.${i}.players.${extra}: not a role with a seat here (${roles.join(', ')})`);
  });
}
