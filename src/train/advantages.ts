/**
 * Advantage estimators.
 *
 * - GAE (Schulman et al. 2016) for PPO: δ_t = r_t + γ·V_{t+1}·(1 − done_t) − V_t,
 *   A_t = δ_t + γλ·A_{t+1}; value targets R_t = A_t + V_t.
 * - Group-relative baselines for REINFORCE: several episodes that share a start state form a
 *   group, and each episode's return is compared with the rest of its group:
 *   GRPO: A_i = (R_i − mean(R)) / (std(R) + ε), std with Bessel's correction (n − 1), as TRL
 *   computes it; a group of one, or one whose returns are all equal, gets advantages 0.
 *   RLOO: A_i = R_i − mean_{j≠i} R_j (the leave-one-out baseline); a group of one gets 0.
 */

/** Advantages and value targets of one trajectory. */
export interface GaeResult {
  advantages: Float64Array;
  returns: Float64Array;
}

/**
 * GAE over one trajectory of length T. `values[t]` is V(s_t); `bootstrap` is V(s_T) for a
 * trajectory cut before its end (0 for one that ended: terminal states are worth nothing more).
 */
export function gae(rewards: ArrayLike<number>, values: ArrayLike<number>, gamma: number, lambda: number, bootstrap = 0): GaeResult {
  const T = rewards.length;
  if (values.length !== T) throw new Error(`gae: ${T} rewards but ${values.length} values`);
  const advantages = new Float64Array(T);
  const returns = new Float64Array(T);
  let next = 0;
  for (let t = T - 1; t >= 0; t--) {
    const nextValue = t === T - 1 ? bootstrap : values[t + 1];
    const delta = rewards[t] + gamma * nextValue - values[t];
    next = delta + gamma * lambda * next;
    advantages[t] = next;
    returns[t] = next + values[t];
  }
  return { advantages, returns };
}

/** Discounted returns-to-go (GAE with λ = 1 and V = 0 is the same thing). */
export function discountedReturns(rewards: ArrayLike<number>, gamma: number): Float64Array {
  const out = new Float64Array(rewards.length);
  let acc = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    acc = rewards[t] + gamma * acc;
    out[t] = acc;
  }
  return out;
}

/** Which group-relative baseline. */
export type GroupBaseline = 'grpo' | 'rloo';

/**
 * Group-relative advantages: `returns[i]` is episode i's return and `groups[i]` its group key
 * (episodes sharing a start state share a key). Returns one advantage per episode.
 */
export function groupAdvantages(returns: ArrayLike<number>, groups: ArrayLike<number | string>, kind: GroupBaseline, eps = 1e-4): Float64Array {
  const n = returns.length;
  if (groups.length !== n) throw new Error(`groupAdvantages: ${n} returns but ${groups.length} group keys`);
  const members = new Map<number | string, number[]>();
  for (let i = 0; i < n; i++) {
    const list = members.get(groups[i]);
    if (list) list.push(i);
    else members.set(groups[i], [i]);
  }
  const out = new Float64Array(n);
  for (const idx of members.values()) {
    const k = idx.length;
    if (k < 2) continue;
    let sum = 0;
    for (const i of idx) sum += returns[i];
    const mean = sum / k;
    if (kind === 'rloo') {
      for (const i of idx) out[i] = returns[i] - (sum - returns[i]) / (k - 1);
    } else {
      let ss = 0;
      for (const i of idx) ss += (returns[i] - mean) ** 2;
      const std = Math.sqrt(ss / (k - 1));
      for (const i of idx) out[i] = (returns[i] - mean) / (std + eps);
    }
  }
  return out;
}

/** Normalizes in place to mean 0, std 1 (population std); leaves a constant vector at 0. */
export function normalize(x: Float64Array | Float32Array, eps = 1e-8): void {
  const n = x.length;
  if (n === 0) return;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (x[i] - mean) ** 2;
  const std = Math.sqrt(v / n);
  for (let i = 0; i < n; i++) x[i] = (x[i] - mean) / (std + eps);
}
