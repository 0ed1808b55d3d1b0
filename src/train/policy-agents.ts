/**
 * Agents that act with an in-memory {@link PolicyModel}: the recording agent of a learner's
 * seat during rollouts (samples an action, stores input, mask, action, log-prob and value),
 * and a plain policy agent (frozen snapshots, evaluation).
 */
import type { Agent, AgentContext } from '../core/agent';
import type { Rng } from '../core/rng';
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

/** A learner's seat in a training episode: samples from the policy and records every decision. */
export class RecordingAgent implements Agent {
  private traj: Trajectory | null = null;

  constructor(
    readonly name: string,
    private readonly model: PolicyModel,
    private readonly rng: Rng,
    private readonly target: RecordTarget,
  ) {}

  start(ctx: AgentContext): void {
    this.traj = this.target.buf.begin(ctx.role, ctx.seat, this.target.episode, this.target.group);
  }

  act(obs: unknown, legal: readonly unknown[] | null, ctx: AgentContext): unknown {
    const m = this.model;
    m.prepare(obs, legal, ctx.role);
    const step = m.decide(this.rng);
    const traj = this.traj!;
    traj.indices.push(this.target.buf.push(m.input, m.mask, step.index, step.logp, step.value));
    if (this.target.recordSteps) (traj.steps ??= []).push(ctx.step);
    return step.action;
  }

  end(returns: readonly number[], ctx: AgentContext): void {
    if (this.traj) this.traj.ret = returns[ctx.seat] * this.target.rewardScale;
  }
}

/** Acts with a policy without recording: sampled with `rng`, or greedy when `rng` is null. */
export function policyAgent(name: string, model: PolicyModel, rng: Rng | null): Agent {
  return {
    name,
    act(obs, legal, ctx) {
      model.prepare(obs, legal, ctx.role);
      return model.decide(rng).action;
    },
  };
}
