/** One point of a rating's history, for plots: the rating right after a match. */
export interface RatingHistoryEntry {
  /** The match's time stamp, as the caller gave it. */
  time: number;
  matchId: string;
  /** The rating after the match (Elo points, or the OpenSkill ordinal μ − 3σ). */
  rating: number;
  /** OpenSkill only: mean and deviation after the match. */
  mu?: number;
  sigma?: number;
}

/** Serializable form of a {@link RatingHistory}: key -> entries in the order they were added. */
export type RatingHistorySnapshot = Record<string, RatingHistoryEntry[]>;

/**
 * Append-only rating history per rating key. Entries are kept in insertion order (the order
 * matches were rated), which is also time order when the caller rates matches as they finish.
 * `limit` (optional) keeps only the newest entries per key; 0 keeps none (for callers that
 * store the history elsewhere, such as a league's database).
 */
export class RatingHistory {
  private readonly byKey = new Map<string, RatingHistoryEntry[]>();

  constructor(
    snapshot?: RatingHistorySnapshot,
    private readonly limit = Infinity,
  ) {
    if (snapshot) for (const [k, list] of Object.entries(snapshot)) this.byKey.set(k, list.map((e) => ({ ...e })));
  }

  /** Appends one entry for `key`. */
  add(key: string, entry: RatingHistoryEntry): void {
    if (this.limit <= 0) return;
    let list = this.byKey.get(key);
    if (!list) this.byKey.set(key, (list = []));
    list.push(entry);
    if (list.length > this.limit) list.splice(0, list.length - this.limit);
  }

  /** The entries of `key`, oldest first (empty when never rated). */
  of(key: string): readonly RatingHistoryEntry[] {
    return this.byKey.get(key) ?? [];
  }

  /** Every key with at least one entry, in first-rated order. */
  keys(): string[] {
    return [...this.byKey.keys()];
  }

  /** A JSON-safe copy. */
  toJSON(): RatingHistorySnapshot {
    const out: RatingHistorySnapshot = {};
    for (const [k, list] of this.byKey) out[k] = list.map((e) => ({ ...e }));
    return out;
  }
}
