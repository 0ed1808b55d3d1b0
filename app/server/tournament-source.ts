import { reportJson, type Jsonified, type TournamentReport } from '../../league/tournament/report';
import { listTournaments, storedTournamentReport, type TournamentListing } from '../../league/tournament/stored';
import type { Store } from '../../src/store/store';

/** The newest games of a tournament, as the page links them to their replays. */
export interface TournamentGame {
  id: string;
  idx: number;
  players: string[];
  returns: number[];
  outcome: string;
  code: string;
}

/** What the page's tournament view reads: the list, and one tournament's report (JSON) with its newest games. */
export interface TournamentSource {
  list(): TournamentListing[];
  /** The report (see league/tournament/report.ts, `reportJson`) and the newest games; null when unknown. */
  get(id: string, options?: { recent?: number }): { report: Jsonified<TournamentReport>; recent: TournamentGame[] } | null;
}

/** Tournaments of a store; a report is rebuilt only when the tournament's game count changes. */
export function storeTournaments(store: Store): TournamentSource {
  const cache = new Map<string, { games: number; report: Jsonified<TournamentReport> }>();
  return {
    list: () => listTournaments(store),
    get(id, options = {}) {
      const games = store.matchCount(id);
      let hit = cache.get(id);
      if (!hit || hit.games !== games) {
        const report = storedTournamentReport(store, id);
        if (!report) return null;
        hit = { games, report: reportJson(report) };
        cache.set(id, hit);
      }
      const recent = store.matches(id, { limit: options.recent ?? 20, newestFirst: true }).map((m) => ({
        id: m.id,
        idx: m.idx,
        players: m.seats.map((s) => s.player),
        returns: m.returns,
        outcome: m.outcome,
        code: m.code,
      }));
      return { report: hit.report, recent };
    },
  };
}
