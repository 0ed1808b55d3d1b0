import { z } from 'zod';
import { configIssues } from '../config-issues';

const id = z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'use letters, digits and _ . : -');

/** The tournament formats. `sprt` plays one pairing until the sequential test decides. */
export const TOURNAMENT_FORMATS = ['round-robin', 'gauntlet', 'swiss', 'sprt'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];

/** A tournament entrant: an agent spec under a name. */
export const EntrantSchema = z.strictObject({
  id,
  /** Agent spec: a registered name, `name:{json options}`, or a module path. */
  agent: z.string().min(1),
});

/** The sequential test of the `sprt` format (see league/tournament/sprt.ts). */
export const SprtConfigSchema = z.strictObject({
  elo0: z.number(),
  elo1: z.number(),
  alpha: z.number().gt(0).lt(0.5).default(0.05),
  beta: z.number().gt(0).lt(0.5).default(0.05),
  /** Elo model of elo0/elo1: logistic (cutechess-cli) or normalized (fishtest). */
  model: z.enum(['logistic', 'normalized']).default('logistic'),
  /** Stop undecided after this many games. */
  maxGames: z.number().int().positive().default(20_000),
});

/**
 * A tournament config (JSON): the format, env, entrants, games per pairing and the format's own
 * block (challengers, rounds, sprt); cross-field rules are checked with the field's path named.
 */
export const TournamentConfigSchema = z
  .strictObject({
    /** Tournament name: the key in the database (a rerun resumes the tournament of this name). */
    name: id,
    format: z.enum(TOURNAMENT_FORMATS),
    /** Env id or path to a JS module; the env must have exactly two sides (seats or teams). */
    env: z.string().min(1),
    params: z.record(z.string(), z.unknown()).default({}),
    seed: z.number().int().default(1),
    players: z.array(EntrantSchema).min(2),
    /** Games per pairing (round-robin, gauntlet, swiss); even when `paired`. */
    games: z.number().int().positive().default(2),
    /** Play games in pairs on one seed with the seats swapped, so seat advantage and chance cancel. */
    paired: z.boolean().default(true),
    /** Gauntlet: the players who play the field (everybody else); they do not meet each other. */
    challengers: z.array(id).default([]),
    /** Swiss: number of rounds (default ⌈log2 players⌉). */
    rounds: z.number().int().positive().optional(),
    sprt: SprtConfigSchema.optional(),
    ratings: z
      .strictObject({
        eloK: z.number().positive().default(32),
        eloInitial: z.number().default(1500),
      })
      .prefault({}),
    deadlineMs: z.number().int().positive().optional(),
    /** Minimum milliseconds per decision (a watchable pace); 0 = full speed. */
    paceMs: z.number().int().min(0).default(0),
    faults: z.string().default('retry:0,forfeit'),
  })
  .superRefine((c, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const ids = c.players.map((p) => p.id);
    const dup = ids.find((x, i) => ids.indexOf(x) !== i);
    if (dup) issue(['players'], `duplicate id "${dup}"`);
    if (c.paired && c.games % 2 !== 0) issue(['games'], `must be even when paired (each pair swaps the seats), got ${c.games}`);
    if (c.format === 'gauntlet') {
      if (c.challengers.length === 0) issue(['challengers'], 'a gauntlet needs at least one challenger (a player id)');
      c.challengers.forEach((x, i) => {
        if (!ids.includes(x)) issue(['challengers', i], `"${x}" is not a player id`);
      });
      if (c.challengers.length >= ids.length) issue(['challengers'], 'leave at least one player in the field');
    } else if (c.challengers.length) issue(['challengers'], `only a gauntlet has challengers (format is ${c.format})`);
    if (c.format === 'swiss') {
      const most = ids.length % 2 === 0 ? ids.length - 1 : ids.length;
      if (c.rounds !== undefined && c.rounds > most) issue(['rounds'], `at most ${most} rounds for ${ids.length} players without repeated pairings, got ${c.rounds}`);
    } else if (c.rounds !== undefined) issue(['rounds'], `only a swiss has rounds (format is ${c.format})`);
    if (c.format === 'sprt') {
      if (!c.sprt) issue(['sprt'], 'the sprt format needs {elo0, elo1}');
      if (ids.length !== 2) issue(['players'], `an sprt compares exactly 2 players (the first against the second), got ${ids.length}`);
      if (c.sprt && !(c.sprt.elo1 > c.sprt.elo0)) issue(['sprt', 'elo1'], `must be greater than elo0 (${c.sprt.elo0}), got ${c.sprt.elo1}`);
    } else if (c.sprt) issue(['sprt'], `only the sprt format has an sprt block (format is ${c.format})`);
  });

export type TournamentConfig = z.infer<typeof TournamentConfigSchema>;
export type Entrant = z.infer<typeof EntrantSchema>;
export type SprtConfig = z.infer<typeof SprtConfigSchema>;

/** A tournament config that failed validation; the message names each bad field by its path. */
export class TournamentConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TournamentConfigError';
  }
}

/** Validates a raw config (parsed JSON); throws TournamentConfigError naming the fields. */
export function parseTournamentConfig(raw: unknown): TournamentConfig {
  const r = TournamentConfigSchema.safeParse(raw);
  if (r.success) return r.data;
  throw new TournamentConfigError(configIssues('tournament config', TournamentConfigSchema, raw, r.error.issues));
}

/** Swiss rounds: the configured number, or ⌈log2 players⌉ (at least 1). */
export function swissRounds(c: TournamentConfig): number {
  return c.rounds ?? Math.max(1, Math.ceil(Math.log2(c.players.length)));
}
