/** Prior of {@link HeadToHead} win probabilities. */
export interface HeadToHeadPrior {
  /**
   * Prior mean of P[a beats b]: a number (default 0.5) or a function of the two ids, e.g. the
   * Elo expected score, so unplayed pairs start from the ratings.
   */
  mean?: number | ((a: string, b: string) => number);
  /** Prior weight in virtual games (default 1). */
  strength?: number;
}

/** Serializable state: ordered pair `a\u0000b` -> [points of a, games]. */
export type HeadToHeadSnapshot = Record<string, [number, number]>;

/**
 * Recorded head-to-head results and win probabilities from them, for PFSP.
 * P[a beats b] = (points_ab + s·μ_ab) / (games_ab + s): the posterior mean under a
 * Beta(s·μ, s·(1 − μ)) prior, where points count wins plus half the ties. Unplayed pairs get
 * the prior mean μ_ab; P[a beats b] + P[b beats a] = 1 whenever μ_ab + μ_ba = 1.
 */
export class HeadToHead {
  private readonly cells = new Map<string, [number, number]>();
  private readonly prior: { mean: number | ((a: string, b: string) => number); strength: number };

  constructor(prior: HeadToHeadPrior = {}, snapshot?: HeadToHeadSnapshot) {
    this.prior = { mean: prior.mean ?? 0.5, strength: prior.strength ?? 1 };
    if (!(this.prior.strength > 0)) throw new Error(`head-to-head: prior "strength" must be > 0 (got ${String(prior.strength)})`);
    if (snapshot) for (const [k, v] of Object.entries(snapshot)) this.cells.set(k, [v[0], v[1]]);
  }

  private cell(a: string, b: string): [number, number] {
    const k = `${a}\u0000${b}`;
    let c = this.cells.get(k);
    if (!c) this.cells.set(k, (c = [0, 0]));
    return c;
  }

  /** Records `count` results of a against b with a's score `scoreA` (1 win, 0.5 tie, 0 loss); a player against itself is ignored. */
  record(a: string, b: string, scoreA: number, count = 1): void {
    if (!(scoreA >= 0 && scoreA <= 1)) throw new Error(`head-to-head: score must be in [0, 1] (got ${String(scoreA)})`);
    if (a === b) return;
    const ab = this.cell(a, b);
    ab[0] += scoreA * count;
    ab[1] += count;
    const ba = this.cell(b, a);
    ba[0] += (1 - scoreA) * count;
    ba[1] += count;
  }

  /** Points (wins + ties/2) of a against b and the games they played. */
  results(a: string, b: string): { points: number; games: number } {
    const c = this.cells.get(`${a}\u0000${b}`);
    return { points: c ? c[0] : 0, games: c ? c[1] : 0 };
  }

  /** P[a beats b] from the results and the prior (see the class doc). */
  winProbability(a: string, b: string): number {
    const { points, games } = this.results(a, b);
    const mu = typeof this.prior.mean === 'function' ? this.prior.mean(a, b) : this.prior.mean;
    const s = this.prior.strength;
    return (points + s * mu) / (games + s);
  }

  /** A JSON-safe copy of the recorded results. */
  toJSON(): HeadToHeadSnapshot {
    const out: HeadToHeadSnapshot = {};
    for (const [k, v] of this.cells) out[k] = [v[0], v[1]];
    return out;
  }
}
