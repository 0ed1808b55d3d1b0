/**
 * Probes (config `probes`): measurements by things that do not learn. Exploit probes train a
 * fresh exploiter against the learners' current policies (league/exploit/probe.ts). Every
 * `every` training rounds a probe plays `episodes` episodes whose seats are filled by named
 * players — e.g. the challenger learner's current policy against the frozen warm-up solver or
 * the greedy baseline — and records the env's aggregate of them (Countdown: the judge's solve
 * rate, the exact solver's search effort) as the league metric `probe:<id>`, committed with
 * the training round it follows, so a resumed league holds exactly the probes of an
 * uninterrupted one. Episodes whose outcome is in `exclude` (Countdown: `unsolvable`
 * proposals, which no solver solves and would make the first puzzles look hardest) are left
 * out of the aggregate and counted.
 */
import type { Agent } from '../src/core/agent';
import type { SeatInfo } from '../src/core/env';
import { EventLoopTurn } from '../src/core/event-loop';
import type { JsonValue } from '../src/core/json';
import { deriveSeed } from '../src/core/rng';
import { runMatch } from '../src/match/runner';
import type { ProbeSpec } from './config';
import type { ProbeSetup } from './probe-setup';
import { runExploitProbe } from './exploit/probe';

/** Prefix of a probe's rows in the league's training metrics (the `role` column). */
export const PROBE_PREFIX = 'probe:';

export type { ProbeSetup } from './probe-setup';

/** One probe's record: the metric row's payload. */
export interface ProbeMetrics {
  [key: string]: JsonValue;
  probe: string;
  /** The training round it follows. */
  round: number;
  episodes: number;
  /** Episodes left in the aggregate (outcome not excluded). */
  kept: number;
  outcomes: Record<string, number>;
  envStats: { [key: string]: JsonValue } | null;
}

/** Plays one play probe's episodes after round `round`; null when the signal stopped it. */
export async function runProbe(s: ProbeSetup, probe: ProbeSpec & { players: Record<string, string> }, round: number, signal?: AbortSignal): Promise<ProbeMetrics | null> {
  // Seats' roles may depend on the seed (hidden roles): an agent per (player, seat), chosen per episode by role.
  const seatCount = s.env.seats(s.env.init(s.params, 0)).length;
  const agents = new Map<string, Agent[]>();
  for (const who of new Set(Object.values(probe.players))) {
    const list: Agent[] = [];
    for (let i = 0; i < seatCount; i++) list.push(await s.agentFor(who, deriveSeed(s.seed, 'probe', probe.id, round, who, i)));
    agents.set(who, list);
  }
  const seatAgents = (seats: readonly SeatInfo[]): Agent[] =>
    seats.map((seat, i) => {
      const who = probe.players[seat.role];
      if (!who) throw new Error(`probe ${probe.id}: no player for role "${seat.role}" (players: ${Object.keys(probe.players).join(', ') || 'none'})`);
      return agents.get(who)![i];
    });
  const exclude = new Set(probe.exclude);
  const outcomes: Record<string, number> = {};
  const kept: JsonValue[] = [];
  const turn = new EventLoopTurn();
  for (let k = 0; k < probe.episodes; k++) {
    await turn.maybe();
    if (signal?.aborted) return null;
    const r = await runMatch({ env: s.env, params: s.params, seed: deriveSeed(s.seed, 'probe-episode', probe.id, round, k), agents: seatAgents, matchId: `probe:${probe.id}:${round}:${k}` });
    outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    if (!exclude.has(r.outcome)) kept.push(r.summary);
  }
  return { probe: probe.id, round, episodes: probe.episodes, kept: kept.length, outcomes, envStats: s.env.aggregate && kept.length ? s.env.aggregate(kept) : null };
}

/** The probes due after round `round` (1-based: every `every` rounds), as metric rows; null when stopped. */
export async function runProbes(s: ProbeSetup, round: number, signal?: AbortSignal): Promise<{ iteration: number; role: string; metrics: JsonValue }[] | null> {
  const rows: { iteration: number; role: string; metrics: JsonValue }[] = [];
  for (const probe of s.probes) {
    if (round % probe.every !== 0) continue;
    const m: { [key: string]: JsonValue } | null = probe.players ? await runProbe(s, { ...probe, players: probe.players }, round, signal) : await runExploitProbe(s, probe, round, signal);
    if (!m) return null;
    rows.push({ iteration: round, role: `${PROBE_PREFIX}${probe.id}`, metrics: m });
  }
  return rows;
}
