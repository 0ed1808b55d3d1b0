import { randomUUID } from 'node:crypto';
import type { Agent, AgentReport } from '../core/agent';
import { EFFECT_SEAT, type ActionMap, type EffectRequest, type Env, type SeatInfo, type StepReward } from '../core/env';
import type { EffectHandlers } from '../core/effects';
import type { FaultRecord, MatchCode, MatchEvent } from '../core/events';
import { heartbeat, Phase, type HeartbeatWriter } from '../core/heartbeat';
import type { JsonValue } from '../core/json';
import { defaultForfeitReturns } from '../core/forfeit';
import { MatchLogBuilder } from '../core/match-log';
import type { Params } from '../core/params';
import { Rng, deriveSeed } from '../core/rng';
import type { EventBus } from '../bus/event-bus';
import { SeatContext, type SeatHooks } from './agent-context';
import { DEFAULT_FAULT_POLICY, type FaultPolicy } from './fault-policy';
import { MatchFailureError } from './match-failure';
import { FORFEIT, SeatDecisions, STOPPED, type Decision, type DecisionHost } from './seat-decisions';

export { unsettledDecisions, type Decision, type UnsettledDecision } from './seat-decisions';

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
  /**
   * Who sits in each seat as spectators see it, in the match's events (`match.created`,
   * `match.started`): a league's player ids ("neural-v10", "greedy-t8"), so the page names each
   * player as the leaderboard does. Default: the agents' names.
   */
  names?: readonly string[];
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

class MatchRun implements DecisionHost {
  readonly env: Env;
  private readonly bus: EventBus | undefined;
  private readonly policy: FaultPolicy;
  private readonly deadlineMs: number;
  private readonly asyncDeadlineMs: number;
  readonly matchId: string;
  private readonly hb: HeartbeatWriter | null;
  state: unknown;
  private seats: readonly SeatInfo[] = [];
  private agents: readonly Agent[] = [];
  private ctxs: SeatContext[] = [];
  private decider!: SeatDecisions;
  private readonly log: MatchLogBuilder;
  step = 0;
  /** The env member (or agent hook) running now: named when it throws. */
  member = 'init';
  readonly faults: FaultRecord[] = [];
  private readonly rewards: StepRewardRecord[] = [];

  constructor(private readonly o: MatchOptions) {
    this.hb = heartbeat();
    // Watched (the CLI's worker): every env member marks the heartbeat, so a hang names it.
    this.env = this.hb ? this.hb.watchEnv(o.env) : o.env;
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
    try {
      this.begin();
      const stop = await this.loop();
      return this.finish(stop);
    } catch (e) {
      if (this.member === 'agents' || e instanceof MatchFailureError) throw e; // the caller's own mistake
      throw new MatchFailureError(this.env.meta.id, this.member, this.o.seed, this.step, this.matchId, e);
    }
  }

  /** Initial state, seats, agents and their contexts; the opening events. */
  private begin(): void {
    const { env, o } = this;
    this.hb?.at(o.seed, 0);
    this.member = 'init';
    this.state = env.init(o.params, o.seed);
    this.member = 'seats';
    this.seats = env.seats(this.state);
    this.member = 'agents';
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
      (s, i) => new SeatContext(this.matchId, i, s.role, s.team, () => Rng.fromSeed(deriveSeed(o.seed, 'seat', i)), o.env, o.params, hooks),
    );
    this.decider = new SeatDecisions(this, this.agents, this.ctxs, {
      policy: this.policy,
      deadlineMs: this.deadlineMs,
      asyncDeadlineMs: this.asyncDeadlineMs,
      explicitDeadline: o.deadlineMs !== undefined,
      signal: o.signal,
      onDecision: o.onDecision,
      heartbeat: this.hb,
    });
    if (this.hb) {
      this.hb.context({ env: env.meta.id, match: o.matchId, agents: this.agents.map((a) => a.name) });
      // a synchronous agent that overruns its deadline by more than a second counts as hung
      this.hb.limit(this.deadlineMs === Infinity ? 0 : this.deadlineMs + 1000);
    }
    if (this.bus?.active) {
      const agentNames = o.names && o.names.length === this.agents.length ? [...o.names] : this.agents.map((a) => a.name);
      this.emit(this.log.created(env.meta.id, o.params, o.seed, this.seats, agentNames));
      this.member = 'publicParams';
      this.emit(this.log.started(env.meta.id, env.publicParams ? env.publicParams(o.params) : o.params, agentNames, env.meta.hiddenRoles === true));
    }
    for (let i = 0; i < this.agents.length; i++) this.agentHook(i, 'start', () => this.agents[i].start?.(this.ctxs[i]));
  }

  /** Runs an agent's synchronous hook (start, end) marked in the heartbeat. */
  private agentHook(seat: number, hook: 'start' | 'end', f: () => void): void {
    this.member = `agent "${this.agents[seat].name}" (seat ${seat}) ${hook}`;
    if (!this.hb) return f();
    this.hb.enter(Phase.Agent, seat);
    try {
      f();
    } finally {
      this.hb.leave();
    }
  }

  /** Steps until the env is terminal (null) or the match stops early (the reason). */
  private async loop(): Promise<Stop | null> {
    const { env, o } = this;
    const maxLength = env.maxLengthFor(o.params);
    for (;;) {
      this.member = 'isTerminal';
      if (env.isTerminal(this.state)) break;
      this.hb?.atStep(this.step);
      if (o.signal?.aborted) return { code: 'aborted', outcome: 'aborted' };
      if (this.step >= maxLength) return { code: 'aborted', outcome: 'max-length' };
      this.member = 'effect';
      const effect = env.effect(this.state);
      if (effect) {
        const stop = await this.performEffect(effect);
        if (stop) return stop;
        continue;
      }
      this.member = 'toAct';
      const toAct = env.toAct(this.state);
      if (this.bus?.active) this.emit(this.log.turn(this.step, toAct, this.phaseLabel()));
      const actions: ActionMap<unknown> = {};
      let forfeit = -1;
      if (toAct.length === 1) {
        let a = this.decider.decide(toAct[0]);
        if (isThenable(a)) a = await a;
        if (a === STOPPED) return { code: 'aborted', outcome: 'aborted' };
        if (a === FORFEIT) forfeit = toAct[0];
        else actions[toAct[0]] = a;
      } else {
        const answers = toAct.map((seat) => this.decider.decide(seat));
        const settled = answers.some(isThenable) ? await Promise.all(answers) : answers;
        if (settled.includes(STOPPED)) return { code: 'aborted', outcome: 'aborted' };
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

  /** The env's public phase label of the current state (carried by `turn` events), or undefined when it names none. */
  private phaseLabel(): string | undefined {
    if (!this.env.phase) return undefined;
    this.member = 'phase';
    return this.env.phase(this.state);
  }

  /** Publishes the accepted actions, steps the env and publishes its events; keeps its rewards. */
  private apply(toAct: readonly number[], actions: ActionMap<unknown>): void {
    const { env } = this;
    if (this.bus?.active) {
      for (const seat of toAct) {
        const action = actions[seat] as JsonValue;
        this.member = 'actionVisibility';
        this.emit(this.log.action(this.step, seat, action, env.actionVisibility(this.state, seat, action)));
      }
    }
    this.member = 'step';
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
    if (this.bus?.active) this.emit(this.log.turn(this.step, [EFFECT_SEAT], this.phaseLabel()));
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
        this.member = 'validateAction';
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
    this.member = stop ? 'forfeitReturns' : 'returns';
    if (stop?.code === 'forfeit') {
      returns = env.forfeitReturns?.(this.state, stop.forfeitedBy!) ?? defaultForfeitReturns(this.seats.length, stop.forfeitedBy!, env.utilityFor(this.o.params) === 'zero-sum', this.rewards);
      outcome = stop.outcome;
    } else if (stop) {
      returns = this.seats.map(() => 0);
      outcome = stop.outcome;
    } else {
      returns = env.returns(this.state);
      this.member = 'outcome';
      outcome = env.outcome(this.state);
    }
    const code: MatchCode = stop?.code ?? 'ok';
    const forfeitedBy = stop?.forfeitedBy;
    this.member = 'summary';
    const summary = env.summary(this.state);
    for (const ctx of this.ctxs) ctx.close();
    for (let i = 0; i < this.agents.length; i++) this.agentHook(i, 'end', () => this.agents[i].end?.(returns, this.ctxs[i], { outcome, summary }));
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
      decisions: this.decider.count,
      faults: this.faults,
      rewards: this.rewards,
      summary,
      finalState: this.state,
      ...(reports.some((r) => r !== null) ? { reports } : {}),
    };
  }

  /** Records a fault and publishes it (private to the seat; omniscient for the effect seat). */
  recordFault(record: FaultRecord): void {
    this.faults.push(record);
    if (this.bus?.active) this.emit(this.log.fault(record, record.seat === EFFECT_SEAT ? 'omniscient' : { seat: record.seat }));
  }
}
