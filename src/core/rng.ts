import seedrandom from 'seedrandom';

/** Serializable state of the arena's generator (seedrandom's Alea): four plain numbers. */
export interface RngState {
  c: number;
  s0: number;
  s1: number;
  s2: number;
}

/** A seed: any integer or string. The same seed yields the same stream on every machine. */
export type Seed = number | string;

/**
 * Seeded random number generator (seedrandom's Alea, state kept as plain JSON).
 *
 * Environments keep `rng.state()` inside their State and rebuild with `Rng.fromState`
 * inside `step`, so a State can be serialized, cloned and resumed with its randomness.
 * Agents receive a live Rng in their context.
 */
export class Rng {
  private constructor(private readonly prng: seedrandom.StatefulPRNG<RngState>) {}

  /** A generator seeded by `seed`. */
  static fromSeed(seed: Seed): Rng {
    return new Rng(seedrandom.alea(String(seed), { state: true }) as seedrandom.StatefulPRNG<RngState>);
  }

  /** A generator that continues exactly where `state` was captured. */
  static fromState(state: RngState): Rng {
    return new Rng(seedrandom.alea('', { state }) as seedrandom.StatefulPRNG<RngState>);
  }

  /** A fresh state for `seed`, without keeping a generator around. */
  static stateOf(seed: Seed): RngState {
    return Rng.fromSeed(seed).state();
  }

  /** The current state (a copy): store it to resume this stream later. */
  state(): RngState {
    return this.prng.state();
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.prng();
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.prng() * n);
  }

  /** Uniform integer in [lo, hi] (both inclusive). */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.prng() * (hi - lo + 1));
  }

  /** A uniformly chosen element; throws on an empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty array');
    return items[Math.floor(this.prng() * items.length)];
  }

  /** Index drawn with probability proportional to the (non-negative) weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    if (!(total > 0)) return this.int(weights.length);
    let r = this.prng() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.prng() * (i + 1));
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
}

/**
 * A 32-bit seed derived from a parent seed and labels (FNV-1a over the text), so that
 * sub-streams (each agent's rng, each episode of a run) are independent yet reproducible.
 */
export function deriveSeed(seed: Seed, ...labels: Array<string | number>): number {
  const text = [String(seed), ...labels.map(String)].join('\u0000');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
