import { EventLoopTurn } from '../../src/core/event-loop';
import type { LeagueRunOptions, LeagueRunResult } from '../league-run';
import { lockLeague } from '../league-lock';
import { PlannedLeague } from './planned-league';
import { playPlan } from './play-plan';
import { withConfigPathsResolved } from '../module-paths';

/**
 * Plays a league with a pairing window in this process, one match at a time in index order:
 * the same plans, the same play (playPlan) and the same recording as `league run --redis` with
 * any number of workers, so both end with the same matches, ratings and history when players
 * are deterministic. Resumes like the classic league (kill -9 at any point, rerun).
 */
export async function runPlannedLeague(options: LeagueRunOptions): Promise<LeagueRunResult> {
  const o = withConfigPathsResolved(options);
  const unlock = lockLeague(o.store.db.name, o.config.name);
  try {
    const league = await PlannedLeague.open(o);
    try {
      return await playLocally(league, o);
    } finally {
      league.dispose();
    }
  } finally {
    unlock();
  }
}

async function playLocally(league: PlannedLeague, o: LeagueRunOptions): Promise<LeagueRunResult> {
  const budget = league.budget;
  let played = 0;
  let stopped = !(await league.catchUp(o.signal));
  const turn = new EventLoopTurn();
  while (!stopped && league.completed < budget && (o.maxMatches === undefined || played < o.maxMatches)) {
    await turn.maybe(); // lets Ctrl-C and other events in between synchronous matches
    if (o.signal?.aborted) {
      stopped = true;
      break;
    }
    const plan = league.nextPlans()[0];
    const done = await playPlan(plan, { registry: o.registry, bus: o.bus, signal: o.signal, localFile: async (ref) => ref.path });
    if (!done) {
      stopped = true;
      break;
    }
    const record = league.fold(plan, done.played, done.events);
    played++;
    o.onMatch?.(record, league.completed, budget);
    stopped = !(await league.afterFold(o.signal));
  }
  return { played, completed: league.completed, budget, stopped };
}
