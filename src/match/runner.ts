import { randomUUID } from 'node:crypto';
import type { Agent, AgentReport } from '../core/agent';
import { EFFECT_SEAT, type ActionMap, type EffectRequest, type Env, type SeatInfo, type StepReward } from '../core/env';
import type { EffectHandlers } from '../core/effects';
import type { FaultKind, FaultRecord, MatchCode, MatchEvent } from '../core/events';
import type { JsonValue } from '../core/json';
import { MatchLogBuilder } from '../core/match-log';
import { containsAction } from '../core/normalize-env';
import type { Params } from '../core/params';
import { Rng, deriveSeed } from '../core/rng';
import type { EventBus } from '../bus/event-bus';
import { SeatContext, type SeatHooks } from './agent-context';
import { DEFAULT_FAULT_POLICY, type FaultPolicy } from './fault-policy';

/** One accepted decision, handed to `onDecision` (training trajectories hook here). */
export interface Decision {
  step: number;
  seat: number;
  observation: unknown;
  legal: readonly unknown[] | null;
  action: unknown;
}

/** A per-decision reward with the step that earned it (see {@link StepReward}). */
export interface StepRewardRecord extends StepReward {
  step: number;
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
  /**
   * Per-decision time limit in ms. Default: none for synchronous answers, and
   * {@link DEFAULT_ASYNC_DEADLINE_MS} for promises (an answer that never comes is a timeout,
   * not a hang). `Infinity` turns the default off.
   */
  deadlineMs?: number;
  faultPolicy?: FaultPolicy;
  /** Stops the match (code "aborted") at the next decision. */
  signal?: AbortSignal;
  /** Called after every accepted decision of a seat's agent. */
  onDecision?: (d: Decision) => void;
  /** Called after every performed effect, with its result (applied as EFFECT_SEAT's action). */
  onEffect?: (e: { step: number; kind: string; result: JsonValue }) => void;
  /** Handlers for the effects the env may request (running code...); see src/core/effects.ts. */
  effects?: EffectHandlers;
}

/** Deadline for promise answers when the caller sets none: 10 minutes (LLM agents can be slow). */
export const DEFAULT_ASYNC_DEADLINE_MS = 600_000;

/** What one episode produced. */
export interface MatchResult {
  matchId: string;
  env: string;
  params: Params;
  seed: number;
  agents: string[];
  seats: SeatInfo[];
  returns: number[];
  /** The env's outcome label, or "forfeit" / "aborted" / "max-length" / "effect-failed". */
  outcome: string;
  code: MatchCode;
  forfeitedBy?: number;
  /** Number of env steps. */
  length: number;
  /** Number of accepted decisions (a simultaneous step counts one per seat). */
  decisions: number;
  faults: FaultRecord[];
  /** Per-decision rewards the env gave, in step order (empty for terminal-reward envs). */
  rewards: StepRewardRecord[];
  summary: JsonValue;
  finalState: unknown;
  /** Each seat's agent report (`Agent.report`: model, tokens, latency, cost); absent when no agent reports. */
  reports?: (AgentReport | null)[];
}

const FORFEIT: unique symbol = Symbol('forfeit');
type Answer = unknown;

class TimeoutError extends Error {}

/** Why an answer was not accepted. */
interface Verdict {
  kind: FaultKind;
  reason: string;
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

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function';
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Runs one episode: asks each acting seat's agent, enforces legality, deadlines and the
 * fault policy, performs the env's effects, steps the env and publishes every move on the bus.
 * One bad agent never crashes the process: its faults are recorded and resolved by the policy.
 *
 * Synchronous agents take a fast path (no promise or timer per decision); the returned
 * promise is the only one per match in that case.
 */
export function runMatch(options: MatchOptions): Promise<MatchResult> {
  return new MatchRun(options).run();
}

/** How the loop ended, when not by a terminal state. */
interface Stop {
  code: MatchCode;
  outcome: string;
  forfeitedBy?: number;
}

class MatchRun {
  private readonly env: Env;
  private readonly bus: EventBus | undefined;
  private readonly policy: FaultPolicy;
  private readonly deadlineMs: number;
  private readonly asyncDeadlineMs: number;
  private readonly matchId: string;
  private state: unknown;
  private seats: readonly SeatInfo[] = [];
  private agents: readonly Agent[] = [];
  private ctxs: SeatContext[] = [];
  private readonly log: MatchLogBuilder;
  private step = 0;
  private decisions = 0;
  private readonly faults: FaultRecord[] = [];
  private readonly rewards: StepRewardRecord[] = [];

  constructor(private readonly o: MatchOptions) {
    this.env = o.env;
    this.bus = o.bus;
    this.policy = o.faultPolicy ?? DEFAULT_FAULT_POLICY;
    this.deadlineMs = o.deadlineMs ?? Infinity;
    this.asyncDeadlineMs = o.deadlineMs ?? DEFAULT_ASYNC_DEADLINE_MS;
    this.matchId = o.matchId ?? randomUUID();
    this.log = new MatchLogBuilder(this.matchId);
  }

  private emit(e: MatchEvent): void {
    this.bus!.publish(e);
  }

  async run(): Promise<MatchResult> {
    this.begin();
    const stop = await this.loop();
    return this.finish(stop);
  }

  /** Initial state, seats, agents and their contexts; the opening events. */
  private begin(): void {
    const { env, o } = this;
    this.state = env.init(o.params, o.seed);
    this.seats = env.seats(this.state);
    this.agents = typeof o.agents === 'function' ? o.agents(this.seats) : o.agents;
    if (this.agents.length !== this.seats.length) {
      throw new Error(`${env.meta.id}: ${this.seats.length} seats but ${this.agents.length} agents given`);
    }
    const hooks: SeatHooks = {
      validate: (seat, action) => env.validateAction(this.state, seat, action),
      note: (seat, step, name, data) => {
        if (this.bus?.active) this.emit(this.log.note(step, seat, name, data));
      },
    };
    this.ctxs = this.seats.map(
      (s, i) => new SeatContext(this.matchId, i, s.role, s.team, () => Rng.fromSeed(deriveSeed(o.seed, 'seat', i)), env, o.params, hooks),
    );
    if (this.bus?.active) {
      const agentNames = this.agents.map((a) => a.name);
      this.emit(this.log.created(env.meta.id, o.params, o.seed, this.seats, agentNames));
      this.emit(this.log.started(env.meta.id, env.publicParams ? env.publicParams(o.params) : o.params, agentNames, env.meta.hiddenRoles === true));
    }
    for (let i = 0; i < this.agents.length; i++) this.agents[i].start?.(this.ctxs[i]);
  }

  /** Steps until the env is terminal (null) or the match stops early (the reason). */
  private async loop(): Promise<Stop | null> {
    const { env, o } = this;
    const maxLength = env.maxLengthFor(o.params);
    while (!env.isTerminal(this.state)) {
      if (o.signal?.aborted) return { code: 'aborted', outcome: 'aborted' };
      if (this.step >= maxLength) return { code: 'aborted', outcome: 'max-length' };
      const effect = env.effect(this.state);
      if (effect) {
        const stop = await this.performEffect(effect);
        if (stop) return stop;
        continue;
      }
      const toAct = env.toAct(this.state);
      if (this.bus?.active) this.emit(this.log.turn(this.step, toAct));
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
      if (forfeit >= 0) return { code: 'forfeit', outcome: 'forfeit', forfeitedBy: forfeit };
      this.apply(toAct, actions);
    }
    return null;
  }

  /** Publishes the accepted actions, steps the env and publishes its events; keeps its rewards. */
  private apply(toAct: readonly number[], actions: ActionMap<unknown>): void {
    const { env } = this;
    if (this.bus?.active) {
      for (const seat of toAct) {
        const action = actions[seat] as JsonValue;
        this.emit(this.log.action(this.step, seat, action, env.actionVisibility(this.state, seat, action)));
      }
    }
    const result = env.step(this.state, actions);
    this.state = result.state;
    if (this.bus?.active) for (const e of this.log.envEvents(this.step, result.events)) this.emit(e);
    if (result.rewards) for (const r of result.rewards) this.rewards.push({ ...r, step: this.step });
    this.step++;
  }

  /**
   * Performs the env's effect with its handler and applies the result as the effect seat's
   * action. A missing handler, a throwing handler or a result the env rejects ends the match.
   */
  private async performEffect(effect: EffectRequest): Promise<Stop | null> {
    const { env, o } = this;
    if (this.bus?.active) this.emit(this.log.turn(this.step, [EFFECT_SEAT]));
    const handler = o.effects?.[effect.kind];
    let problem: string;
    if (!handler) {
      problem = `no handler for effect "${effect.kind}" (run the match with the catalog's effect handlers)`;
    } else {
      const controller = new AbortController();
      const onAbort = () => controller.abort(new Error('match stopped'));
      o.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await handler(effect.request, {
          matchId: this.matchId,
          env: env.meta.id,
          step: this.step,
          seed: deriveSeed(o.seed, 'effect', this.step),
          signal: controller.signal,
        });
        if (o.signal?.aborted) return { code: 'aborted', outcome: 'aborted' };
        const check = env.validateAction(this.state, EFFECT_SEAT, result);
        if (check.ok) {
          o.onEffect?.({ step: this.step, kind: effect.kind, result });
          this.apply([EFFECT_SEAT], { [EFFECT_SEAT]: result });
          return null;
        }
        problem = `effect "${effect.kind}" gave a result the env rejects: ${check.reason}`;
      } catch (e) {
        if (o.signal?.aborted) return { code: 'aborted', outcome: 'aborted' };
        problem = `effect "${effect.kind}" failed: ${errorText(e)}`;
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
      }
    }
    this.recordFault({ step: this.step, seat: EFFECT_SEAT, kind: 'error', reason: problem, attempt: 0, resolution: 'forfeit' });
    return { code: 'aborted', outcome: 'effect-failed' };
  }

  /** Returns, agents' `end`, the closing events and the result. */
  private finish(stop: Stop | null): MatchResult {
    const { env } = this;
    let returns: number[];
    let outcome: string;
    if (stop?.code === 'forfeit') {
      returns = env.forfeitReturns?.(this.state, stop.forfeitedBy!) ?? this.defaultForfeitReturns(stop.forfeitedBy!);
      outcome = stop.outcome;
    } else if (stop) {
      returns = this.seats.map(() => 0);
      outcome = stop.outcome;
    } else {
      returns = env.returns(this.state);
      outcome = env.outcome(this.state);
    }
    const code: MatchCode = stop?.code ?? 'ok';
    const forfeitedBy = stop?.forfeitedBy;
    const summary = env.summary(this.state);
    for (const ctx of this.ctxs) ctx.close();
    for (let i = 0; i < this.agents.length; i++) this.agents[i].end?.(returns, this.ctxs[i], { outcome, summary });
    const reports = this.agents.map((a) => a.report?.() ?? null);
    if (this.bus?.active) {
      this.emit(this.log.reward(returns));
      this.emit(this.log.ended(returns, outcome, code, this.step, this.faults.length, forfeitedBy));
    }
    return {
      matchId: this.matchId,
      env: env.meta.id,
      params: this.o.params,
      seed: this.o.seed,
      agents: this.agents.map((a) => a.name),
      seats: [...this.seats],
      returns,
      outcome,
      code,
      ...(forfeitedBy !== undefined ? { forfeitedBy } : {}),
      length: this.step,
      decisions: this.decisions,
      faults: this.faults,
      rewards: this.rewards,
      summary,
      finalState: this.state,
      ...(reports.some((r) => r !== null) ? { reports } : {}),
    };
  }

  private defaultForfeitReturns(seat: number): number[] {
    const n = this.seats.length;
    const zeroSum = this.env.utilityFor(this.o.params) === 'zero-sum';
    return this.seats.map((_, i) => (i === seat ? -1 : zeroSum && n > 1 ? 1 / (n - 1) : 0));
  }

  /** Why `action` is not acceptable for `seat` (an "illegal" verdict), or null when it is. */
  private rejection(seat: number, legal: readonly unknown[] | null, action: unknown): Verdict | null {
    if (legal !== null && containsAction(legal, action)) return null;
    // validateAction is authoritative: it may accept forms beyond the legal list (an act with free text).
    const check = this.env.validateAction(this.state, seat, action);
    return check.ok ? null : { kind: 'illegal', reason: check.reason };
  }

  /** Asks `seat` for an action: the answer, a promise of it (async agents), or FORFEIT. */
  private decide(seat: number): Answer | Promise<Answer> {
    const agent = this.agents[seat];
    const ctx = this.ctxs[seat];
    const obs = this.env.observe(this.state, agent.omniscient ? 'omniscient' : seat);
    const legal = this.env.legalActions ? this.env.legalActions(this.state, seat) : null;
    for (let attempt = 0; ; attempt++) {
      const started = this.beginDecision(ctx);
      let verdict: Verdict | null;
      let answer: unknown;
      try {
        answer = agent.act(obs, legal, ctx);
        if (isThenable(answer)) return this.decideAsync(seat, obs, legal, attempt, answer);
        verdict =
          this.deadlineMs !== Infinity && Date.now() - started > this.deadlineMs
            ? { kind: 'timeout', reason: `answered after the ${this.deadlineMs} ms deadline` }
            : this.rejection(seat, legal, answer);
      } catch (e) {
        verdict = { kind: 'error', reason: errorText(e) };
      }
      if (verdict === null) return this.accept(seat, obs, legal, answer);
      if (!this.fault(seat, verdict, attempt)) return this.resolve(seat, legal);
    }
  }

  /** The rest of a decision whose agent answered with a promise: the same checks and fault policy. */
  private async decideAsync(seat: number, obs: unknown, legal: readonly unknown[] | null, attempt: number, pending: PromiseLike<unknown>): Promise<Answer> {
    const agent = this.agents[seat];
    const ctx = this.ctxs[seat];
    for (;;) {
      let verdict: Verdict | null;
      let answer: unknown;
      try {
        answer = await this.withDeadline(pending, seat, ctx);
        verdict = this.rejection(seat, legal, answer);
      } catch (e) {
        verdict = { kind: e instanceof TimeoutError ? 'timeout' : 'error', reason: errorText(e) };
      }
      if (verdict === null) return this.accept(seat, obs, legal, answer);
      if (!this.fault(seat, verdict, attempt)) return this.resolve(seat, legal);
      attempt++;
      this.beginDecision(ctx);
      try {
        pending = Promise.resolve(agent.act(obs, legal, ctx));
      } catch (e) {
        pending = Promise.reject(e);
      }
    }
  }

  /** Starts a decision of `ctx`'s seat (deadline = the promise deadline); returns its start time. */
  private beginDecision(ctx: SeatContext): number {
    const now = Date.now();
    ctx.begin(this.step, this.asyncDeadlineMs === Infinity ? Infinity : now + this.asyncDeadlineMs);
    return now;
  }

  /** Races a promise answer against the decision's deadline and the match's signal. */
  private withDeadline(pending: PromiseLike<unknown>, seat: number, ctx: SeatContext): Promise<unknown> {
    const signal = this.o.signal;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiting: UnsettledDecision = { matchId: this.matchId, env: this.env.meta.id, seat, agent: this.agents[seat].name, step: this.step };
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
        const why = this.o.deadlineMs === undefined ? ' (the default deadline for promise answers; set one with deadlineMs / --deadline)' : '';
        timer = setTimeout(() => finish(() => reject(new TimeoutError(`no answer within ${this.asyncDeadlineMs} ms${why}`)), 'deadline'), ms);
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
  private fault(seat: number, verdict: Verdict, attempt: number): boolean {
    const retry = attempt < this.policy.retries;
    const resolution = retry ? 'retry' : this.policy.then === 'default' ? 'default-action' : 'forfeit';
    this.recordFault({ step: this.step, seat, kind: verdict.kind, reason: verdict.reason, attempt, resolution });
    return retry;
  }

  private recordFault(record: FaultRecord): void {
    this.faults.push(record);
    if (this.bus?.active) this.emit(this.log.fault(record, record.seat === EFFECT_SEAT ? 'omniscient' : { seat: record.seat }));
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
