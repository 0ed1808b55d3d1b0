import type { Env } from '../core/env';
import type { JsonValue } from '../core/json';
import { Rng } from '../core/rng';
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
  /**
   * Completed episodes the env's aggregate covers, when fewer than all of them: past
   * {@link ENV_SAMPLE} episodes it covers a uniform random sample of that many.
   */
  envEpisodes?: number;
}

/** Episode summaries kept for the env's aggregate; past this, a uniform sample (reservoir) of this many. */
export const ENV_SAMPLE = 20_000;

/**
 * A running summary of a series of episodes in constant memory: counts and sums, and for the
 * env's aggregate the summaries of the completed episodes, or a seeded uniform sample of
 * {@link ENV_SAMPLE} of them once there are more (so `play --episodes 1e12` stays flat).
 */
export class SeriesTally {
  private n = 0;
  private returnSums: number[] = [];
  private readonly outcomes: Record<string, number> = {};
  private readonly codes: Record<string, number> = {};
  private length = 0;
  private decisions = 0;
  private faults = 0;
  private okSeen = 0;
  private readonly sample: JsonValue[] = [];
  private readonly rng = Rng.fromSeed(1);
  private readonly usage = new Map<string, UsageTotals>();

  constructor(private readonly env: Env) {}

  /** Adds one finished match. */
  add(r: Pick<MatchResult, 'returns' | 'outcome' | 'code' | 'length' | 'decisions' | 'faults' | 'summary'> & Partial<Pick<MatchResult, 'reports' | 'agents'>>): void {
    this.n++;
    if (r.reports) addReports(this.usage, r.reports, (seat) => r.agents?.[seat] ?? `seat ${seat}`);
    for (let i = 0; i < r.returns.length; i++) this.returnSums[i] = (this.returnSums[i] ?? 0) + r.returns[i];
    this.outcomes[r.outcome] = (this.outcomes[r.outcome] ?? 0) + 1;
    this.codes[r.code] = (this.codes[r.code] ?? 0) + 1;
    this.length += r.length;
    this.decisions += r.decisions;
    this.faults += r.faults.length;
    if (!this.env.aggregate || r.code !== 'ok') return;
    this.okSeen++;
    if (this.sample.length < ENV_SAMPLE) this.sample.push(r.summary);
    else {
      const j = this.rng.int(this.okSeen);
      if (j < ENV_SAMPLE) this.sample[j] = r.summary;
    }
  }

  /** The summary so far. */
  summary(): SeriesSummary {
    const n = this.n;
    const s: SeriesSummary = {
      episodes: n,
      meanReturns: this.returnSums.map((x) => (n ? x / n : 0)),
      outcomes: { ...this.outcomes },
      codes: { ...this.codes },
      meanLength: n ? this.length / n : 0,
      meanDecisions: n ? this.decisions / n : 0,
      faults: this.faults,
    };
    if (this.usage.size) s.usage = usageJson(this.usage);
    if (this.env.aggregate) {
      s.env = this.env.aggregate(this.sample);
      if (this.okSeen > this.sample.length) s.envEpisodes = this.sample.length;
    }
    return s;
  }
}

/** Summarizes finished matches of one env. */
export function summarize(env: Env, results: readonly MatchResult[]): SeriesSummary {
  const tally = new SeriesTally(env);
  for (const r of results) tally.add(r);
  return tally.summary();
}
