import type { AgentReport } from '../src/core/agent';
import { addReports, type UsageTotals } from '../src/match/usage';
import type { Store } from '../src/store/store';

/**
 * Per-player totals of the agents' reports over a league's stored matches (LLM players:
 * requests, tokens, latency, cost, and the model snapshots that played): the league table's
 * usage section. Players without reports are absent.
 */
export function leagueUsage(store: Store, league: string): Map<string, UsageTotals> {
  const usage = new Map<string, UsageTotals>();
  for (const m of store.matches(league)) addReports(usage, m.reports as (AgentReport | null)[] | undefined, (seat) => m.seats[seat].player);
  return usage;
}
