/** One pairwise result for the Bradley–Terry fit: `score` is a's score (1 win, 0.5 tie, 0 loss). */
export interface PairResultRow {
  a: string;
  b: string;
  score: number;
}

/**
 * The match table aggregated once into per-pair counts, in typed arrays (what the fit and the
 * bootstrap loop over). Pair p is players `i[p] < j[p]` (indices into `ids`); `wins[p]` counts
 * i's wins over j, `losses[p]` j's wins over i, `ties[p]` the ties. Only pairs that met appear.
 */
export interface PairTable {
  ids: readonly string[];
  i: Int32Array;
  j: Int32Array;
  wins: Float64Array;
  losses: Float64Array;
  ties: Float64Array;
}

/**
 * Accumulates pairwise results into per-pair win/loss/tie counts, one cell per pair of players.
 * Players get indices in first-seen order (or the order of `ids` given to the constructor).
 * Results of a key against itself carry no information and are counted in `selfPairs` only.
 */
export class PairCounts {
  private readonly index = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly cell = new Map<number, number>();
  private readonly pi: number[] = [];
  private readonly pj: number[] = [];
  private readonly w: number[] = [];
  private readonly l: number[] = [];
  private readonly t: number[] = [];
  private matches = 0;
  /** Results ignored because both sides were the same key. */
  selfPairs = 0;

  constructor(ids: Iterable<string> = []) {
    for (const id of ids) this.idOf(id);
  }

  /** A table built from pairwise results. */
  static from(rows: Iterable<PairResultRow>, ids?: Iterable<string>): PairCounts {
    const c = new PairCounts(ids);
    for (const r of rows) c.add(r.a, r.b, r.score);
    return c;
  }

  /** The index of `id`, adding it when new. */
  idOf(id: string): number {
    let k = this.index.get(id);
    if (k === undefined) {
      k = this.names.length;
      this.index.set(id, k);
      this.names.push(id);
    }
    return k;
  }

  /**
   * Adds `count` results of `a` against `b` with a's score `score` (1, 0.5 or 0; anything
   * else throws, naming the value).
   */
  add(a: string, b: string, score: number, count = 1): void {
    if (score !== 1 && score !== 0.5 && score !== 0) throw new Error(`pair counts: score must be 1, 0.5 or 0 (got ${String(score)}) for "${a}" vs "${b}"`);
    if (!(count >= 0)) throw new Error(`pair counts: count must be >= 0 (got ${String(count)})`);
    let x = this.idOf(a);
    let y = this.idOf(b);
    if (x === y) {
      this.selfPairs += count;
      return;
    }
    let s = score;
    if (x > y) {
      [x, y] = [y, x];
      s = 1 - s;
    }
    const key = x * 0x200000 + y;
    let p = this.cell.get(key);
    if (p === undefined) {
      p = this.pi.length;
      this.cell.set(key, p);
      this.pi.push(x);
      this.pj.push(y);
      this.w.push(0);
      this.l.push(0);
      this.t.push(0);
    }
    if (s === 1) this.w[p] += count;
    else if (s === 0) this.l[p] += count;
    else this.t[p] += count;
    this.matches += count;
  }

  /** Player ids in index order. */
  get ids(): readonly string[] {
    return this.names;
  }

  /** Number of results counted (self pairs excluded). */
  get matchCount(): number {
    return this.matches;
  }

  /** A typed-array snapshot for fitting. */
  table(): PairTable {
    return {
      ids: this.names.slice(),
      i: Int32Array.from(this.pi),
      j: Int32Array.from(this.pj),
      wins: Float64Array.from(this.w),
      losses: Float64Array.from(this.l),
      ties: Float64Array.from(this.t),
    };
  }
}

/** Per player: games played and points scored (wins + half the ties) in a pair table. */
export function playerTotals(table: PairTable): { games: Float64Array; points: Float64Array } {
  const n = table.ids.length;
  const games = new Float64Array(n);
  const points = new Float64Array(n);
  for (let p = 0; p < table.i.length; p++) {
    const g = table.wins[p] + table.losses[p] + table.ties[p];
    games[table.i[p]] += g;
    games[table.j[p]] += g;
    points[table.i[p]] += table.wins[p] + 0.5 * table.ties[p];
    points[table.j[p]] += table.losses[p] + 0.5 * table.ties[p];
  }
  return { games, points };
}
