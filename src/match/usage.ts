/**
 * Totals of agents' per-episode reports (`Agent.report`: LLM tokens, latency, cost) by agent
 * or player: what the play summary and the league table show. Numeric fields are summed
 * (fields named max* take the maximum); `endpoint` + `model` name the model snapshot.
 */
import type { AgentReport } from '../core/agent';
import type { JsonObject } from '../core/json';

/** The totals of one agent or player. */
export interface UsageTotals {
  /** Seat-episodes with a report. */
  seats: number;
  /** Summed (or max*) numeric report fields: decisions, requests, promptTokens, completionTokens, latencyMs, costUsd... */
  totals: Record<string, number>;
  /** Mean latency per request in ms, when the reports count requests and latency. */
  meanLatencyMs: number | null;
  /** Model snapshots seen ("model @ endpoint"). */
  snapshots: string[];
}

/** "model @ endpoint" of a report, or null when it names none. */
export function snapshotOf(report: AgentReport | null | undefined): string | null {
  if (!report || typeof report.model !== 'string') return null;
  return typeof report.endpoint === 'string' ? `${report.model} @ ${report.endpoint}` : report.model;
}

/** Adds reports into totals keyed by `keyOf(seat index)`; returns the map (insertion-ordered). */
export function addReports(into: Map<string, UsageTotals>, reports: readonly (AgentReport | null)[] | undefined, keyOf: (seat: number) => string): Map<string, UsageTotals> {
  if (!reports) return into;
  reports.forEach((r, seat) => {
    if (!r) return;
    const key = keyOf(seat);
    let t = into.get(key);
    if (!t) into.set(key, (t = { seats: 0, totals: {}, meanLatencyMs: null, snapshots: [] }));
    t.seats++;
    for (const [k, v] of Object.entries(r)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      t.totals[k] = k.startsWith('max') ? Math.max(t.totals[k] ?? -Infinity, v) : (t.totals[k] ?? 0) + v;
    }
    const snap = snapshotOf(r);
    if (snap && !t.snapshots.includes(snap)) t.snapshots.push(snap);
    const { requests, latencyMs } = t.totals;
    t.meanLatencyMs = requests > 0 && latencyMs !== undefined ? latencyMs / requests : null;
  });
  return into;
}

/** Totals as plain JSON (for --json output). */
export function usageJson(usage: Map<string, UsageTotals>): JsonObject {
  const out: JsonObject = {};
  for (const [k, t] of usage) out[k] = { seats: t.seats, ...t.totals, meanLatencyMs: t.meanLatencyMs, snapshots: t.snapshots };
  return out;
}

/** One line per agent or player: "name: 40 requests, 51200 + 800 tokens, 35 ms/request, $0.0012, 2 re-asks". */
export function formatUsage(usage: Map<string, UsageTotals>): string[] {
  const lines: string[] = [];
  for (const [k, t] of usage) {
    const x = t.totals;
    const parts = [`${x.requests ?? 0} requests`, `${x.promptTokens ?? 0} + ${x.completionTokens ?? 0} tokens`];
    if (t.meanLatencyMs !== null) parts.push(`${t.meanLatencyMs.toFixed(0)} ms/request`);
    if (x.costUsd !== undefined) parts.push(`$${x.costUsd.toFixed(4)}`);
    if (x.reasks) parts.push(`${x.reasks} re-asks`);
    if (x.httpErrors) parts.push(`${x.httpErrors} HTTP errors`);
    lines.push(`${k}: ${parts.join(', ')}${t.snapshots.length ? ` [${t.snapshots.join('; ')}]` : ''}`);
  }
  return lines;
}
