/**
 * The crosstable of a tournament: for every two players who met, the games, wins, draws and
 * losses of the row player, its points and score, the same split by the side it played (seat or
 * team), and — for paired games — the pentanomial counts of its complete game pairs with the
 * resulting Elo estimate (statistics.ts).
 */
import type { GameOutcome } from './game-outcome';
import type { GameSlot } from './schedule';
import { eloEstimate, type EloEstimate, type Pentanomial, type Trinomial } from './statistics';

/** Wins, draws and losses. */
export interface Wdl {
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** The row player's results against the column player. */
export interface CrosstableCell extends Wdl {
  player: string;
  opponent: string;
  points: number;
  /** points / games. */
  score: number;
  /** Results split by the side the row player held (e.g. "seat 0", "werewolves"). */
  bySide: Record<string, Wdl>;
  /** Complete game pairs by the row player's pair score 0, ½, 1, 1½, 2 (paired games only). */
  pentanomial: Pentanomial | null;
  /** Elo of the row player against the column player (pentanomial when paired, else trinomial). */
  elo: EloEstimate;
}

/** Every meeting, both ways round. */
export interface Crosstable {
  players: string[];
  cells: CrosstableCell[];
}

/** One game seen from one player: score and side, plus the pair it belongs to. */
export interface PlayerGame {
  player: string;
  opponent: string;
  score: 1 | 0.5 | 0;
  side: string;
  /** `encounter:pair` for paired games, else null. */
  pairKey: string | null;
}

/** Both players' views of every game. */
export function playerGames(slots: readonly GameSlot[], outcomes: readonly GameOutcome[]): PlayerGame[] {
  const out: PlayerGame[] = [];
  outcomes.forEach((o, k) => {
    const s = slots[k];
    const pairKey = s.pair === null ? null : `${s.encounter}:${s.pair}`;
    out.push({ player: s.a, opponent: s.b, score: o.score, side: o.sideA, pairKey });
    out.push({ player: s.b, opponent: s.a, score: (1 - o.score) as 1 | 0.5 | 0, side: o.sideB, pairKey });
  });
  return out;
}

/** Adds one game to a W-D-L count. */
export function addGame(w: Wdl, score: number): void {
  w.games++;
  if (score === 1) w.wins++;
  else if (score === 0) w.losses++;
  else w.draws++;
}

const emptyWdl = (): Wdl => ({ games: 0, wins: 0, draws: 0, losses: 0 });

/**
 * The pentanomial counts of complete pairs among `games` (one player's view) and the trinomial
 * counts of all its games. A pair whose second game is not played yet is left out of the
 * pentanomial vector.
 */
export function resultVectors(games: readonly PlayerGame[]): { trinomial: Trinomial; pentanomial: Pentanomial | null } {
  const tri: [number, number, number] = [0, 0, 0];
  for (const g of games) tri[g.score * 2]++;
  if (!games.length || games.some((g) => g.pairKey === null)) return { trinomial: tri, pentanomial: null };
  const pairs = new Map<string, number[]>();
  for (const g of games) pairs.set(g.pairKey!, [...(pairs.get(g.pairKey!) ?? []), g.score]);
  const penta: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const scores of pairs.values()) if (scores.length === 2) penta[(scores[0] + scores[1]) * 2]++;
  return { trinomial: tri, pentanomial: penta };
}

/** Elo from one player's games: pentanomial when they are paired, else trinomial. */
export function eloOfGames(games: readonly PlayerGame[]): { estimate: EloEstimate; trinomial: Trinomial; pentanomial: Pentanomial | null } {
  const v = resultVectors(games);
  return { estimate: eloEstimate(v.pentanomial ?? v.trinomial), ...v };
}

/** Builds the crosstable of the played games (`slots[k]` is the slot of `outcomes[k]`). */
export function buildCrosstable(players: readonly string[], slots: readonly GameSlot[], outcomes: readonly GameOutcome[]): Crosstable {
  const byPair = new Map<string, PlayerGame[]>();
  for (const g of playerGames(slots, outcomes)) {
    const key = `${g.player}\u0000${g.opponent}`;
    byPair.set(key, [...(byPair.get(key) ?? []), g]);
  }
  const cells: CrosstableCell[] = [];
  for (const player of players) {
    for (const opponent of players) {
      const games = byPair.get(`${player}\u0000${opponent}`);
      if (!games) continue;
      const total = emptyWdl();
      const bySide: Record<string, Wdl> = {};
      let points = 0;
      for (const g of games) {
        addGame(total, g.score);
        addGame((bySide[g.side] ??= emptyWdl()), g.score);
        points += g.score;
      }
      const { estimate, pentanomial } = eloOfGames(games);
      cells.push({ player, opponent, ...total, points, score: points / total.games, bySide, pentanomial, elo: estimate });
    }
  }
  return { players: [...players], cells };
}
