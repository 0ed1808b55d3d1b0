/**
 * AlphaStar's league roles (Vinyals et al. 2019, Nature, and its published pseudocode):
 * whom a main agent, a main exploiter and a league exploiter play, and when exploiters
 * snapshot and reset. Every draw uses the given seeded Rng.
 */
import type { Rng } from '../../src/core/rng';
import { pfspProbabilities, type PfspOptions } from './pfsp';
import { drawIndex } from './pick';

/** What the rules need to know about the league. Players are anything with an id. */
export interface LeagueView<T extends { id: string }> {
  /** Current main agents (learners). */
  mains: readonly T[];
  /** Current main exploiters (learners). */
  mainExploiters?: readonly T[];
  /** Every frozen player (snapshots and baselines), oldest first. */
  historical: readonly T[];
  /** The learner a frozen player was snapshotted from (undefined for baselines). */
  parentOf: (id: string) => string | undefined;
  /** P[a beats b], e.g. `HeadToHead.winProbability`. */
  winProbability: (a: string, b: string) => number;
}

/** A chosen opponent and the branch of the rule that chose it. */
export interface LeagueChoice<T> {
  opponent: T;
  branch: 'pfsp-all' | 'verify-exploiters' | 'verify-forgotten' | 'self-play' | 'self-play-snapshots' | 'main' | 'main-snapshots' | 'league-pfsp';
}

function pfspPick<T extends { id: string }>(self: string, pool: readonly T[], view: LeagueView<T>, rng: Rng, options: PfspOptions): T {
  const probs = pfspProbabilities(
    pool.map((o) => view.winProbability(self, o.id)),
    options,
  );
  return pool[drawIndex(probs, rng)];
}

/** Frozen snapshots of learner `parent`, oldest first. */
export function snapshotsOf<T extends { id: string }>(view: LeagueView<T>, parent: string): T[] {
  return view.historical.filter((h) => view.parentOf(h.id) === parent);
}

/**
 * Drops the newest run of snapshots over which the win rate does not rise (the newest,
 * progressively harder snapshots are not "forgotten", only not yet beaten); keeps the list
 * up to the last snapshot whose win rate rose over its predecessor. Empty when none rose.
 */
export function withoutMonotonicSuffix<T>(winRates: readonly number[], players: readonly T[]): T[] {
  for (let i = winRates.length - 1; i > 0; i--) if (winRates[i - 1] < winRates[i]) return players.slice(0, i + 1);
  return [];
}

/**
 * Main agent `self`:
 * - with probability 0.5: PFSP (f_hard, p = 2) over every frozen player;
 * - else pick a main agent M uniformly (possibly itself), and with probability 0.15 (of the
 *   whole) first verify: PFSP (f_hard) over main exploiters' snapshots if it wins fewer than
 *   30 % against one of them, else over M's "forgotten" snapshots (after
 *   {@link withoutMonotonicSuffix}) if it wins fewer than 70 % against one of them;
 * - otherwise self-play: M itself if P[self beats M] > 0.3, else PFSP (f_var) over M's
 *   snapshots (M itself when it has none).
 */
export function mainAgentOpponent<T extends { id: string }>(self: T, view: LeagueView<T>, rng: Rng): LeagueChoice<T> {
  const coin = rng.next();
  if (coin < 0.5 && view.historical.length > 0) return { opponent: pfspPick(self.id, view.historical, view, rng, { weighting: 'hard', p: 2 }), branch: 'pfsp-all' };
  if (view.mains.length === 0) throw new Error('alphastar league: main agent needs at least one main agent (itself) in view.mains');
  const m = rng.pick(view.mains);
  if (coin < 0.65) {
    const exploiters = new Set((view.mainExploiters ?? []).map((e) => e.id));
    const expSnaps = view.historical.filter((h) => exploiters.has(view.parentOf(h.id) ?? ''));
    if (expSnaps.some((h) => view.winProbability(self.id, h.id) < 0.3)) {
      return { opponent: pfspPick(self.id, expSnaps, view, rng, { weighting: 'hard', p: 2 }), branch: 'verify-exploiters' };
    }
    const own = snapshotsOf(view, m.id);
    const forgotten = withoutMonotonicSuffix(
      own.map((h) => view.winProbability(self.id, h.id)),
      own,
    );
    if (forgotten.some((h) => view.winProbability(self.id, h.id) < 0.7)) {
      return { opponent: pfspPick(self.id, forgotten, view, rng, { weighting: 'hard', p: 2 }), branch: 'verify-forgotten' };
    }
  }
  if (view.winProbability(self.id, m.id) > 0.3) return { opponent: m, branch: 'self-play' };
  const snaps = snapshotsOf(view, m.id);
  if (snaps.length === 0) return { opponent: m, branch: 'self-play' };
  return { opponent: pfspPick(self.id, snaps, view, rng, { weighting: 'var' }), branch: 'self-play-snapshots' };
}

/**
 * Main exploiter `self` targets the main agents: pick a main agent M uniformly; play M when
 * P[self beats M] > `threshold` (0.1); otherwise, as a curriculum, PFSP (f_var) over M's
 * snapshots (M itself when it has none).
 */
export function mainExploiterOpponent<T extends { id: string }>(self: T, view: LeagueView<T>, rng: Rng, threshold = 0.1): LeagueChoice<T> {
  if (view.mains.length === 0) throw new Error('alphastar league: a main exploiter needs at least one main agent in view.mains');
  const m = rng.pick(view.mains);
  if (view.winProbability(self.id, m.id) > threshold) return { opponent: m, branch: 'main' };
  const snaps = snapshotsOf(view, m.id);
  if (snaps.length === 0) return { opponent: m, branch: 'main' };
  return { opponent: pfspPick(self.id, snaps, view, rng, { weighting: 'var' }), branch: 'main-snapshots' };
}

/**
 * League exploiter `self` targets the whole league: PFSP over every frozen player with
 * f_linear_capped(x) = min(0.5, 1 − x) (opponents it already beats more than half the time
 * get proportionally less, and no opponent more than the cap).
 */
export function leagueExploiterOpponent<T extends { id: string }>(self: T, view: LeagueView<T>, rng: Rng): LeagueChoice<T> {
  const pool = view.historical.filter((h) => h.id !== self.id);
  if (pool.length === 0) throw new Error('alphastar league: a league exploiter needs at least one frozen player in view.historical');
  return { opponent: pfspPick(self.id, pool, view, rng, { weighting: 'linear-capped' }), branch: 'league-pfsp' };
}

/**
 * Whether a learner should snapshot by AlphaStar's win-rate rule: it beats every target with
 * probability above `threshold` (0.7). Targets: all main agents for a main exploiter, all
 * frozen players for a main agent or league exploiter. (AlphaStar also snapshots after a step
 * budget; the scheduler's `snapshotEvery` covers that.)
 */
export function beatsAllTargets(selfId: string, targets: readonly { id: string }[], winProbability: (a: string, b: string) => number, threshold = 0.7): boolean {
  return targets.length > 0 && targets.every((t) => winProbability(selfId, t.id) > threshold);
}

/**
 * Whether an exploiter resets to its initial weights after a snapshot: a main exploiter
 * always; a league exploiter with probability 0.25 (drawn from `rng`); a main agent never.
 */
export function resetsAfterSnapshot(type: 'main' | 'main-exploiter' | 'league-exploiter', rng: Rng): boolean {
  if (type === 'main-exploiter') return true;
  if (type === 'league-exploiter') return rng.next() < 0.25;
  return false;
}
