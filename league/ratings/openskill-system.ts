import { OpenSkillBook } from './openskill-book';
import type { RatedMatch } from './rated-match';
import type { KeyRating, RatingSystem, RatingSystemKind, RatingSystemSettings, SavedRating } from './rating-system';

/** z of a two-sided 95 % normal interval. */
const Z95 = 1.959964;

/**
 * OpenSkill (Weng–Lin, Plackett–Luce) as a {@link RatingSystem}: the stored value is the
 * conservative ordinal μ − 3σ; a leaderboard shows μ with its interval μ ± 1.96σ; a key's state
 * is μ, σ and its games.
 */
export class OpenSkillSystem implements RatingSystem {
  readonly name = 'openskill';
  readonly book: OpenSkillBook;

  constructor(_settings: RatingSystemSettings, saved: readonly SavedRating[] = []) {
    this.book = new OpenSkillBook(
      { historyLimit: 0 },
      {
        ratings: Object.fromEntries(saved.map((r) => [r.key, { mu: Number(r.state.mu), sigma: Number(r.state.sigma) }])),
        games: Object.fromEntries(saved.map((r) => [r.key, typeof r.state.games === 'number' ? r.state.games : 0])),
        history: {},
      },
    );
  }

  update(match: RatedMatch): string[] {
    return this.book.record(match).map((c) => c.key);
  }

  private rated(key: string): boolean {
    return this.book.gamesOf(key) > 0;
  }

  rate(key: string): number | undefined {
    return this.rated(key) ? this.book.ordinal(key) : undefined;
  }

  interval(key: string): [number, number] | null {
    if (!this.rated(key)) return null;
    const { mu, sigma } = this.book.get(key);
    return [mu - Z95 * sigma, mu + Z95 * sigma];
  }

  ratings(): KeyRating[] {
    return this.book.table().map((r) => ({ key: r.key, rating: r.mu, lo: r.mu - Z95 * r.sigma, hi: r.mu + Z95 * r.sigma, ordinal: r.ordinal, games: r.games }));
  }

  state(key: string): { mu: number; sigma: number; games: number } {
    return { ...this.book.get(key), games: this.book.gamesOf(key) };
  }
}

export const openSkillSystem: RatingSystemKind = {
  info: {
    name: 'openskill',
    title: 'OpenSkill',
    column: 'skill μ',
    note: 'OpenSkill (Weng–Lin, Plackett–Luce): μ is the skill estimate and σ its uncertainty; a new player starts at μ = 25, σ ≈ 8.33. The bar is μ ± 1.96σ (95%). The league’s matchmaking and the chart use the conservative μ − 3σ, which starts at 0 (25 − 3 × 8.33) and is negative while a player is uncertain or below 25. Equal ratings share a rank.',
    history: { system: 'openskill', name: 'OpenSkill μ − 3σ (the conservative rating matchmaking uses)', axis: 'μ − 3σ' },
    ordinal: 'μ − 3σ',
  },
  online: true,
  create: (settings, saved) => new OpenSkillSystem(settings, saved),
};
