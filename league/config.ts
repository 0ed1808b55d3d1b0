import { z } from 'zod';
import { parseFaultPolicy } from '../src/match/fault-policy';
import { configIssues } from './config-issues';
import { DEFAULT_RESET_RULE } from './exploiter-reset-rule';

const id = z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'use letters, digits and _ . : -');

/** A player the league starts with: a scripted baseline or a frozen snapshot (checkpoint). */
export const PlayerSpecSchema = z.strictObject({
  id,
  /** Agent spec: a registered name, `name:{json options}`, or a module path. */
  agent: z.string().min(1),
  /** Roles this player may fill; absent = every role of the env. */
  roles: z.array(z.string()).optional(),
  kind: z.enum(['baseline', 'snapshot']).default('baseline'),
  checkpoint: z.string().optional(),
});

const weight = z.number().nonnegative().default(1);

/**
 * Where a learner's training episodes come from (league/episode-sources.ts), each with a
 * weight (its share of the episodes):
 * - `learner`: against another learner's current policy (`of`);
 * - `snapshots`: against the snapshot players of a learner (`of`: another learner, or this
 *   one), drawn by PFSP on the league's head-to-head results (`pfsp`), the newest `last` only
 *   when given; left out (its share goes to the others) while there is none;
 * - `players`: against the league's baseline players (`ids`, default all that fit the seat);
 * - `generator`: the env's own problems: episodes under these params (merged over the league's);
 * - `self`: against the learner's own current policy (naive self-play, labelled "self-play": the other seats sample
 *   from it, only the learner's side records).
 */
export const SourceSpecSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('learner'), of: id, weight }),
  z
    .strictObject({
      kind: z.literal('snapshots'),
      of: id,
      weight,
      pfsp: z.enum(['hard', 'var', 'linear', 'uniform']).default('var'),
      p: z.number().positive().default(2),
      last: z.number().int().positive().optional(),
    })
    ,
  z.strictObject({ kind: z.literal('players'), weight, ids: z.array(id).min(1).optional() }),
  z.strictObject({ kind: z.literal('generator'), weight, params: z.record(z.string(), z.unknown()).default({}) }),
  z.strictObject({ kind: z.literal('self'), weight }),
]);

/** A learner: a neural policy trained during the league. */
export const LearnerSpecSchema = z.strictObject({
  id,
  roles: z.array(z.string()).min(1),
  /** Where its training episodes come from (absent: `options.opponents`, default baselines and self-play). */
  sources: z.array(SourceSpecSchema).min(1).optional(),
  /** A checkpoint file to start from (a warm-up); ignored when the league resumes. */
  init: z.string().min(1).optional(),
  /** The proposer reward over each training batch (src/train/proposer-reward.ts); for a challenger. */
  reward: z
    .strictObject({
      repetition: z.number().nonnegative().default(0.5),
      similarity: z.number().min(0).max(1).default(0.75),
      invalidOutcomes: z.array(z.string().min(1)).default([]),
    })
    
    .optional(),
  algorithm: z.enum(['ppo', 'grpo', 'rloo']).default('ppo'),
  /** Optional trainer settings passed through (learning rate, hidden sizes, ...). */
  options: z.record(z.string(), z.unknown()).default({}),
  /**
   * Main learner, main exploiter or league exploiter (AlphaStar's roles): league matches pick
   * their opponents by AlphaStar's rules, and a main exploiter starts again from its initial
   * weights by its `reset` rule (league/exploiter-reset.ts).
   */
  type: z.enum(['main', 'main-exploiter', 'league-exploiter']).default('main'),
  /**
   * A main exploiter's reset rule (league/exploiter-reset-rule.ts; AlphaStar's): it snapshots
   * and starts again once it beats every main learner it trains against (its `learner`
   * sources) more than `winRate` of the time over its most recent `minGames` games since its
   * last reset, or anyway `timeout` iterations after it. Defaults 0.7, 128, 50; main
   * exploiters only. `{ "winRate": 1, "timeout": K }` with `snapshotEvery: K` is a reset at
   * every snapshot.
   */
  reset: z
    .strictObject({
      winRate: z.number().min(0).max(1).default(DEFAULT_RESET_RULE.winRate),
      minGames: z.number().int().positive().default(DEFAULT_RESET_RULE.minGames),
      timeout: z.number().int().positive().default(DEFAULT_RESET_RULE.timeout),
    })
    .optional(),
  /** This learner's snapshot interval in iterations (default: `training.snapshotEvery`). */
  snapshotEvery: z.number().int().positive().optional(),
});

export const LeagueConfigSchema = z.strictObject({
  /** League name: the key in the database (a resume continues the league of this name). */
  name: id,
  /** Env id or path to a JS module. */
  env: z.string().min(1),
  params: z.record(z.string(), z.unknown()).default({}),
  seed: z.number().int().default(1),
  players: z.array(PlayerSpecSchema).min(1),
  learners: z.array(LearnerSpecSchema).default([]),
  matchmaking: z
    .strictObject({
      mode: z.enum(['elo', 'pfsp', 'uncertainty', 'random']).default('elo'),
      /** PFSP weighting: hard = (1 - x)^p, var = x(1 - x). */
      pfsp: z.enum(['hard', 'var']).default('hard'),
      p: z.number().positive().default(2),
    })
    .prefault({}),
  ratings: z
    .strictObject({
      eloK: z.number().positive().default(32),
      eloInitial: z.number().default(1500),
      /** Bootstrap resamples for the Bradley–Terry leaderboard. */
      bootstrap: z.number().int().min(0).default(1000),
    })
    .prefault({}),
  training: z
    .strictObject({
      /** Train after every this many league matches. */
      every: z.number().int().positive().default(50),
      /** Which role trains: alternate every K iterations, or all together. */
      schedule: z.string().regex(/^(together|alternate:\d+)$/, 'use "together" or "alternate:K"').default('together'),
      /** Episodes collected per training iteration. */
      episodes: z.number().int().positive().default(64),
      /** A learner's snapshot joins every K iterations ... */
      snapshotEvery: z.number().int().positive().default(5),
      /** ... or when it beats its parent at least this often. */
      beatParent: z.number().min(0).max(1).default(0.55),
    })
    .prefault({}),
  /**
   * Probes (league/probes.ts): measurements by things that do not learn, every `every` training
   * rounds, recorded as the league metric `probe:<id>`. A play probe (`players`): `episodes`
   * episodes whose seats are filled by the named players (role -> player or learner id); the
   * env's aggregate of the episodes (those whose outcome is not in `exclude`). An exploit probe
   * (`exploit`, league/exploit/probe.ts): a fresh exploiter trains `iterations` x `episodes`
   * episodes against the current policies of `of` (learners or players), then plays them
   * `episodes` times; its win rate with a bootstrap interval is the league's exploitability.
   */
  probes: z
    .array(
      z
        .strictObject({
          id,
          every: z.number().int().positive().default(5),
          episodes: z.number().int().positive().default(100),
          players: z.record(z.string(), id).optional(),
          exclude: z.array(z.string().min(1)).default([]),
          exploit: z
            .strictObject({
              of: z.array(id).min(1),
              iterations: z.number().int().positive().default(20),
              episodes: z.number().int().positive().default(64),
              /** The exploiter's training config (hidden, lr, ...). */
              options: z.record(z.string(), z.unknown()).default({}),
            })
            .optional(),
        })
        .superRefine((p, ctx) => {
          if (!p.players === !p.exploit) ctx.addIssue({ code: 'custom', message: 'give either "players" (a play probe) or "exploit" (an exploitability probe)' });
        }),
    )
    .default([]),
  budget: z.strictObject({ matches: z.number().int().positive() }),
  /**
   * Per-decision time limit in ms, or "none" (no limit, not even for promises). Absent: none for
   * synchronous answers, the runner's default (10 minutes) for promises.
   */
  deadlineMs: z.union([z.number().int().positive(), z.literal('none')]).optional(),
  /**
   * Pairing window W (docs/scale-out.md): match k is paired from the league's state after match
   * k - W (ratings, head-to-head, players), so W matches can be played at once by workers
   * (`league run --redis`) and a single process playing the same config gets the same matches.
   * Absent: 1 in effect, the classic serial league (pairing after match k - 1).
   */
  window: z.number().int().min(1).max(100_000).optional(),
  /** Minimum milliseconds per decision (a watchable pace for demos); 0 = full speed. */
  paceMs: z.number().int().min(0).default(0),
  faults: z
    .string()
    .default('retry:0,forfeit')
    .superRefine((text, ctx) => {
      try {
        parseFaultPolicy(text);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message.replace(/^fault policy: /, '') });
      }
    }),
});

export type LeagueConfig = z.infer<typeof LeagueConfigSchema>;
export type LearnerSpec = z.infer<typeof LearnerSpecSchema>;
export type SourceSpec = z.infer<typeof SourceSpecSchema>;
export type ProbeSpec = LeagueConfig['probes'][number];

/** A league config that failed validation; the message names each bad field by its path. */
export class LeagueConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeagueConfigError';
  }
}

/** Validates a raw config (parsed JSON); throws LeagueConfigError naming the fields. */
export function parseLeagueConfig(raw: unknown): LeagueConfig {
  const r = LeagueConfigSchema.safeParse(raw);
  if (r.success) {
    const ids = [...r.data.players.map((p) => p.id), ...r.data.learners.map((l) => l.id)];
    const dup = ids.find((x, i) => ids.indexOf(x) !== i);
    if (dup) throw new LeagueConfigError(`league config: players: duplicate id "${dup}"`);
    checkReferences(r.data);
    return r.data;
  }
  throw new LeagueConfigError(configIssues('league config', LeagueConfigSchema, raw, r.error.issues));
}

/** Ids that sources and probes name must exist: one line naming the field. */
function checkReferences(c: LeagueConfig): void {
  const learners = new Set(c.learners.map((l) => l.id));
  const players = new Set(c.players.map((p) => p.id));
  c.learners.forEach((l, i) => {
    l.sources?.forEach((s, j) => {
      const at = `league config: learners.${i}.sources.${j}`;
      if (s.kind === 'learner' && (s.of === l.id || !learners.has(s.of))) {
        throw new LeagueConfigError(`${at}.of: "${s.of}" is not another learner of this league (${[...learners].filter((x) => x !== l.id).join(', ') || 'none'})`);
      }
      if (s.kind === 'snapshots' && !learners.has(s.of)) throw new LeagueConfigError(`${at}.of: "${s.of}" is not a learner of this league (${[...learners].join(', ')})`);
      const bad = s.kind === 'players' ? s.ids?.find((x) => !players.has(x)) : undefined;
      if (bad) throw new LeagueConfigError(`${at}.ids: "${bad}" is not a player of this league`);
    });
    if (l.sources && !l.sources.some((s) => s.weight > 0)) throw new LeagueConfigError(`league config: learners.${i}.sources: every weight is 0`);
    if (l.reset && l.type !== 'main-exploiter') throw new LeagueConfigError(`league config: learners.${i}.reset: only a main exploiter resets (this learner's type is "${l.type}")`);
  });
  c.probes.forEach((p, i) => {
    for (const [role, who] of Object.entries(p.players ?? {})) {
      if (!players.has(who) && !learners.has(who)) throw new LeagueConfigError(`league config: probes.${i}.players.${role}: "${who}" is not a player or learner of this league`);
    }
    p.exploit?.of.forEach((who, j) => {
      if (!players.has(who) && !learners.has(who)) throw new LeagueConfigError(`league config: probes.${i}.exploit.of.${j}: "${who}" is not a player or learner of this league`);
    });
  });
}
