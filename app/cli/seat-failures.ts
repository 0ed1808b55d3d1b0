/**
 * Seats that never played: over a run of episodes, a seat whose agent made no accepted decision
 * and whose every attempt threw (an unreachable LLM endpoint: "connection error (fetch
 * failed)", an agent asked to play a role it cannot) measured nothing, and the run says so and
 * fails (issue 28: such a run used to exit 0 with the reason only in --json). Timeouts and
 * illegal answers are the agent playing badly, which the results record; they do not count here.
 */
import type { Decision, MatchResult } from '../../src/match/runner';

/** A seat whose every decision failed. */
export interface DeadSeat {
  seat: number;
  agent: string;
  /** Faults of the seat over the run. */
  faults: number;
  /** The first fault's reason. */
  reason: string;
}

/** Tallies accepted decisions and faults per seat over a run (constant memory per seat). */
export class SeatFailures {
  private readonly accepted = new Map<number, number>();
  private readonly failed = new Map<number, { agent: string; faults: number; reason: string; errorsOnly: boolean }>();

  /** Pass to runMatch's `onDecision`. */
  readonly onDecision = (d: Decision): void => {
    this.accepted.set(d.seat, (this.accepted.get(d.seat) ?? 0) + 1);
  };

  /** Adds one episode's faults. */
  add(r: MatchResult): void {
    for (const f of r.faults) {
      const s = this.failed.get(f.seat) ?? { agent: r.agents[f.seat] ?? `seat ${f.seat}`, faults: 0, reason: f.reason, errorsOnly: true };
      s.faults++;
      if (f.kind !== 'error') s.errorsOnly = false;
      this.failed.set(f.seat, s);
    }
  }

  /** Seats with faults, no accepted decision, and nothing but thrown errors. */
  dead(): DeadSeat[] {
    return [...this.failed]
      .filter(([seat, s]) => s.errorsOnly && !this.accepted.get(seat))
      .sort(([a], [b]) => a - b)
      .map(([seat, s]) => ({ seat, agent: s.agent, faults: s.faults, reason: s.reason }));
  }
}

/** The line that explains a dead seat. */
export function deadSeatLine(d: DeadSeat): string {
  return `seat ${d.seat} (${d.agent}) failed every decision it was asked (${d.faults} ${d.faults === 1 ? 'fault' : 'faults'}, none answered): ${d.reason}`;
}
