import type { MatchRecord } from '../../src/store/store';
import { swissRounds, type TournamentConfig } from './config';
import { buildCrosstable, type Crosstable } from './crosstable';
import { gameOutcome, type GameOutcome } from './game-outcome';
import { fixedSchedule, nextBatch, playedSlots, sprtCounts, type GameSlot, type RoundRecord } from './schedule';
import { sprtState, type SprtState } from './sprt';
import { buildStandings, type StandingRow } from './standings';
import { eloEstimate, type EloEstimate, type Pentanomial, type Trinomial } from './statistics';

/** Where an SPRT stands, with the figures it printed. */
export interface SprtReport extends SprtState {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  model: 'logistic' | 'normalized';
  maxGames: number;
  /** The result vector the test uses (pentanomial over complete pairs when paired). */
  counts: Trinomial | Pentanomial;
  /** Elo of the first player against the second from those counts. */
  elo: EloEstimate;
}

/** Everything the CLI's `--json`, the tables and the web page show about a tournament. */
export interface TournamentReport {
  name: string;
  format: TournamentConfig['format'];
  env: string;
  players: { id: string; agent: string }[];
  games: number;
  /** Games the tournament plays in total (SPRT: its game limit). */
  total: number;
  finished: boolean;
  rounds: RoundRecord[];
  crosstable: Crosstable;
  standings: StandingRow[];
  sprt: SprtReport | null;
}

/**
 * Slots and outcomes of the stored games of a tournament, in order. `matches` are the stored
 * matches (idx 0..n−1), `rounds` the stored Swiss rounds.
 */
export function tournamentOutcomes(config: TournamentConfig, matches: readonly MatchRecord[], rounds: readonly RoundRecord[]): { slots: GameSlot[]; outcomes: GameOutcome[] } {
  const slots = playedSlots(config, rounds, matches.length);
  if (slots.length < matches.length) throw new Error(`tournament "${config.name}": ${matches.length} stored games but only ${slots.length} scheduled`);
  const outcomes = matches.map((m, k) => {
    if (m.idx !== k) throw new Error(`tournament "${config.name}": stored game ${m.idx} where ${k} was expected`);
    return gameOutcome(m, slots[k].a, slots[k].b);
  });
  return { slots, outcomes };
}

/** Games a tournament plays in total (SPRT: its game limit). */
export function plannedGames(config: TournamentConfig): number {
  if (config.format === 'sprt') return config.sprt!.maxGames;
  if (config.format === 'swiss') return swissRounds(config) * Math.floor(config.players.length / 2) * config.games;
  return fixedSchedule(config).length;
}

/** The crosstable, standings, Swiss rounds and SPRT state of a tournament's stored games. */
export function tournamentReport(config: TournamentConfig, matches: readonly MatchRecord[], rounds: readonly RoundRecord[]): TournamentReport {
  const { slots, outcomes } = tournamentOutcomes(config, matches, rounds);
  const ids = config.players.map((p) => p.id);
  let sprt: SprtReport | null = null;
  if (config.format === 'sprt') {
    const s = config.sprt!;
    const counts = sprtCounts(config, outcomes);
    sprt = { ...s, ...sprtState(counts, s), counts, elo: eloEstimate(counts) };
  }
  let finished: boolean;
  try {
    finished = nextBatch(config, { outcomes, rounds }) === null;
  } catch {
    finished = false; // a Swiss round that cannot be paired: the runner reports why
  }
  return {
    name: config.name,
    format: config.format,
    env: config.env,
    players: config.players.map((p) => ({ id: p.id, agent: p.agent })),
    games: outcomes.length,
    total: plannedGames(config),
    finished,
    rounds: [...rounds],
    crosstable: buildCrosstable(ids, slots, outcomes),
    standings: buildStandings(ids, slots, outcomes, { rounds, byePoints: config.games, swiss: config.format === 'swiss' }),
    sprt,
  };
}

/** Every number of `T` as {@link reportJson} writes it: infinite figures as "inf" / "-inf", NaN as null. */
export type Jsonified<T> = T extends number
  ? number | 'inf' | '-inf' | null
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/**
 * A report as plain JSON: infinite Elo figures (a perfect or zero score) become "inf" / "-inf"
 * and NaN (no games) becomes null, which JSON.stringify alone would turn into null for both.
 */
export function reportJson(r: TournamentReport): Jsonified<TournamentReport> {
  return JSON.parse(JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? (Number.isNaN(v) ? null : v > 0 ? 'inf' : '-inf') : v))) as Jsonified<TournamentReport>;
}
