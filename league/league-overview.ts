import type { JsonValue } from '../src/core/json';
import type { MatchRecord, PlayerRecord, Store } from '../src/store/store';
import { learnerOf } from './lineage';

/** A point of a rating series: [league match index, rating]. */
export type RatingPointXY = [number, number];

/** One player's rating over the league's matches, on one side (role or team). */
export interface RatingSeries {
  player: string;
  kind: PlayerRecord['kind'];
  points: RatingPointXY[];
}

/** A league game worth watching: one of the learner's best recent results. */
export interface BestGame {
  id: string;
  idx: number;
  endedAt: number;
  outcome: string;
  /** The learner's mean return over its seats. */
  return: number;
  /** The other players, one entry per player with how many seats it held. */
  opponents: { player: string; seats: number }[];
}

/** A learner's progress in its league. */
export interface LearnerOverview {
  id: string;
  roles: string[];
  /** Rated games of the learner's current policy, per side (role or team) it plays. */
  games: Record<string, number>;
  /** Frozen snapshots descending from the learner, oldest first, with their current Elo per side. */
  snapshots: { id: string; iteration: number; createdAt: number; elo: Record<string, number> }[];
  /** Training iterations recorded, and the newest one's headline numbers. */
  iterations: number;
  lastIteration: { iteration: number; time: number; meanReturn: Record<string, number>; winRate: Record<string, number> } | null;
  /** Online Elo over the league's matches, per side the learner plays: the learner first, then every baseline rated there. */
  ratings: { side: string; series: RatingSeries[] }[];
  /** The learner's best results among the league's newest games, best first (newest first among equals). */
  best: BestGame[];
}

/** One exploit probe's record (league/exploit/probe.ts): the exploiter's win rate after each probe round. */
export interface ExploitabilityOverview {
  probe: string;
  /** The players and learners it exploits. */
  of: string[];
  /** Win rate of the exploiter (ties ½) with its 95% bootstrap interval, its mean return minus the exploited side's. */
  points: { round: number; time: number; winRate: number; lo: number | null; hi: number | null; margin: number | null; trainingEpisodes: number; episodes: number }[];
}

/** What the league overview page shows. */
export interface LeagueOverview {
  league: string;
  env: string | null;
  matches: number;
  /** End time of the newest match, or null before the first. */
  lastMatchAt: number | null;
  baselines: { id: string; roles: string[] }[];
  learners: LearnerOverview[];
  /** The exploit probes' records, oldest round first (empty without exploit probes). */
  exploitability: ExploitabilityOverview[];
}

/** Options of {@link leagueOverview}. */
export interface OverviewOptions {
  /** Newest matches searched for the best games (default 500). */
  recent?: number;
  /** Best games per learner (default 5). */
  best?: number;
  /** Most points per rating series: longer series are thinned evenly, keeping the last (default 300). */
  maxPoints?: number;
}

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Numeric members of a JSON object. */
function numbers(v: JsonValue | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (isObject(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'number' && Number.isFinite(x)) out[k] = x;
  return out;
}

/** At most `max` points, evenly spaced, always keeping the first and the last. */
export function thin<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return points.slice();
  const out: T[] = [];
  const step = (points.length - 1) / (max - 1);
  for (let k = 0; k < max; k++) out.push(points[Math.round(k * step)]);
  return out;
}

/**
 * The overview of a league for its page: matches played, the baselines, and per learner its
 * snapshots, training progress (iterations and the newest one's mean return and win rates),
 * its online Elo over time against the baselines on every side it plays, and links to its best
 * recent games; and the exploit probes' records (exploitability over rounds). Null when the
 * league does not exist.
 */
export function leagueOverview(store: Store, league: string, options: OverviewOptions = {}): LeagueOverview | null {
  const info = store.leagues().find((l) => l.id === league);
  if (!info) return null;
  const config = isObject(info.config) ? info.config : {};
  const players = store.players(league);
  const byId = new Map(players.map((p) => [p.id, p]));
  const recent = store.matches(league, { limit: options.recent ?? 500, newestFirst: true });
  const ratings = store.ratings(league, 'elo');
  const history = store.ratingHistory(league, 'elo');
  const training = store.trainingMetrics(league);
  const maxPoints = options.maxPoints ?? 300;

  const seriesOf = (player: string, side: string): RatingPointXY[] =>
    thin(
      history.filter((h) => h.player === player && h.role === side).map((h): RatingPointXY => [h.matchIdx, h.value]),
      maxPoints,
    );

  const learners = players
    .filter((p) => p.kind === 'learner')
    .map((l): LearnerOverview => {
      const mine = ratings.filter((r) => r.player === l.id);
      const sides = [...new Set(mine.map((r) => r.role))].sort();
      const games: Record<string, number> = {};
      for (const r of mine) {
        const g = isObject(r.state) ? r.state.games : undefined;
        games[r.role] = typeof g === 'number' ? g : 0;
      }
      const snapshots = players
        .filter((p) => p.kind === 'snapshot' && learnerOf(p.id, byId) === l.id)
        .map((p) => ({
          id: p.id,
          iteration: p.version,
          createdAt: p.createdAt,
          elo: Object.fromEntries(ratings.filter((r) => r.player === p.id).map((r) => [r.role, r.value])),
        }));
      const its = training.filter((t) => t.role === l.id);
      const last = its[its.length - 1];
      let lastIteration: LearnerOverview['lastIteration'] = null;
      if (last) {
        const groups = isObject(last.metrics) && isObject(last.metrics.learners) ? Object.values(last.metrics.learners) : [];
        const meanReturn: Record<string, number> = {};
        const winRate: Record<string, number> = {};
        for (const g of groups) {
          if (!isObject(g)) continue;
          Object.assign(meanReturn, numbers(g.meanReturn));
          Object.assign(winRate, numbers(g.winRate));
        }
        lastIteration = { iteration: last.iteration, time: last.time, meanReturn, winRate };
      }
      const baselines = players.filter((p) => p.kind === 'baseline').map((p) => p.id);
      const rated = (side: string) => baselines.filter((b) => ratings.some((r) => r.player === b && r.role === side));
      return {
        id: l.id,
        roles: l.roles,
        games,
        snapshots,
        iterations: its.length,
        lastIteration,
        ratings: sides.map((side) => ({
          side,
          series: [
            { player: l.id, kind: 'learner' as const, points: seriesOf(l.id, side) },
            ...rated(side).map((b) => ({ player: b, kind: 'baseline' as const, points: seriesOf(b, side) })),
          ],
        })),
        best: bestGames(recent, l.id, options.best ?? 5),
      };
    });

  return {
    league,
    env: store.leagueEnv(league),
    matches: store.matchCount(league),
    lastMatchAt: recent.length ? recent[0].endedAt : null,
    baselines: players.filter((p) => p.kind === 'baseline').map((p) => ({ id: p.id, roles: p.roles })),
    learners,
    exploitability: exploitability(training),
  };
}

/** Exploit probe rows (`probe:<id>` with kind "exploit") grouped per probe. */
export function exploitability(training: readonly { iteration: number; role: string; metrics: JsonValue; time: number }[]): ExploitabilityOverview[] {
  const out = new Map<string, ExploitabilityOverview>();
  for (const t of training) {
    const m = t.metrics;
    if (!isObject(m) || m.kind !== 'exploit' || typeof m.probe !== 'string' || !isObject(m.winRate)) continue;
    const w = numbers(m.winRate);
    if (w.mean === undefined) continue;
    const margin = isObject(m.margin) ? numbers(m.margin).mean : undefined;
    let o = out.get(m.probe);
    if (!o) out.set(m.probe, (o = { probe: m.probe, of: Array.isArray(m.of) ? m.of.filter((x): x is string => typeof x === 'string') : [], points: [] }));
    o.points.push({ round: t.iteration, time: t.time, winRate: w.mean, lo: w.lo ?? null, hi: w.hi ?? null, margin: margin ?? null, trainingEpisodes: typeof m.trainingEpisodes === 'number' ? m.trainingEpisodes : 0, episodes: typeof m.episodes === 'number' ? m.episodes : 0 });
  }
  return [...out.values()];
}

/** The learner's best results among `recent` (newest first): highest mean return over its seats, newest first among equals. */
export function bestGames(recent: readonly MatchRecord[], learner: string, count: number): BestGame[] {
  const games: BestGame[] = [];
  for (const m of recent) {
    const seats = m.seats.flatMap((s, i) => (s.player === learner ? [i] : []));
    if (!seats.length) continue;
    const others = new Map<string, number>();
    for (const s of m.seats) if (s.player !== learner) others.set(s.player, (others.get(s.player) ?? 0) + 1);
    games.push({
      id: m.id,
      idx: m.idx,
      endedAt: m.endedAt,
      outcome: m.outcome,
      return: seats.reduce((t, i) => t + (m.returns[i] ?? 0), 0) / seats.length,
      opponents: [...others].map(([player, n]) => ({ player, seats: n })),
    });
  }
  return games.sort((a, b) => b.return - a.return || b.idx - a.idx).slice(0, count);
}
