/**
 * One seat's decision inside a match: ask the agent, check the answer (legality, deadline),
 * apply the fault policy (retry, then forfeit or a default action). Synchronous answers take a
 * fast path without promises or timers; promise answers are raced against the deadline and the
 * match's signal. Used by the match runner (src/match/runner.ts).
 */
import type { Agent } from '../core/agent';
import type { Env } from '../core/env';
import type { FaultKind, FaultRecord } from '../core/events';
import { Phase, type HeartbeatWriter } from '../core/heartbeat';
import { containsAction } from '../core/normalize-env';
import type { SeatContext } from './agent-context';
import type { FaultPolicy } from './fault-policy';

/** One accepted decision, handed to `onDecision` (training trajectories hook here). */
export interface Decision {
  step: number;
  seat: number;
  observation: unknown;
  legal: readonly unknown[] | null;
  action: unknown;
}

/** A promise answer awaited without any deadline (see {@link unsettledDecisions}). */
export interface UnsettledDecision {
  matchId: string;
  env: string;
  seat: number;
  agent: string;
  step: number;
}

const unsettled = new Set<UnsettledDecision>();

/**
 * Decisions whose promise has not settled and that no deadline will end (the caller turned the
 * deadline off). When the process's event loop empties while one is listed, that agent's promise
 * can never settle: commands report it by name instead of exiting silently.
 */
export function unsettledDecisions(): UnsettledDecision[] {
  return [...unsettled];
}

/** The answer of a seat that forfeits (after its last failed attempt). */
export const FORFEIT: unique symbol = Symbol('forfeit');

/** The answer of a seat whose decision the match's signal stopped (no fault: the match is aborted). */
export const STOPPED: unique symbol = Symbol('stopped');

class TimeoutError extends Error {}

/** Why an answer was not accepted. */
interface Verdict {
  kind: FaultKind;
  reason: string;
}

/** What decisions need from the match: its env, current state and step, and where faults go. */
export interface DecisionHost {
  readonly env: Env;
  readonly matchId: string;
  readonly state: unknown;
  readonly step: number;
  /** The env member running now (named when it throws). */
  member: string;
  /** Faults so far (the last one's resolution may still change to a forfeit). */
  readonly faults: readonly FaultRecord[];
  recordFault(record: FaultRecord): void;
}

/** Deadlines, policy and hooks of a match's decisions. */
export interface DecisionSettings {
  policy: FaultPolicy;
  /** Limit for synchronous answers (Infinity: none). */
  deadlineMs: number;
  /** Limit for promise answers (Infinity: none). */
  asyncDeadlineMs: number;
  /** Whether the caller chose the deadline (else the default one applies to promises). */
  explicitDeadline: boolean;
  signal?: AbortSignal;
  onDecision?: (d: Decision) => void;
  heartbeat: HeartbeatWriter | null;
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function';
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The decisions of one match's seats. */
export class SeatDecisions {
  /** Accepted decisions (default actions included). */
  count = 0;

  constructor(
    private readonly host: DecisionHost,
    private readonly agents: readonly Agent[],
    private readonly ctxs: readonly SeatContext[],
    private readonly s: DecisionSettings,
  ) {}

  /** Asks `seat` for an action: the answer, a promise of it (async agents), FORFEIT or STOPPED. */
  decide(seat: number): unknown {
    const { env, state } = this.host;
    const agent = this.agents[seat];
    const ctx = this.ctxs[seat];
    const hb = this.s.heartbeat;
    this.host.member = 'observe';
    const obs = env.observe(state, agent.omniscient ? 'omniscient' : seat);
    this.host.member = 'legalActions';
    const legal = env.legalActions ? env.legalActions(state, seat) : null;
    for (let attempt = 0; ; attempt++) {
      const started = this.beginDecision(ctx);
      let verdict: Verdict | null;
      let answer: unknown;
      try {
        if (hb) hb.enter(Phase.Agent, seat);
        try {
          answer = agent.act(obs, legal, ctx);
        } finally {
          if (hb) hb.leave();
        }
        if (isThenable(answer)) return this.decideAsync(seat, obs, legal, attempt, answer);
        verdict =
          this.s.deadlineMs !== Infinity && Date.now() - started > this.s.deadlineMs
            ? { kind: 'timeout', reason: `answered after the ${this.s.deadlineMs} ms deadline` }
            : this.rejection(seat, legal, answer);
      } catch (e) {
        verdict = { kind: 'error', reason: errorText(e) };
      }
      if (verdict === null) return this.accept(seat, obs, legal, answer);
      if (!this.fault(seat, verdict, attempt)) return this.resolve(seat, legal);
    }
  }

  /** The rest of a decision whose agent answered with a promise: the same checks and fault policy. */
  private async decideAsync(seat: number, obs: unknown, legal: readonly unknown[] | null, attempt: number, pending: PromiseLike<unknown>): Promise<unknown> {
    const agent = this.agents[seat];
    const ctx = this.ctxs[seat];
    const hb = this.s.heartbeat;
    for (;;) {
      let verdict: Verdict | null;
      let answer: unknown;
      try {
        answer = await this.withDeadline(pending, seat, ctx);
        verdict = this.rejection(seat, legal, answer);
      } catch (e) {
        if (this.s.signal?.aborted) return STOPPED;
        verdict = { kind: e instanceof TimeoutError ? 'timeout' : 'error', reason: errorText(e) };
      }
      if (verdict === null) return this.accept(seat, obs, legal, answer);
      if (!this.fault(seat, verdict, attempt)) return this.resolve(seat, legal);
      attempt++;
      this.beginDecision(ctx);
      try {
        if (hb) hb.enter(Phase.Agent, seat);
        pending = Promise.resolve(agent.act(obs, legal, ctx));
      } catch (e) {
        pending = Promise.reject(e);
      } finally {
        if (hb) hb.leave();
      }
    }
  }

  /** Starts a decision of `ctx`'s seat (deadline = the promise deadline); returns its start time. */
  private beginDecision(ctx: SeatContext): number {
    const now = Date.now();
    const ms = this.s.asyncDeadlineMs;
    ctx.begin(this.host.step, ms === Infinity ? Infinity : now + ms);
    return now;
  }

  /** Races a promise answer against the decision's deadline and the match's signal. */
  private withDeadline(pending: PromiseLike<unknown>, seat: number, ctx: SeatContext): Promise<unknown> {
    const { signal } = this.s;
    const host = this.host;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiting: UnsettledDecision = { matchId: host.matchId, env: host.env.meta.id, seat, agent: this.agents[seat].name, step: host.step };
      if (ctx.deadline === Infinity) unsettled.add(waiting);
      const onAbort = () => finish(() => reject(new Error('match stopped')), 'match stopped');
      const finish = (settle: () => void, abortReason?: string) => {
        if (timer) clearTimeout(timer);
        unsettled.delete(waiting);
        signal?.removeEventListener('abort', onAbort);
        if (abortReason) ctx.abort(abortReason);
        settle();
      };
      if (ctx.deadline !== Infinity) {
        const ms = Math.max(0, ctx.deadline - Date.now());
        const why = this.s.explicitDeadline ? '' : ' (the default deadline for promise answers; set one with deadlineMs / --deadline)';
        timer = setTimeout(() => finish(() => reject(new TimeoutError(`no answer within ${this.s.asyncDeadlineMs} ms${why}`)), 'deadline'), ms);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(pending).then(
        (v) => finish(() => resolve(v)),
        (e) => finish(() => reject(e)),
      );
    });
  }

  /** Why `action` is not acceptable for `seat` (an "illegal" verdict), or null when it is. */
  private rejection(seat: number, legal: readonly unknown[] | null, action: unknown): Verdict | null {
    if (legal !== null && containsAction(legal, action)) return null;
    // validateAction is authoritative: it may accept forms beyond the legal list (an act with free text).
    this.host.member = 'validateAction';
    const check = this.host.env.validateAction(this.host.state, seat, action);
    return check.ok ? null : { kind: 'illegal', reason: check.reason };
  }

  private accept(seat: number, obs: unknown, legal: readonly unknown[] | null, action: unknown): unknown {
    this.count++;
    this.s.onDecision?.({ step: this.host.step, seat, observation: obs, legal, action });
    return action;
  }

  /** Records a fault; true when the policy allows another attempt. */
  private fault(seat: number, verdict: Verdict, attempt: number): boolean {
    const retry = attempt < this.s.policy.retries;
    const resolution = retry ? 'retry' : this.s.policy.then === 'default' ? 'default-action' : 'forfeit';
    this.host.recordFault({ step: this.host.step, seat, kind: verdict.kind, reason: verdict.reason, attempt, resolution });
    return retry;
  }

  /** After the last failed attempt: a default action, or FORFEIT (the fault's resolution says which). */
  private resolve(seat: number, legal: readonly unknown[] | null): unknown {
    if (this.s.policy.then === 'default') {
      const { env, state } = this.host;
      const fallback = env.defaultAction?.(state, seat) ?? (legal && legal.length ? legal[0] : undefined);
      if (fallback !== undefined) {
        this.count++;
        return fallback;
      }
      // No default exists (open action set without defaultAction): the fault becomes a forfeit.
      const last = this.host.faults[this.host.faults.length - 1];
      if (last && last.seat === seat) last.resolution = 'forfeit';
    }
    return FORFEIT;
  }
}
