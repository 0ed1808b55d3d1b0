/**
 * Tournament standings: points (a game scores 1, ½ or 0; a Swiss bye scores a win of every game
 * of its encounter), the tie-breaks, and each player's Elo difference against the opponents it
 * met with its 95% interval and likelihood of superiority (statistics.ts; pentanomial when paired).
 *
 * Tie-breaks (FIDE's definitions, on game points):
 * - Buchholz: the sum of the final points of every opponent met (a bye adds nothing);
 * - Sonneborn–Berger: Σ over opponents of (points scored against them / games against them) ×
 *   their final points — with one game per encounter, the points of the opponents beaten plus
 *   half the points of those drawn.
 * Ranking: points, then (Swiss) Buchholz, then Sonneborn–Berger, then the entry list; equal
 * points and tie-breaks share a rank.
 */
import { addGame, eloOfGames, playerGames, type Wdl } from './crosstable';
import type { GameOutcome } from './game-outcome';
import type { GameSlot, RoundRecord } from './schedule';
import type { EloEstimate, Pentanomial, Trinomial } from './statistics';

/** One line of the standings. */
export interface StandingRow extends Wdl {
  rank: number;
  player: string;
  /** Game points plus bye points. */
  points: number;
  /** Game points / games (byes left out). */
  score: number;
  byes: number;
  buchholz: number;
  sonnebornBerger: number;
  /** Elo of the player against the opponents it met, with interval and LOS. */
  elo: EloEstimate;
  trinomial: Trinomial;
  pentanomial: Pentanomial | null;
}

/** The standings after the played games (`slots[k]` is the slot of `outcomes[k]`). */
export function buildStandings(
  players: readonly string[],
  slots: readonly GameSlot[],
  outcomes: readonly GameOutcome[],
  options: { rounds?: readonly RoundRecord[]; byePoints?: number; swiss?: boolean } = {},
): StandingRow[] {
  const games = playerGames(slots, outcomes);
  const byes = new Map<string, number>();
  for (const r of options.rounds ?? []) if (r.bye !== null) byes.set(r.bye, (byes.get(r.bye) ?? 0) + 1);
  const points = new Map(players.map((p) => [p, (byes.get(p) ?? 0) * (options.byePoints ?? 0)]));
  for (const g of games) points.set(g.player, points.get(g.player)! + g.score);
  const rows = players.map((player, entry): StandingRow & { entry: number } => {
    const mine = games.filter((g) => g.player === player);
    const wdl: Wdl = { games: 0, wins: 0, draws: 0, losses: 0 };
    let gamePoints = 0;
    const vs = new Map<string, { points: number; games: number }>();
    for (const g of mine) {
      addGame(wdl, g.score);
      gamePoints += g.score;
      const v = vs.get(g.opponent) ?? { points: 0, games: 0 };
      v.points += g.score;
      v.games++;
      vs.set(g.opponent, v);
    }
    let buchholz = 0;
    let sonnebornBerger = 0;
    for (const [opp, v] of vs) {
      buchholz += points.get(opp)!;
      sonnebornBerger += (v.points / v.games) * points.get(opp)!;
    }
    const { estimate, trinomial, pentanomial } = eloOfGames(mine);
    return {
      rank: 0,
      entry,
      player,
      ...wdl,
      points: points.get(player)!,
      score: wdl.games ? gamePoints / wdl.games : NaN,
      byes: byes.get(player) ?? 0,
      buchholz,
      sonnebornBerger,
      elo: estimate,
      trinomial,
      pentanomial,
    };
  });
  const keys = (r: StandingRow) => [r.points, options.swiss ? r.buchholz : 0, r.sonnebornBerger];
  const cmp = (x: StandingRow, y: StandingRow) => {
    const kx = keys(x);
    const ky = keys(y);
    for (let i = 0; i < kx.length; i++) if (Math.abs(kx[i] - ky[i]) > 1e-9) return ky[i] - kx[i];
    return 0;
  };
  rows.sort((x, y) => cmp(x, y) || x.entry - y.entry);
  rows.forEach((r, i) => (r.rank = i > 0 && cmp(rows[i - 1], r) === 0 ? rows[i - 1].rank : i + 1));
  return rows.map(({ entry: _e, ...r }) => r);
}
