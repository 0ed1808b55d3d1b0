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
import { checkpointFile, statePath } from '../src/train/run-state';
import { parseSchedule, trainsAt, type Schedule } from '../src/train/schedule';
import type { OpponentMode } from '../src/train/seat-plan';
import { Trainer } from '../src/train/trainer';
import type { LeagueConfig, LearnerSpec } from './config';
import type { HeadToHead } from './matchmaking/head-to-head';
import { learnerOf } from './lineage';

/** Agent spec stored for a learner player: its current policy, resolved by the league (not the registry). */
export const learnerAgentSpec = (id: string) => `learner:${id}`;

interface LeagueLearner {
  spec: LearnerSpec;
  /** Its self-play run; the learner's iteration count is `trainer.iteration`. */
  trainer: Trainer;
  /** Id of its newest snapshot player (the parent of the next one). */
  lastSnapshot: string | null;
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
 * snapshot at least `beatParent` of the time in league matches.
 */
export class LeagueLearners {
  private readonly learners: LeagueLearner[] = [];
  private readonly schedule: Schedule;
  private round = 0;

  private constructor(private readonly o: LeagueLearnersOptions) {
    const s = o.config.training.schedule;
    this.schedule = s === 'together' ? { kind: 'simultaneous' } : parseSchedule(s);
  }

  /** Builds (or resumes) every learner's trainer. */
  static async create(o: LeagueLearnersOptions): Promise<LeagueLearners> {
    const l = new LeagueLearners(o);
    if (!o.config.learners.length) return l;
    const backend: BackendChoice = await selectBackend(o.backend);
    o.log?.(`league ${o.config.name}: training backend ${backend.name}`);
    const stored = o.store.players(o.config.name);
    const byId = new Map(stored.map((p) => [p.id, p]));
    l.round = Math.floor(o.store.matchCount(o.config.name) / o.config.training.every);
    for (const spec of o.config.learners) {
      const outDir = join(o.workDir, spec.id);
      const { opponents, ...options } = spec.options as { opponents?: OpponentMode[] } & Record<string, unknown>;
      const trainConfig = resolveConfig({
        algorithm: spec.algorithm,
        seed: deriveSeed(o.config.seed, 'learner', spec.id) % 1_000_000,
        episodesPerIteration: o.config.training.episodes,
        baselines: [...new Set(o.config.players.map((p) => p.agent))],
        roleAgents: roleAgents(o.config, o.env, spec),
        evalEvery: 0,
        ...options,
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
        resume: existsSync(statePath(outDir)),
        bus: o.bus,
        runId: `${o.config.name}/${spec.id}`,
      });
      const mine = stored.filter((p) => learnerOf(p.id, byId) === spec.id);
      l.learners.push({ spec, trainer, lastSnapshot: mine.length ? mine[mine.length - 1].id : null });
    }
    return l;
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
   * Called after each recorded match: when `completed` reaches a training round, the learners
   * whose turn it is train one iteration; returns the snapshot players that joined the league.
   */
  async afterMatch(completed: number, h2h: HeadToHead): Promise<PlayerRecord[]> {
    const t = this.o.config.training;
    if (!this.learners.length || completed % t.every !== 0) return [];
    const round = this.round++;
    const added: PlayerRecord[] = [];
    for (const [index, l] of this.learners.entries()) {
      if (!trainsAt(this.schedule, index, this.learners.length, round)) continue;
      const metrics = await l.trainer.step();
      l.trainer.saveCheckpoints();
      const it = l.trainer.iteration;
      this.o.store.recordTraining(this.o.config.name, it, l.spec.id, metrics as unknown as JsonValue);
      const beatsParent = l.lastSnapshot !== null && h2h.results(l.spec.id, l.lastSnapshot).games >= 10 && h2h.winProbability(l.spec.id, l.lastSnapshot) >= t.beatParent;
      if (it % t.snapshotEvery === 0 || beatsParent) added.push(this.snapshot(l, it));
    }
    return added;
  }

  private snapshot(l: LeagueLearner, iteration: number): PlayerRecord {
    const dir = resolve(this.o.workDir, 'snapshots');
    mkdirSync(dir, { recursive: true });
    const id = `${l.spec.id}-v${iteration}`;
    const file = join(dir, `${id}.json`);
    copyFileSync(checkpointFile(join(this.o.workDir, l.spec.id), l.trainer.entries[0].id, 'latest'), file);
    const record: PlayerRecord = {
      id,
      kind: 'snapshot',
      agent: `neural:${JSON.stringify({ checkpoint: file, mode: 'sample' })}`,
      version: iteration,
      roles: l.spec.roles,
      parent: l.lastSnapshot ?? l.spec.id,
      checkpoint: file,
      createdAt: Date.now(),
    };
    this.o.store.addPlayer(this.o.config.name, record);
    l.lastSnapshot = id;
    if (this.o.bus?.active) {
      this.o.bus.publish({
        type: 'snapshot.added',
        matchId: this.o.config.name,
        seq: iteration,
        time: Date.now(),
        visibility: 'public',
        data: { player: id, parent: record.parent, iteration, roles: l.spec.roles },
      });
    }
    return record;
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
