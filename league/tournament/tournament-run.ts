import { drive } from '../engine/drive';
import { localPlayer } from '../engine/local-player';
import { servedPlayer, workerPlayer, type WorkerPlayOptions } from '../engine/worker-player';
import { lockLeague } from '../league-lock';
import { TournamentConfigError } from './config';
import { TournamentSchedule, type TournamentGame, type TournamentOpenOptions } from './tournament-schedule';

export type { TournamentGame } from './tournament-schedule';

/** How to run (or resume) a tournament. */
export interface TournamentRunOptions extends Omit<TournamentOpenOptions, 'window'> {
  /** Stops cleanly before the next game (Ctrl-C). */
  signal?: AbortSignal;
  /** Called after every recorded game with its slot, outcome and the games done so far. */
  onGame?: (game: TournamentGame) => void;
  /** Play at most this many games in this call. */
  maxGames?: number;
  /**
   * Play the games on `arena worker` processes through Redis (`tournament run --redis`,
   * docs/scale-out.md), at most `maxInFlight` at once (default 16). Default: in this process.
   */
  workers?: WorkerPlayOptions;
  /** Progress lines (Redis outages, failed games). */
  log?: (line: string) => void;
  /** Called once the tournament is checked and registered, before its first game (the CLI starts its page here). */
  onOpen?: () => Promise<void> | void;
}

/** What a run did. */
export interface TournamentRunResult {
  /** Games played by this call. */
  played: number;
  /** Games of the tournament stored in total. */
  completed: number;
  finished: boolean;
  stopped: boolean;
}

/** Games in flight on workers when `--in-flight` is not given (league/tournament/defaults.ts). */
import { DEFAULT_TOURNAMENT_IN_FLIGHT } from './defaults';
export { DEFAULT_TOURNAMENT_IN_FLIGHT };

/**
 * Runs a tournament to its end (or until stopped), recording every game — the match, its event
 * log and its Elo/OpenSkill updates — in one transaction, and every Swiss round's pairings before
 * its first game: the tournament's schedule (tournament-schedule.ts) driven by the one loop of
 * scheduled play (engine/drive.ts), in this process or on workers. Rerunning with the same config
 * and database resumes: the schedule, Swiss pairings, seeds and seats are functions of the config
 * and the stored results (schedule.ts), so a run killed at any point ends exactly as an
 * uninterrupted one, wherever its games were played.
 */
export async function runTournament(o: TournamentRunOptions): Promise<TournamentRunResult> {
  if (o.workers) {
    const served = servedPlayer(o.config.players);
    if (served) throw new TournamentConfigError(`tournament config: player "${served.id}": ${served.kind} players are served by this process and cannot play on workers; run without --redis`);
  }
  const unlock = lockLeague(o.store.db.name, o.config.name);
  try {
    const window = o.workers ? (o.workers.maxInFlight ?? DEFAULT_TOURNAMENT_IN_FLIGHT) : 1;
    const schedule = await TournamentSchedule.open({ ...o, window });
    await o.onOpen?.();
    const player = o.workers ? await workerPlayer(schedule, { ...o.workers, bus: o.bus, log: o.log }) : localPlayer(o);
    const r = await drive(schedule, player, { signal: o.signal, maxMatches: o.maxGames, onFold: (g) => o.onGame?.(g) });
    return { played: r.played, completed: r.completed, finished: r.finished, stopped: !r.finished };
  } finally {
    unlock();
  }
}
