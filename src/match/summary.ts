import type { Env } from '../core/env';
import type { JsonValue } from '../core/json';
import type { MatchResult } from './runner';
import { addReports, usageJson, type UsageTotals } from './usage';

/** Aggregate of a series of episodes (the `{"summary": ...}` line of `arena play --json`). */
export interface SeriesSummary {
  episodes: number;
  meanReturns: number[];
  outcomes: Record<string, number>;
  codes: Record<string, number>;
  meanLength: number;
  meanDecisions: number;
  faults: number;
  /** The env's own aggregate (agreement rate, win rate per team, ...), when it has one. */
  env?: { [key: string]: JsonValue };
  /** Agents' reported usage (LLM tokens, latency, cost) by agent name, when any agent reports. */
  usage?: { [agent: string]: JsonValue };
}

/** Summarizes finished matches of one env. */
export function summarize(env: Env, results: readonly MatchResult[]): SeriesSummary {
  const n = results.length;
  const seats = Math.max(0, ...results.map((r) => r.returns.length));
  const meanReturns = Array.from({ length: seats }, (_, i) => (n ? results.reduce((s, r) => s + (r.returns[i] ?? 0), 0) / n : 0));
  const outcomes: Record<string, number> = {};
  const codes: Record<string, number> = {};
  let length = 0;
  let decisions = 0;
  let faults = 0;
  for (const r of results) {
    outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    codes[r.code] = (codes[r.code] ?? 0) + 1;
    length += r.length;
    decisions += r.decisions;
    faults += r.faults.length;
  }
  const summary: SeriesSummary = {
    episodes: n,
    meanReturns,
    outcomes,
    codes,
    meanLength: n ? length / n : 0,
    meanDecisions: n ? decisions / n : 0,
    faults,
  };
  const usage = new Map<string, UsageTotals>();
  for (const r of results) addReports(usage, r.reports, (seat) => r.agents[seat]);
  if (usage.size) summary.usage = usageJson(usage);
  if (env.aggregate) summary.env = env.aggregate(results.filter((r) => r.code === 'ok').map((r) => r.summary));
  return summary;
}
