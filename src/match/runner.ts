import { randomUUID } from 'node:crypto';
import type { Agent } from '../core/agent';
import type { ActionMap, Env, EnvEvent, SeatInfo } from '../core/env';
import type { FaultKind, MatchCode, MatchEvent } from '../core/events';
import type { JsonValue } from '../core/json';
import { containsAction } from '../core/normalize-env';
import type { Params } from '../core/params';
import { Rng, deriveSeed } from '../core/rng';
import type { EventBus } from '../bus/event-bus';
import { SeatContext } from './agent-context';
import { DEFAULT_FAULT_POLICY, type FaultPolicy, type FaultRecord } from './fault-policy';

/** One accepted decision, handed to `onDecision` (training trajectories hook here). */
export interface Decision {
  step: number;
  seat: number;
  observation: unknown;
  legal: readonly unknown[] | null;
  action: unknown;
}

/** How to run one episode. */
export interface MatchOptions {
  env: Env;
  /** Resolved params (use `env.resolveParams(raw)`). */
  params: Params;
  seed: number;
  /** One agent per seat, or a function choosing them once the seats (roles) are known. */
  agents: readonly Agent[] | ((seats: readonly SeatInfo[]) => readonly Agent[]);
  matchId?: string;
  /** Where events go; nothing is built when the bus has no subscriber. */
  bus?: EventBus;
  /** Per-decision time limit in ms (default: none). */
  deadlineMs?: number;
  faultPolicy?: FaultPolicy;
  /** Stops the match (code "aborted") at the next decision. */
  signal?: AbortSignal;
  /** Called after every accepted decision. */
  onDecision?: (d: Decision) => void;
}

/** What one episode produced. */
export interface MatchResult {
  matchId: string;
  env: string;
  params: Params;
  seed: number;
  agents: string[];
  seats: SeatInfo[];
  returns: number[];
  /** The env's outcome label, or "forfeit" / "aborted". */
  outcome: string;
  code: MatchCode;
  forfeitedBy?: number;
  /** Number of env steps. */
  length: number;
  /** Number of accepted decisions (a simultaneous step counts one per seat). */
  decisions: number;
  faults: FaultRecord[];
  summary: JsonValue;
  finalState: unknown;
}

const FORFEIT: unique symbol = Symbol('forfeit');
type Answer = unknown;

class TimeoutError extends Error {}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function';
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Runs one episode: asks each acting seat's agent, enforces legality, deadlines and the
 * fault policy, steps the env and publishes every move on the bus. One bad agent never
 * crashes the process: its faults are recorded and resolved by the policy.
 *
 * Synchronous agents take a fast path (no promise or timer per decision); the returned
 * promise is the only one per match in that case.
 */
export function runMatch(options: MatchOptions): Promise<MatchResult> {
  return new MatchRun(options).run();
}

class MatchRun {
  private readonly env: Env;
  private readonly bus: EventBus | undefined;
  private readonly policy: FaultPolicy;
  private readonly deadlineMs: number;
  private readonly matchId: string;
  private state: unknown;
  private seats: readonly SeatInfo[] = [];
  private agents: readonly Agent[] = [];
  private ctxs: SeatContext[] = [];
  private seq = 0;
  private step = 0;
  private decisions = 0;
  private readonly faults: FaultRecord[] = [];

  constructor(private readonly o: MatchOptions) {
    this.env = o.env;
    this.bus = o.bus;
    this.policy = o.faultPolicy ?? DEFAULT_FAULT_POLICY;
    this.deadlineMs = o.deadlineMs ?? Infinity;
    this.matchId = o.matchId ?? randomUUID();
  }

  private emit(e: MatchEvent): void {
    this.bus!.publish(e);
  }

  private base(visibility: MatchEvent['visibility']) {
    return { matchId: this.matchId, seq: this.seq++, time: Date.now(), visibility };
  }

  async run(): Promise<MatchResult> {
    const { env, o } = this;
    this.state = env.init(o.params, o.seed);
    this.seats = env.seats(this.state);
    this.agents = typeof o.agents === 'function' ? o.agents(this.seats) : o.agents;
    if (this.agents.length !== this.seats.length) {
      throw new Error(`${env.meta.id}: ${this.seats.length} seats but ${this.agents.length} agents given`);
    }
    this.ctxs = this.seats.map(
      (s, i) => new SeatContext(this.matchId, i, s.role, s.team, () => Rng.fromSeed(deriveSeed(o.seed, 'seat', i)), env, o.params),
    );
    const agentNames = this.agents.map((a) => a.name);
    if (this.bus?.active) {
      this.emit({
        ...this.base('omniscient'),
        type: 'match.created',
        env: env.meta.id,
        params: o.params,
        seed: o.seed,
        seats: this.seats.map((s, i) => ({ role: s.role, team: s.team, agent: agentNames[i] })),
      });
      const hidden = env.meta.hiddenRoles === true;
      this.emit({
        ...this.base('public'),
        type: 'match.started',
        env: env.meta.id,
        params: env.publicParams ? env.publicParams(o.params) : o.params,
        agents: hidden ? [...agentNames].sort() : agentNames,
        ...(hidden ? { seatsHidden: true } : {}),
      });
    }
    for (let i = 0; i < this.agents.length; i++) this.agents[i].start?.(this.ctxs[i]);

    const maxLength = env.maxLengthFor(o.params);
    let code: MatchCode = 'ok';
    let forfeitedBy: number | undefined;
    let outcome = '';
    while (!env.isTerminal(this.state)) {
      if (o.signal?.aborted || this.step >= maxLength) {
        code = 'aborted';
        outcome = o.signal?.aborted ? 'aborted' : 'max-length';
        break;
      }
      const toAct = env.toAct(this.state);
      if (this.bus?.active) this.emit({ ...this.base('public'), type: 'turn', step: this.step, toAct: [...toAct] });
      const actions: ActionMap<unknown> = {};
      let forfeit = -1;
      if (toAct.length === 1) {
        let a = this.decide(toAct[0]);
        if (isThenable(a)) a = await a;
        if (a === FORFEIT) forfeit = toAct[0];
        else actions[toAct[0]] = a;
      } else {
        const answers = toAct.map((seat) => this.decide(seat));
        const settled = answers.some(isThenable) ? await Promise.all(answers) : answers;
        for (let i = 0; i < toAct.length; i++) {
          if (settled[i] === FORFEIT) {
            if (forfeit < 0) forfeit = toAct[i];
          } else actions[toAct[i]] = settled[i];
        }
      }
      if (forfeit >= 0) {
        code = 'forfeit';
        forfeitedBy = forfeit;
        outcome = 'forfeit';
        break;
      }
      if (this.bus?.active) {
        for (const seat of toAct) {
          const action = actions[seat] as JsonValue;
          this.emit({ ...this.base(env.actionVisibility(this.state, seat, action)), type: 'action', step: this.step, seat, action });
        }
      }
      const result = env.step(this.state, actions);
      this.state = result.state;
      if (this.bus?.active) this.publishEnvEvents(result.events);
      this.step++;
    }

    let returns: number[];
    if (code === 'forfeit') {
      returns = env.forfeitReturns?.(this.state, forfeitedBy!) ?? this.defaultForfeitReturns(forfeitedBy!);
    } else if (code === 'aborted') {
      returns = this.seats.map(() => 0);
    } else {
      returns = env.returns(this.state);
      outcome = env.outcome(this.state);
    }
    const summary = env.summary(this.state);
    for (let i = 0; i < this.agents.length; i++) this.agents[i].end?.(returns, this.ctxs[i], { outcome, summary });
    if (this.bus?.active) {
      this.emit({ ...this.base('public'), type: 'reward', returns });
      this.emit({
        ...this.base('public'),
        type: 'match.ended',
        returns,
        outcome,
        code,
        length: this.step,
        faults: this.faults.length,
        ...(forfeitedBy !== undefined ? { forfeitedBy } : {}),
      });
    }
    return {
      matchId: this.matchId,
      env: env.meta.id,
      params: o.params,
      seed: o.seed,
      agents: agentNames,
      seats: [...this.seats],
      returns,
      outcome,
      code,
      ...(forfeitedBy !== undefined ? { forfeitedBy } : {}),
      length: this.step,
      decisions: this.decisions,
      faults: this.faults,
      summary,
      finalState: this.state,
    };
  }

  private defaultForfeitReturns(seat: number): number[] {
    const n = this.seats.length;
    const zeroSum = this.env.utilityFor(this.o.params) === 'zero-sum';
    return this.seats.map((_, i) => (i === seat ? -1 : zeroSum && n > 1 ? 1 / (n - 1) : 0));
  }

  private publishEnvEvents(events: readonly EnvEvent[]): void {
    for (const ev of events) {
      if (ev.type === 'message') {
        const seat = typeof ev.data.seat === 'number' ? ev.data.seat : null;
        const text = typeof ev.data.text === 'string' ? ev.data.text : '';
        this.emit({ ...this.base(ev.visibility), type: 'message', step: this.step, seat, text, data: ev.data });
      } else {
        this.emit({ ...this.base(ev.visibility), type: 'env', step: this.step, name: ev.type, data: ev.data });
      }
    }
  }

  /** Reason `action` is not acceptable for `seat`, or null when it is. */
  private rejection(seat: number, legal: readonly unknown[] | null, action: unknown): string | null {
    if (legal !== null && containsAction(legal, action)) return null;
    // validateAction is authoritative: it may accept forms beyond the legal list (an act with free text).
    const check = this.env.validateAction(this.state, seat, action);
    return check.ok ? null : check.reason;
  }

  /** Asks `seat` for an action: the answer, a promise of it (async agents), or FORFEIT. */
  private decide(seat: number): Answer | Promise<Answer> {
    const agent = this.agents[seat];
    const ctx = this.ctxs[seat];
    const obs = this.env.observe(this.state, agent.omniscient ? 'omniscient' : seat);
    const legal = this.env.legalActions ? this.env.legalActions(this.state, seat) : null;
    for (let attempt = 0; ; attempt++) {
      const deadline = this.deadlineMs === Infinity ? Infinity : Date.now() + this.deadlineMs;
      ctx.begin(this.step, deadline);
      let answer: unknown;
      let kind: FaultKind;
      let reason: string;
      try {
        answer = agent.act(obs, legal, ctx);
      } catch (e) {
        kind = 'error';
        reason = errorText(e);
        if (this.fault(seat, kind, reason, attempt)) continue;
        return this.resolve(seat, legal);
      }
      if (isThenable(answer)) return this.decideAsync(seat, obs, legal, attempt, answer);
      if (deadline !== Infinity && Date.now() > deadline) {
        kind = 'timeout';
        reason = `answered after the ${this.deadlineMs} ms deadline`;
      } else {
        const rejected = this.rejection(seat, legal, answer);
        if (rejected === null) return this.accept(seat, obs, legal, answer);
        kind = 'illegal';
        reason = rejected;
      }
      if (this.fault(seat, kind, reason, attempt)) continue;
      return this.resolve(seat, legal);
    }
  }

  private async decideAsync(
    seat: number,
    obs: unknown,
    legal: readonly unknown[] | null,
    attempt: number,
    pending: PromiseLike<unknown>,
  ): Promise<Answer> {
    const agent = this.agents[seat];
    const ctx = this.ctxs[seat];
    for (;;) {
      let kind: FaultKind;
      let reason: string;
      try {
        const answer = await this.withDeadline(pending, ctx);
        const rejected = this.rejection(seat, legal, answer);
        if (rejected === null) return this.accept(seat, obs, legal, answer);
        kind = 'illegal';
        reason = rejected;
      } catch (e) {
        kind = e instanceof TimeoutError ? 'timeout' : 'error';
        reason = errorText(e);
      }
      if (!this.fault(seat, kind, reason, attempt)) return this.resolve(seat, legal);
      attempt++;
      ctx.begin(this.step, this.deadlineMs === Infinity ? Infinity : Date.now() + this.deadlineMs);
      try {
        pending = Promise.resolve(agent.act(obs, legal, ctx));
      } catch (e) {
        pending = Promise.reject(e);
      }
    }
  }

  private withDeadline(pending: PromiseLike<unknown>, ctx: SeatContext): Promise<unknown> {
    const signal = this.o.signal;
    if (ctx.deadline === Infinity && !signal) return Promise.resolve(pending);
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => finish(() => reject(new Error('match stopped')), 'match stopped');
      const finish = (settle: () => void, abortReason?: string) => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (abortReason) ctx.abort(abortReason);
        settle();
      };
      if (ctx.deadline !== Infinity) {
        const ms = Math.max(0, ctx.deadline - Date.now());
        timer = setTimeout(() => finish(() => reject(new TimeoutError(`no answer within ${this.deadlineMs} ms`)), 'deadline'), ms);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(pending).then(
        (v) => finish(() => resolve(v)),
        (e) => finish(() => reject(e)),
      );
    });
  }

  private accept(seat: number, obs: unknown, legal: readonly unknown[] | null, action: unknown): unknown {
    this.decisions++;
    this.o.onDecision?.({ step: this.step, seat, observation: obs, legal, action });
    return action;
  }

  /** Records a fault; true when the policy allows another attempt. */
  private fault(seat: number, kind: FaultKind, reason: string, attempt: number): boolean {
    const retry = attempt < this.policy.retries;
    const resolution = retry ? 'retry' : this.policy.then === 'default' ? 'default-action' : 'forfeit';
    const record: FaultRecord = { step: this.step, seat, kind, reason, attempt, resolution };
    this.faults.push(record);
    if (this.bus?.active) this.emit({ ...this.base({ seat }), type: 'fault', ...record });
    return retry;
  }

  /** After the last failed attempt: a default action, or FORFEIT. */
  private resolve(seat: number, legal: readonly unknown[] | null): Answer {
    if (this.policy.then === 'default') {
      const fallback = this.env.defaultAction?.(this.state, seat) ?? (legal && legal.length ? legal[0] : undefined);
      if (fallback !== undefined) {
        this.decisions++;
        return fallback;
      }
      // No default exists (open action set without defaultAction): the fault becomes a forfeit.
      const last = this.faults[this.faults.length - 1];
      if (last && last.seat === seat) last.resolution = 'forfeit';
    }
    return FORFEIT;
  }
}
