/**
 * One env-server session: a trainer outside the process plays one seat of an env, the other
 * seats are filled by agents named when the session was created. Each episode is a real match
 * (`runMatch`: the fault policy and deadlines apply to the other agents); the trainer's seat is
 * an agent whose answers come from `step` calls. `reset` starts an episode and returns the
 * trainer's first observation; `step` plays its action and returns its next observation, the
 * reward earned since its previous decision, and whether the episode is over.
 */
import type { EffectHandlers } from '../../../src/core/effects';
import { randomUUID } from 'node:crypto';
import type { Agent, AgentContext } from '../../../src/core/agent';
import type { Env, StepReward } from '../../../src/core/env';
import type { JsonObject, JsonValue } from '../../../src/core/json';
import type { Params } from '../../../src/core/params';
import { labelActions, observationText, openAnswer, parseOpenAnswer, type LabelledAction, type OpenAnswer, type PromptContext } from '../../../src/core/prompt';
import type { FaultPolicy } from '../../../src/match/fault-policy';
import { runMatch, type MatchResult } from '../../../src/match/runner';

/** The observation a trainer gets (OpenEnv's `observation` dict). */
export interface TrainerObservation {
  seat: number;
  role: string;
  /** Env step of this decision (the last step at the end). */
  step: number;
  /** `env.observe(state, seat)`: the seat's own view. */
  obs: JsonValue;
  /** The observation as text (the env's prompt template or render). */
  text: string;
  /** Legal actions (finite sets) with their names; null for open sets or at the end. */
  legal: LabelledAction[] | null;
  /** The answer format of an open set; null otherwise. */
  answer_format: OpenAnswer | null;
}

/** What reset and step return (OpenEnv's ResetResponse / StepResponse). */
export interface StepOutput {
  observation: TrainerObservation;
  reward: number | null;
  done: boolean;
  metadata: JsonObject;
}

/** An answer to step: the action itself, a legal action's name, or an open answer (the env template parses it). */
export type TrainerAction = { value: JsonValue } | { label: string } | { answer: JsonValue };


/** A problem with a step's action or the session's state; `field` names what is wrong, `status` the HTTP status. */
export class SessionError extends Error {
  constructor(
    readonly status: number,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

export interface SessionOptions {
  env: Env;
  params: Params;
  /** The trainer's seat. */
  seat: number;
  /** One agent per seat; the trainer's seat entry is ignored. */
  agents: (Agent | null)[];
  deadlineMs?: number;
  faultPolicy?: FaultPolicy;
  /** Handlers of the env's effects (the registry's). */
  effects?: EffectHandlers;
}

interface Pending {
  obs: unknown;
  legal: readonly unknown[] | null;
  ctx: AgentContext;
  resolve: (action: unknown) => void;
}

/** One session (see the module comment). */
export class EnvSession {
  readonly id = randomUUID();
  readonly createdAt = Date.now();
  lastActivity = Date.now();
  episodeId: string | null = null;
  seed: number | null = null;
  stepCount = 0;
  private pending: Pending | null = null;
  private result: MatchResult | null = null;
  private run: Promise<MatchResult> | null = null;
  private abort: AbortController | null = null;
  private wake: (() => void) | null = null;
  private reward = 0;
  private busy = false;
  private readonly env: Env;
  private readonly prompt: PromptContext;

  constructor(private readonly o: SessionOptions) {
    // The env, with the trainer's per-decision rewards collected as the runner steps it.
    const base = o.env;
    const seat = o.seat;
    this.env = {
      ...base,
      step: (s, a) => {
        const r = base.step(s, a);
        if (r.rewards) for (const x of r.rewards as StepReward[]) if (x.seat === seat) this.reward += x.value;
        return r;
      },
    };
    const seats = base.seats(base.init(o.params, 0));
    this.prompt = { env: base.meta.id, role: seats[seat].role, team: seats[seat].team, seat, seats: seats.length, params: o.params };
  }

  /** Whether an episode is under way (the trainer has an open decision). */
  get active(): boolean {
    return this.pending !== null;
  }

  /** Starts a new episode (stopping one under way) and returns the trainer's first observation. */
  async reset(seed: number, episodeId?: string): Promise<StepOutput> {
    await this.stop();
    this.seed = seed;
    this.episodeId = episodeId ?? randomUUID();
    this.stepCount = 0;
    this.reward = 0;
    this.result = null;
    this.abort = new AbortController();
    const trainer: Agent = {
      name: 'trainer',
      act: (obs, legal, ctx) =>
        new Promise((resolve) => {
          this.pending = { obs, legal, ctx, resolve };
          this.notify();
        }),
    };
    const agents = this.o.agents.map((a, i) => (i === this.o.seat ? trainer : a!));
    const waiting = this.waitForTurn();
    this.run = runMatch({
      env: this.env,
      params: this.o.params,
      seed,
      agents,
      matchId: `env-serve:${this.id}:${this.episodeId}`,
      deadlineMs: this.o.deadlineMs ?? Infinity,
      faultPolicy: this.o.faultPolicy,
      signal: this.abort.signal,
      effects: this.o.effects,
    });
    this.run.then(
      (r) => {
        this.result = r;
        this.notify();
      },
      () => this.notify(),
    );
    await waiting;
    return this.output();
  }

  /** Plays the trainer's action; returns its next observation (or the episode's end). */
  async step(action: TrainerAction): Promise<StepOutput> {
    if (this.busy) throw new SessionError(409, 'session_id', 'a step of this session is already in progress');
    const p = this.pending;
    if (!p) {
      throw this.result
        ? new SessionError(409, 'action', 'the episode is over; call reset to start a new one')
        : new SessionError(409, 'action', 'no episode under way; call reset first');
    }
    const value = this.actionOf(p, action);
    const check = p.ctx.validate ? p.ctx.validate(value) : { ok: true as const };
    if (!check.ok) throw new SessionError(422, 'action', `illegal action: ${check.reason}`);
    this.busy = true;
    try {
      this.pending = null;
      this.reward = 0;
      this.stepCount++;
      const waiting = this.waitForTurn();
      p.resolve(value);
      await waiting;
      return this.output();
    } finally {
      this.busy = false;
    }
  }

  /** OpenEnv's State: episode id, step count, and where the session stands. */
  state(): JsonObject {
    return {
      episode_id: this.episodeId,
      step_count: this.stepCount,
      session_id: this.id,
      env: this.o.env.meta.id,
      seat: this.o.seat,
      role: this.prompt.role,
      seed: this.seed,
      done: this.result !== null,
      ...(this.result ? { outcome: this.result.outcome, returns: this.result.returns } : {}),
    };
  }

  /** Stops the episode under way (if any). */
  async stop(): Promise<void> {
    if (!this.run) return;
    this.abort?.abort();
    this.pending = null;
    await this.run.catch(() => undefined);
    this.run = null;
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private waitForTurn(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private actionOf(p: Pending, a: TrainerAction): unknown {
    if ('value' in a) return a.value;
    if ('label' in a) {
      if (!p.legal) throw new SessionError(422, 'action.label', 'this decision is open (no named actions): send action.answer or action.value');
      const hit = labelActions(this.o.env, p.obs, p.legal).find((l) => l.label === a.label);
      if (!hit) throw new SessionError(422, 'action.label', `"${a.label.slice(0, 80)}" is not one of the legal action names`);
      return hit.action;
    }
    if (p.legal) return a.answer;
    try {
      return parseOpenAnswer(this.o.env, a.answer, p.obs);
    } catch (e) {
      throw new SessionError(422, 'action.answer', (e as Error).message);
    }
  }

  private output(): StepOutput {
    const env = this.o.env;
    const meta: JsonObject = { session_id: this.id, episode_id: this.episodeId, step_count: this.stepCount };
    if (this.pending) {
      const p = this.pending;
      const reward = this.reward;
      // mid-episode rewards exist only for envs that give them per decision; otherwise null until the end (docs/env-server.md)
      const mid = this.stepCount > 0 && env.capabilities.rewards === 'per-decision';
      return { observation: this.observation(p.obs, p.legal, p.ctx.step), reward: mid ? reward : null, done: false, metadata: meta };
    }
    const r = this.result;
    if (!r) throw new SessionError(500, 'session_id', 'the episode stopped without a result');
    const seat = this.o.seat;
    const reward = env.capabilities.rewards === 'per-decision' ? this.reward : r.returns[seat];
    return {
      observation: this.observation(env.observe(r.finalState, seat), null, r.length),
      reward,
      done: true,
      metadata: { ...meta, outcome: r.outcome, code: r.code, returns: r.returns, ...(r.faults.length ? { faults: r.faults as unknown as JsonValue } : {}) },
    };
  }

  private observation(obs: unknown, legal: readonly unknown[] | null, step: number): TrainerObservation {
    const env = this.o.env;
    const done = this.pending === null;
    return {
      seat: this.o.seat,
      role: this.prompt.role,
      step,
      obs: obs as JsonValue,
      text: observationText(env, obs, this.prompt),
      legal: !done && legal ? labelActions(env, obs, legal) : null,
      answer_format: !done && !legal ? openAnswer(env, obs, this.prompt) : null,
    };
  }
}
