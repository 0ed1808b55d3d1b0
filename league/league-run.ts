import type { MatchRecord } from '../src/store/store';
import { drive } from './engine/drive';
import { localPlayer } from './engine/local-player';
import { LeagueConfigError } from './config';
import { lockLeague } from './league-lock';
import type { LeagueOpenOptions } from './league-prepare';
import { LeagueSchedule } from './league-schedule';
import { servedPlayer, workerPlayer, type WorkerPlayOptions } from './engine/worker-player';

/** How to run (or resume) a league. */
export interface LeagueRunOptions extends LeagueOpenOptions {
  /** Stops cleanly before the next match (Ctrl-C). */
  signal?: AbortSignal;
  /** Called after every recorded match. */
  onMatch?: (m: MatchRecord, done: number, total: number) => void;
  /** Play at most this many matches in this call (the budget still bounds the league). */
  maxMatches?: number;
  /**
   * Play the matches on `arena worker` processes through Redis (`league run --redis`,
   * docs/scale-out.md); the config needs a `window`. Default: in this process.
   */
  workers?: WorkerPlayOptions;
}

/** What a run did. */
export interface LeagueRunResult {
  /** Matches played by this call. */
  played: number;
  /** Completed matches of the league in total. */
  completed: number;
  budget: number;
  stopped: boolean;
}

/**
 * Runs a league until its match budget is spent, recording every match (with its events and
 * rating updates, atomically) in the store: the league's schedule (league-schedule.ts) driven by
 * the one loop of scheduled play (engine/drive.ts), played in this process or on workers.
 * Restarting with the same config and database resumes where it stopped: match k's seed and
 * pairing depend only on the league seed, k and the league's state at its pairing point, and a
 * training round is recorded with its checkpoints or redone, so a resumed league ends with
 * exactly the ratings of an uninterrupted run, wherever its matches were played.
 */
export async function runLeague(o: LeagueRunOptions): Promise<LeagueRunResult> {
  if (o.workers) {
    const served = servedPlayer(o.config.players);
    if (served) throw new LeagueConfigError(`league config: player "${served.id}": ${served.kind} players are served by the league's own process and cannot play on workers; run this league without --redis`);
  }
  const unlock = lockLeague(o.store.db.name, o.config.name);
  try {
    const schedule = await LeagueSchedule.open(o);
    try {
      const player = o.workers ? await workerPlayer(schedule, { ...o.workers, bus: o.bus, log: o.log }) : localPlayer(o);
      const r = await drive(schedule, player, { signal: o.signal, maxMatches: o.maxMatches, onFold: (m, done) => o.onMatch?.(m, done, schedule.budget) });
      return { played: r.played, completed: r.completed, budget: schedule.budget, stopped: r.interrupted };
    } finally {
      schedule.dispose();
    }
  } finally {
    unlock();
  }
}
