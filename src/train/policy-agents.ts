/**
 * Agents that act with an in-memory {@link PolicyModel}: the recording agent of a learner's
 * seat during rollouts (samples an action, stores input, mask, action, log-prob and value),
 * and a plain policy agent (frozen snapshots, evaluation).
 */
import type { Agent, AgentContext } from '../core/agent';
import type { Rng } from '../core/rng';
import type { DecisionBatcher } from './decision-batcher';
import type { PolicyModel } from './policy-model';
import type { SampleBuffer, Trajectory } from './sample-buffer';

/** Where a recording agent writes: the learner's buffer, the episode and its group key. */
export interface RecordTarget {
  buf: SampleBuffer;
  episode: number;
  group: string;
  /** Multiplies the seat's final return (config rewardScale). */
  rewardScale: number;
  /** Records each decision's env step (envs with tries, see tries.ts). */
  recordSteps?: boolean;
}

/**
 * A learner's seat in a training episode: samples from the policy and records every decision.
 * With a batcher it answers with a promise that the batch resolves (vectorized self-play);
 * what it records and plays is the same either way.
 */
export class RecordingAgent implements Agent {
  private traj: Trajectory | null = null;

  constructor(
    readonly name: string,
    private readonly model: PolicyModel,
    private readonly rng: Rng,
    private readonly target: RecordTarget,
    private readonly batcher?: DecisionBatcher,
  ) {}

  start(ctx: AgentContext): void {
    this.traj = this.target.buf.begin(ctx.role, ctx.seat, this.target.episode, this.target.group);
  }

  act(obs: unknown, legal: readonly unknown[] | null, ctx: AgentContext): unknown {
    if (this.batcher) {
      const envStep = ctx.step;
      return this.batcher
        .decide(this.model, obs, legal, ctx.role, this.rng, (step, input, mask) => this.record(step.index, step.logp, step.value, input, mask, envStep))
        .then((step) => step.action);
    }
    const m = this.model;
    m.prepare(obs, legal, ctx.role);
    const step = m.decide(this.rng);
    this.record(step.index, step.logp, step.value, m.input, m.mask, ctx.step);
    return step.action;
  }

  private record(index: number, logp: number, value: number, input: Float32Array, mask: Float32Array, envStep: number): void {
    const traj = this.traj!;
    traj.indices.push(this.target.buf.push(input, mask, index, logp, value));
    if (this.target.recordSteps) (traj.steps ??= []).push(envStep);
  }

  end(returns: readonly number[], ctx: AgentContext): void {
    if (this.traj) this.traj.ret = returns[ctx.seat] * this.target.rewardScale;
  }
}

/**
 * Acts with a policy without recording: sampled with `rng`, or greedy when `rng` is null;
 * through `batcher` (a promise per decision) when given.
 */
export function policyAgent(name: string, model: PolicyModel, rng: Rng | null, batcher?: DecisionBatcher): Agent {
  return {
    name,
    act(obs, legal, ctx) {
      if (batcher) return batcher.decide(model, obs, legal, ctx.role, rng).then((step) => step.action);
      model.prepare(obs, legal, ctx.role);
      return model.decide(rng).action;
    },
  };
}
