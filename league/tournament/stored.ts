import type { Store } from '../../src/store/store';
import { parseTournamentConfig, type TournamentConfig } from './config';
import { tournamentReport, type TournamentReport } from './report';

/** A tournament as listed: id, format, env, games stored, when it was created. */
export interface TournamentListing {
  id: string;
  format: string;
  env: string | null;
  games: number;
  createdAt: number;
}

/** The tournaments of a store in creation order. */
export function listTournaments(store: Store): TournamentListing[] {
  return store.tournaments().map((t) => {
    const c = t.config && typeof t.config === 'object' && !Array.isArray(t.config) ? t.config : {};
    return { id: t.id, format: t.format, env: typeof c.env === 'string' ? c.env : null, games: store.matchCount(t.id), createdAt: t.createdAt };
  });
}

/** The stored config of tournament `id` (null when there is none). */
export function storedTournamentConfig(store: Store, id: string): TournamentConfig | null {
  const t = store.tournaments().find((x) => x.id === id);
  return t ? parseTournamentConfig(t.config) : null;
}

/** The report (crosstable, standings, rounds, SPRT) of a stored tournament; null when there is none. */
export function storedTournamentReport(store: Store, id: string): TournamentReport | null {
  const config = storedTournamentConfig(store, id);
  return config ? tournamentReport(config, store.matches(id), store.rounds(id)) : null;
}
