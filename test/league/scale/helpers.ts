/** Shared helpers of the scale-out tests: league configs, what a league's or a tournament's outcome consists of, a ceiling on a wait. */
import { resolve } from 'node:path';
import { withResolvedModuleRefs } from '../../../league/module-paths';
import { Store } from '../../../src/store/store';
import { EventBus } from '../../../src/bus/event-bus';
import { createRegistry } from '../../../app/catalog';
import { parseLeagueConfig } from '../../../league/config';
import { runLeague } from '../../../league/league-run';
import { storedTournamentReport } from '../../../league/tournament/stored';

/** A rock-paper-scissors league of deterministic players (seeded random, counter, first legal, async random). */
export function rpsLeague(name: string, budget: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    env: './examples/rock-paper-scissors.js',
    params: { rounds: 3 },
    seed: 7,
    players: [
      { id: 'random', agent: 'random' },
      { id: 'counter', agent: 'counter-last' },
      { id: 'first', agent: './test/fixtures/league-agents.js#first-legal' },
      { id: 'sleepy', agent: './test/fixtures/league-agents.js#sleepy-random' },
    ],
    matchmaking: { mode: 'pfsp' },
    budget: { matches: budget },
    ...extra,
  };
}

/** Everything a league's outcome consists of, minus wall-clock times: matches, ratings, history, event logs. */
export function outcome(db: string, league: string, options: { events?: boolean } = {}) {
  const store = new Store(db, { readonly: true });
  try {
    const matches = store.matches(league);
    return {
      matches: matches.map(({ startedAt: _s, endedAt: _e, ...m }) => m),
      ratings: store.ratings(league),
      elo: store.ratingHistory(league, 'elo').map(({ time: _t, ...h }) => h),
      openskill: store.ratingHistory(league, 'openskill').map(({ time: _t, ...h }) => h),
      events: options.events === false ? [] : matches.map((m) => store.events(m.id).map(({ time: _t, ...e }) => e)),
    };
  } finally {
    store.close();
  }
}

/** Matches recorded so far (0 while the database does not exist yet). */
export function matchCount(db: string, league: string): number {
  try {
    const store = new Store(db, { readonly: true });
    try {
      return store.matchCount(league);
    } finally {
      store.close();
    }
  } catch {
    return 0;
  }
}

/** A config as written to a file outside the repo: its module paths (relative to the repo root) made absolute, as config files' paths are read from their own folder. */
export function asConfigFile(raw: Record<string, unknown>): string {
  return JSON.stringify(withResolvedModuleRefs(raw as { env: string; players: { agent: string }[] }, resolve(__dirname, '..', '..', '..')));
}

/** Everything a tournament's outcome consists of, minus wall-clock times: rounds, games, ratings, history, event logs, the report. */
export function tournamentOutcome(db: string, name: string) {
  const store = new Store(db, { readonly: true });
  try {
    const matches = store.matches(name);
    return {
      rounds: store.rounds(name),
      matches: matches.map(({ startedAt: _s, endedAt: _e, ...m }) => m),
      ratings: store.ratings(name),
      history: store.ratingHistory(name, 'elo').map(({ time: _t, ...h }) => h),
      events: matches.map((m) => store.events(m.id).map(({ time: _t, ...e }) => e)),
      report: storedTournamentReport(store, name),
    };
  } finally {
    store.close();
  }
}

/** Resolves with `p`, rejects after `ms` (a generous ceiling, never a pause). */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

/** Plays a league config in this process into `db` (the single-process run a run on workers must equal). */
export async function inOneProcess(db: string, raw: Record<string, unknown>): Promise<void> {
  const store = new Store(db);
  try {
    await runLeague({ config: parseLeagueConfig(raw), store, registry: createRegistry(), bus: new EventBus() });
  } finally {
    store.close();
  }
}
