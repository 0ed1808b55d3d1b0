/**
 * Tries: several independent attempts inside one seat's episode (Countdown's K solver attempts
 * at one puzzle), learned from as separate trajectories, each with its own return, so that
 * group-relative baselines compare the tries with each other and one try's moves are not
 * credited with another try's score.
 *
 * The env declares tries through its per-decision rewards (`StepReward.endsTry`, capability
 * `tries`): a try is the seat's decisions since its previous try ended, up to and including the
 * step the try-ending reward credits (`credits`, else the step that gave it); its return is the
 * sum of the seat's rewards in that span.
 */
import type { StepRewardRecord } from '../match/runner';

/** Minimal view of a trajectory for cutting (see sample-buffer.ts). */
interface CuttableTrajectory {
  indices: number[];
  /** Env step of each decision. */
  steps?: number[];
  seat: number;
  ret: number;
  start?: number;
}

/**
 * Cuts every trajectory of `trajs` whose seat has try-ending rewards into one trajectory per
 * try (returns scaled by `rewardScale`); decisions after the last try-ending reward, and
 * trajectories without such rewards, are kept as they are (trailing decisions form one more
 * piece whose return is the seat's rewards after its last try). Returns the new list.
 */
export function cutTries<T extends CuttableTrajectory>(trajs: readonly T[], rewards: readonly StepRewardRecord[], rewardScale: number): T[] {
  const out: T[] = [];
  for (const t of trajs) {
    const mine = rewards.filter((r) => r.seat === t.seat);
    const steps = t.steps;
    if (!steps || steps.length !== t.indices.length || !mine.some((r) => r.endsTry)) {
      out.push(t);
      continue;
    }
    let d = 0;
    let sum = 0;
    let pending: number[] = [];
    const ordered = [...mine].sort((a, b) => (a.credits ?? a.step) - (b.credits ?? b.step));
    for (const reward of ordered) {
      const upTo = reward.credits ?? reward.step;
      while (d < steps.length && steps[d] <= upTo) pending.push(t.indices[d++]);
      sum += reward.value;
      if (!reward.endsTry) continue;
      if (pending.length) out.push({ ...t, indices: pending, steps: undefined, ret: sum * rewardScale, start: t.indices[0] });
      pending = [];
      sum = 0;
    }
    while (d < steps.length) pending.push(t.indices[d++]);
    if (pending.length) out.push({ ...t, indices: pending, steps: undefined, ret: sum * rewardScale, start: t.indices[0] });
  }
  return out;
}
