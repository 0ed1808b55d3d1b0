import { bradleyTerryLeaderboard } from './bt-leaderboard';
import { PairCounts } from './pair-counts';
import { pairScore, type RatedMatch } from './rated-match';
import type { KeyRating, RatingSystem, RatingSystemKind, RatingSystemSettings } from './rating-system';

/** The group of a rating key `side\u0000player` (its side), within which ranks and rank ranges count. */
const groupOf = (key: string) => key.slice(0, key.indexOf('\u0000') >= 0 ? key.indexOf('\u0000') : key.length);

/**
 * The Bradley–Terry fit as a {@link RatingSystem}, a batch system: `update` adds a match's
 * pairwise results (each pair of sides, each pair of distinct keys across them, scored from the
 * ranks), and the ratings (Elo-like points, mean 1500) with 95 % bootstrap intervals and rank
 * ranges per group are fit from all of them when asked (seeded: the same results give the same
 * board). Its state is the results themselves: it is rebuilt by updating it with the stored
 * matches, never stored per key.
 */
export class BradleyTerrySystem implements RatingSystem {
  readonly name = 'bt';
  private readonly counts = new PairCounts();
  private fitted: Map<string, KeyRating> | null = null;

  constructor(private readonly settings: RatingSystemSettings) {}

  update(match: RatedMatch): string[] {
    const teams = match.teams;
    for (let x = 0; x < teams.length; x++) {
      for (let y = x + 1; y < teams.length; y++) {
        const score = pairScore(teams[x].rank, teams[y].rank);
        for (const a of new Set(teams[x].keys)) for (const b of new Set(teams[y].keys)) this.counts.add(a, b, score);
      }
    }
    this.fitted = null;
    return [...new Set(teams.flatMap((t) => t.keys))];
  }

  private fit(): Map<string, KeyRating> {
    if (this.fitted) return this.fitted;
    const table = this.counts.table();
    const rows = this.counts.matchCount === 0 ? [] : bradleyTerryLeaderboard(table, { resamples: this.settings.resamples ?? 1000, seed: 1, groups: table.ids.map(groupOf) }).rows;
    this.fitted = new Map(rows.map((r) => [r.id, { key: r.id, rating: r.rating, lo: r.lo, hi: r.hi, rankLo: r.rankLo, rankHi: r.rankHi, games: r.games }]));
    return this.fitted;
  }

  rate(key: string): number | undefined {
    return this.fit().get(key)?.rating;
  }

  interval(key: string): [number, number] | null {
    const r = this.fit().get(key);
    return r ? [r.lo!, r.hi!] : null;
  }

  ratings(): KeyRating[] {
    return [...this.fit().values()];
  }

  state(key: string): { games: number } {
    return { games: this.fit().get(key)?.games ?? 0 };
  }
}

export const bradleyTerrySystem: RatingSystemKind = {
  info: {
    name: 'bt',
    title: 'Bradley–Terry',
    column: 'rating',
    note: 'Bradley–Terry: one fit of every stored result (Elo-like points, league mean 1500). The bar is the 95% bootstrap interval; the rank range is where the player ranks in 95% of the bootstrap refits (a single number: the order is sure). Equal ratings share a rank.',
    history: { system: 'elo', name: 'online Elo (the table’s Bradley–Terry is one fit of all results, so it has no history)', axis: 'online Elo' },
    rankRanges: true,
  },
  online: false,
  create: (settings) => new BradleyTerrySystem(settings),
};
