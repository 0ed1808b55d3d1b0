import { z } from 'zod';
import { parseFaultPolicy } from '../src/match/fault-policy';

const id = z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'use letters, digits and _ . : -');

/** A player the league starts with: a scripted baseline or a frozen snapshot (checkpoint). */
export const PlayerSpecSchema = z.object({
  id,
  /** Agent spec: a registered name, `name:{json options}`, or a module path. */
  agent: z.string().min(1),
  /** Roles this player may fill; absent = every role of the env. */
  roles: z.array(z.string()).optional(),
  kind: z.enum(['baseline', 'snapshot']).default('baseline'),
  checkpoint: z.string().optional(),
});

/** A learner: a neural policy trained during the league. */
export const LearnerSpecSchema = z.object({
  id,
  roles: z.array(z.string()).min(1),
  algorithm: z.enum(['ppo', 'grpo', 'rloo']).default('ppo'),
  /** Optional trainer settings passed through (learning rate, hidden sizes, ...). */
  options: z.record(z.string(), z.unknown()).default({}),
  /** Main learner, main exploiter or league exploiter (AlphaStar's roles). */
  type: z.enum(['main', 'main-exploiter', 'league-exploiter']).default('main'),
});

export const LeagueConfigSchema = z.object({
  /** League name: the key in the database (a resume continues the league of this name). */
  name: id,
  /** Env id or path to a JS module. */
  env: z.string().min(1),
  params: z.record(z.string(), z.unknown()).default({}),
  seed: z.number().int().default(1),
  players: z.array(PlayerSpecSchema).min(1),
  learners: z.array(LearnerSpecSchema).default([]),
  matchmaking: z
    .object({
      mode: z.enum(['elo', 'pfsp', 'uncertainty', 'random']).default('elo'),
      /** PFSP weighting: hard = (1 - x)^p, var = x(1 - x). */
      pfsp: z.enum(['hard', 'var']).default('hard'),
      p: z.number().positive().default(2),
    })
    .prefault({}),
  ratings: z
    .object({
      eloK: z.number().positive().default(32),
      eloInitial: z.number().default(1500),
      /** Bootstrap resamples for the Bradley–Terry leaderboard. */
      bootstrap: z.number().int().min(0).default(1000),
    })
    .prefault({}),
  training: z
    .object({
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
  budget: z.object({ matches: z.number().int().positive() }),
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
    return r.data;
  }
  const lines = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  throw new LeagueConfigError(`league config: ${lines.join('; ')}`);
}
