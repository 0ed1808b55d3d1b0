/**
 * Which games a tournament plays, in order. Every game has a slot: its index (the match index in
 * the store), round, encounter (two players meeting), game number within the encounter, the
 * seat orientation and the seed. Paired games share a seed and swap the sides, so seat advantage
 * and chance cancel (as engine testers play both colours of an opening); game pair p of every
 * encounter of a round uses the same seed, like an opening book.
 *
 * Round-robin and gauntlet schedules are fixed by the config; a Swiss round is paired from the
 * results before it (and stored before its first game); an SPRT plays game pairs until decided.
 * Everything here is a pure function of the config, the stored rounds and the stored outcomes, so
 * a resumed tournament continues with exactly the same pairings.
 */
import { deriveSeed } from '../../src/core/rng';
import { swissRounds, type TournamentConfig } from './config';
import type { GameOutcome } from './game-outcome';
import { sprtState } from './sprt';
import type { Pentanomial, Trinomial } from './statistics';
import { swissPairing, type SwissEntrant } from './swiss';

/** Two players meeting for `config.games` games (or, in an SPRT, until the test decides). */
export interface Encounter {
  index: number;
  round: number;
  a: string;
  b: string;
}

/** One game of the schedule. */
export interface GameSlot {
  /** Position in the tournament = the match index in the store. */
  idx: number;
  round: number;
  encounter: number;
  a: string;
  b: string;
  /** Game number within the encounter. */
  game: number;
  /** Index of the game pair within the encounter (paired games), else null. */
  pair: number | null;
  /** b holds the first side (a the second). */
  swapped: boolean;
  seed: number;
}

/** A stored Swiss round: boards (higher-ranked player first) and the bye. */
export interface RoundRecord {
  round: number;
  pairings: [string, string][];
  bye: string | null;
}

/** What has been played so far: outcomes in slot order, and the stored Swiss rounds. */
export interface TournamentProgress {
  outcomes: readonly GameOutcome[];
  rounds: readonly RoundRecord[];
}

/** The next games to play; `round` is set when a new Swiss round must be stored first. */
export interface Batch {
  slots: GameSlot[];
  round?: RoundRecord;
}

/** Round-robin encounters by the circle method (Berger tables): every pair once, in rounds. */
export function roundRobinEncounters(ids: readonly string[]): Encounter[] {
  const ring: (string | null)[] = [...ids];
  if (ring.length % 2) ring.push(null);
  const n = ring.length;
  const out: Encounter[] = [];
  for (let round = 0; round < n - 1; round++) {
    for (let i = 0; i < n / 2; i++) {
      const x = ring[i];
      const y = ring[n - 1 - i];
      if (x === null || y === null) continue;
      const [a, b] = ids.indexOf(x) < ids.indexOf(y) ? [x, y] : [y, x];
      out.push({ index: out.length, round, a, b });
    }
    ring.splice(1, 0, ring.pop()!); // rotate all but the first
  }
  return out;
}

/** Gauntlet encounters: round r has every challenger against field player r. */
export function gauntletEncounters(challengers: readonly string[], field: readonly string[]): Encounter[] {
  const out: Encounter[] = [];
  field.forEach((f, round) => {
    for (const c of challengers) out.push({ index: out.length, round, a: c, b: f });
  });
  return out;
}

/** The slot of game `game` of an encounter (see the module comment for seeds and sides). */
export function slotOf(config: TournamentConfig, e: Encounter, game: number, idx: number): GameSlot {
  const seedRound = config.format === 'swiss' ? e.round : 0;
  const pair = config.paired ? Math.floor(game / 2) : null;
  const seed = pair !== null ? deriveSeed(config.seed, 'round', seedRound, 'pair', pair) : deriveSeed(config.seed, 'round', seedRound, 'game', game);
  return { idx, round: e.round, encounter: e.index, a: e.a, b: e.b, game, pair, swapped: game % 2 === 1, seed };
}

function encounterSlots(config: TournamentConfig, encounters: readonly Encounter[], firstIdx: number): GameSlot[] {
  const out: GameSlot[] = [];
  for (const e of encounters) for (let g = 0; g < config.games; g++) out.push(slotOf(config, e, g, firstIdx + out.length));
  return out;
}

/** The whole schedule of a round-robin or gauntlet. */
export function fixedSchedule(config: TournamentConfig): GameSlot[] {
  const ids = config.players.map((p) => p.id);
  if (config.format === 'round-robin') return encounterSlots(config, roundRobinEncounters(ids), 0);
  if (config.format === 'gauntlet') return encounterSlots(config, gauntletEncounters(config.challengers, ids.filter((x) => !config.challengers.includes(x))), 0);
  throw new Error(`fixedSchedule: ${config.format} has no fixed schedule`);
}

/** The encounters of stored Swiss rounds (boards in order, numbered across rounds). */
export function swissEncounters(rounds: readonly RoundRecord[]): Encounter[] {
  const out: Encounter[] = [];
  for (const r of rounds) for (const [a, b] of r.pairings) out.push({ index: out.length, round: r.round, a, b });
  return out;
}

/** Slot k of an SPRT: player 0 against player 1, pairs (or single games) until decided. */
export function sprtSlot(config: TournamentConfig, k: number): GameSlot {
  return slotOf(config, { index: 0, round: 0, a: config.players[0].id, b: config.players[1].id }, k, k);
}

/** The slots of the first `count` games of any format (Swiss from its stored rounds). */
export function playedSlots(config: TournamentConfig, rounds: readonly RoundRecord[], count: number): GameSlot[] {
  if (config.format === 'sprt') return Array.from({ length: count }, (_, k) => sprtSlot(config, k));
  const all = config.format === 'swiss' ? encounterSlots(config, swissEncounters(rounds), 0) : fixedSchedule(config);
  return all.slice(0, count);
}

/**
 * Swiss standings for pairing after the given games: score (game points, a bye counts as
 * winning every game of the encounter), opponents met, byes.
 */
export function swissEntrants(config: TournamentConfig, rounds: readonly RoundRecord[], outcomes: readonly GameOutcome[]): SwissEntrant[] {
  const slots = playedSlots(config, rounds, outcomes.length);
  const entrants = new Map(config.players.map((p, seed) => [p.id, { id: p.id, seed, score: 0, opponents: new Set<string>(), byes: 0 }]));
  for (const r of rounds) {
    for (const [a, b] of r.pairings) {
      entrants.get(a)!.opponents.add(b);
      entrants.get(b)!.opponents.add(a);
    }
    if (r.bye !== null) {
      entrants.get(r.bye)!.byes++;
      entrants.get(r.bye)!.score += config.games;
    }
  }
  slots.forEach((s, k) => {
    entrants.get(s.a)!.score += outcomes[k].score;
    entrants.get(s.b)!.score += 1 - outcomes[k].score;
  });
  return [...entrants.values()];
}

/** The SPRT's result vector so far (pentanomial over complete pairs when paired, else trinomial). */
export function sprtCounts(config: TournamentConfig, outcomes: readonly GameOutcome[]): Trinomial | Pentanomial {
  if (!config.paired) {
    const c: [number, number, number] = [0, 0, 0];
    for (const o of outcomes) c[o.score * 2]++;
    return c;
  }
  const c: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (let k = 0; k + 1 < outcomes.length; k += 2) c[(outcomes[k].score + outcomes[k + 1].score) * 2]++;
  return c;
}

/**
 * The next games to play given what has been played, or null when the tournament is over:
 * the rest of a fixed schedule; the rest of the current Swiss round or a new one (paired from the
 * standings); the next SPRT pair unless the test has decided or its game limit is reached.
 */
export function nextBatch(config: TournamentConfig, progress: TournamentProgress): Batch | null {
  const done = progress.outcomes.length;
  if (config.format === 'round-robin' || config.format === 'gauntlet') {
    const rest = fixedSchedule(config).slice(done);
    return rest.length ? { slots: rest } : null;
  }
  if (config.format === 'sprt') {
    const s = config.sprt!;
    if (done >= s.maxGames) return null;
    if (sprtState(sprtCounts(config, progress.outcomes), s).decision) return null;
    const step = config.paired ? 2 - (done % 2) : 1;
    return { slots: Array.from({ length: Math.min(step, s.maxGames - done) }, (_, i) => sprtSlot(config, done + i)) };
  }
  const stored = encounterSlots(config, swissEncounters(progress.rounds), 0);
  if (done < stored.length) return { slots: stored.slice(done) };
  const next = progress.rounds.length;
  if (next >= swissRounds(config)) return null;
  const paired = swissPairing(swissEntrants(config, progress.rounds, progress.outcomes), next);
  const round: RoundRecord = { round: next, pairings: paired.pairings, bye: paired.bye };
  const encounters = swissEncounters([...progress.rounds, round]).filter((e) => e.round === next);
  return { round, slots: encounterSlots(config, encounters, stored.length) };
}
