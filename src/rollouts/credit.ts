/**
 * Credit for rollouts: which trajectory each decision belongs to and what that trajectory
 * earned. A trajectory is one seat's decisions in one episode, or — for envs whose per-decision
 * rewards close tries (Countdown's K attempts) — one try: the decisions since the seat's
 * previous try ended (cut exactly as the trainer cuts them, src/train/tries.ts). Its reward is
 * the try's reward, or the seat's episode return. Group-relative advantages (GRPO, RLOO:
 * src/train/advantages.ts) compare trajectories that share a start state.
 */
import type { StepRewardRecord } from '../match/runner';
import { groupAdvantages } from '../train/advantages';
import { cutTries } from '../train/tries';

/** One recorded decision: who decided at which env step. */
export interface DecisionRef {
  seat: number;
  step: number;
}

/** One trajectory of an episode. */
export interface Trajectory {
  seat: number;
  /** Index of the try within the seat's episode, or null when the env has no tries (or the seat none). */
  try: number | null;
  /** Indices into the episode's decision list, in order. */
  decisions: number[];
  /** The try's reward, or the seat's episode return. */
  reward: number;
}

/** Cuts an episode's decisions into trajectories (see the module comment). */
export function trajectoriesOf(decisions: readonly DecisionRef[], returns: readonly number[], rewards: readonly StepRewardRecord[]): Trajectory[] {
  const seats = [...new Set(decisions.map((d) => d.seat))].sort((a, b) => a - b);
  const whole = seats.map((seat) => {
    const indices = decisions.map((d, i) => (d.seat === seat ? i : -1)).filter((i) => i >= 0);
    return { seat, indices, steps: indices.map((i) => decisions[i].step), ret: returns[seat] ?? 0 };
  });
  const cut = cutTries(whole, rewards, 1);
  const out: Trajectory[] = [];
  const count = new Map<number, number>();
  for (const t of cut) {
    const hasTries = rewards.some((r) => r.seat === t.seat && r.endsTry);
    const k = count.get(t.seat) ?? 0;
    count.set(t.seat, k + 1);
    out.push({ seat: t.seat, try: hasTries ? k : null, decisions: t.indices, reward: t.ret });
  }
  return out;
}

/** The seat's per-decision rewards earned in `step` (0 when none). */
export function stepReward(rewards: readonly StepRewardRecord[], seat: number, step: number): number {
  let sum = 0;
  for (const r of rewards) if (r.seat === seat && r.step === step) sum += r.value;
  return sum;
}

/** GRPO and RLOO advantages of trajectories by group key (one entry per trajectory). */
export function advantagesOf(rewards: readonly number[], groups: readonly string[]): { grpo: number; rloo: number }[] {
  const grpo = groupAdvantages(rewards, groups, 'grpo');
  const rloo = groupAdvantages(rewards, groups, 'rloo');
  return rewards.map((_, i) => ({ grpo: grpo[i], rloo: rloo[i] }));
}
