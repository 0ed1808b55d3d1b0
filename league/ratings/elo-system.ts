import { EloBook } from './elo-book';
import type { RatedMatch } from './rated-match';
import type { KeyRating, RatingSystem, RatingSystemKind, RatingSystemSettings, SavedRating } from './rating-system';

/** Online Elo as a {@link RatingSystem}: the rating is the value; no interval; a key's state is its games. */
export class EloSystem implements RatingSystem {
  readonly name = 'elo';
  readonly book: EloBook;

  constructor(settings: RatingSystemSettings, saved: readonly SavedRating[] = []) {
    // the league's rating history lives in the store: none is kept here (memory stays flat)
    this.book = new EloBook(
      { k: settings.eloK, initial: settings.eloInitial, historyLimit: 0 },
      {
        ratings: Object.fromEntries(saved.map((r) => [r.key, r.value])),
        games: Object.fromEntries(saved.map((r) => [r.key, typeof r.state.games === 'number' ? r.state.games : 0])),
        history: {},
      },
    );
  }

  update(match: RatedMatch): string[] {
    return this.book.record(match).map((c) => c.key);
  }

  rate(key: string): number | undefined {
    return this.book.gamesOf(key) > 0 ? this.book.rating(key) : undefined;
  }

  interval(): null {
    return null;
  }

  ratings(): KeyRating[] {
    return this.book.table().map((r) => ({ key: r.key, rating: r.rating, games: r.games }));
  }

  state(key: string): { games: number } {
    return { games: this.book.gamesOf(key) };
  }
}

export const eloSystem: RatingSystemKind = {
  info: {
    name: 'elo',
    title: 'Elo',
    column: 'Elo',
    note: 'Online Elo: updated after every match, starting at 1500. It has no interval; use Bradley–Terry to see how sure the order is. Equal ratings share a rank.',
    history: { system: 'elo', name: 'online Elo', axis: 'online Elo' },
  },
  online: true,
  create: (settings, saved) => new EloSystem(settings, saved),
};
