/**
 * OpenSpiel's offer table for `bargaining`, rebuilt exactly (see README.md, "OpenSpiel parity").
 *
 * OpenSpiel's `BargainingGame::CreateOffers` counts a 3-digit vector upward with digit 0 (books)
 * the fastest, each digit 0..kPoolMaxNumItems (7), and keeps every vector whose sum is <= 7. That
 * gives C(10,3) = 120 offers, independent of the instance; action id = position in that list and
 * Agree = 120 (`AllOffers().size()`). An offer states what the PROPOSER keeps.
 *
 * Everything here is precomputed at module load: the hot path only indexes arrays.
 */

/** Number of item types (books, hats, balls). */
export const NUM_ITEM_TYPES = 3;
/** Most items of all types together in a pool (OpenSpiel kPoolMaxNumItems). */
export const POOL_MAX_ITEMS = 7;
/** Each player's total value of the whole pool (OpenSpiel kTotalValueAllItems). */
export const TOTAL_VALUE = 10;
/** Item names, singular and plural, in item order. */
export const ITEM_NAMES: readonly (readonly [string, string])[] = [
  ['book', 'books'],
  ['hat', 'hats'],
  ['ball', 'balls'],
];

function buildOffers(): (readonly number[])[] {
  const out: (readonly number[])[] = [];
  for (let c = 0; c <= POOL_MAX_ITEMS; c++) {
    for (let b = 0; b <= POOL_MAX_ITEMS; b++) {
      for (let a = 0; a <= POOL_MAX_ITEMS; a++) {
        if (a + b + c <= POOL_MAX_ITEMS) out.push(Object.freeze([a, b, c]));
      }
    }
  }
  return out;
}

/** All offers in OpenSpiel's order: OFFERS[id] = [books, hats, balls] the proposer keeps. */
export const OFFERS: readonly (readonly number[])[] = Object.freeze(buildOffers());
/** Number of offers (120). */
export const NUM_OFFERS = OFFERS.length;
/** The Agree action id (120). */
export const AGREE = NUM_OFFERS;

/** Key of a count vector with every count in 0..7: a*64 + b*8 + c. */
export function countsKey(counts: readonly number[]): number {
  return counts[0] * 64 + counts[1] * 8 + counts[2];
}

const ID_BY_KEY = new Int16Array(512).fill(-1);
OFFERS.forEach((o, id) => (ID_BY_KEY[countsKey(o)] = id));

/** The offer id of a keep vector, or -1 when it is not one of the 120 offers (or malformed). */
export function offerId(keep: unknown): number {
  if (!Array.isArray(keep) || keep.length !== NUM_ITEM_TYPES) return -1;
  for (const k of keep) if (!Number.isInteger(k) || k < 0 || k > POOL_MAX_ITEMS) return -1;
  return ID_BY_KEY[countsKey(keep as number[])];
}

/** Per pool key: the legal actions without Agree (offers that fit the pool) and with Agree appended. */
interface PoolTable {
  fits: Uint8Array;
  offers: readonly number[];
  offersAndAgree: readonly number[];
}
const POOL_TABLES: (PoolTable | undefined)[] = new Array(512);

function poolTable(pool: readonly number[]): PoolTable {
  const key = countsKey(pool);
  let t = POOL_TABLES[key];
  if (!t) {
    const fits = new Uint8Array(NUM_OFFERS + 1);
    const offers: number[] = [];
    for (let id = 0; id < NUM_OFFERS; id++) {
      const o = OFFERS[id];
      if (o[0] <= pool[0] && o[1] <= pool[1] && o[2] <= pool[2]) {
        fits[id] = 1;
        offers.push(id);
      }
    }
    t = { fits, offers: Object.freeze(offers), offersAndAgree: Object.freeze([...offers, AGREE]) };
    POOL_TABLES[key] = t;
  }
  return t;
}

/**
 * OpenSpiel's legal actions in id order: every offer whose counts do not exceed the pool, then
 * Agree when an offer is on the table. The returned array is shared and frozen: do not mutate.
 */
export function legalIds(pool: readonly number[], offerOnTable: boolean): readonly number[] {
  const t = poolTable(pool);
  return offerOnTable ? t.offersAndAgree : t.offers;
}

/** True when offer `id` (0..119) fits the pool. */
export function offerFits(pool: readonly number[], id: number): boolean {
  return poolTable(pool).fits[id] === 1;
}

/** The complementary share: what the non-proposer gets when offer `id` is accepted. */
export function restOf(pool: readonly number[], keep: readonly number[]): number[] {
  return [pool[0] - keep[0], pool[1] - keep[1], pool[2] - keep[2]];
}

/** Value of a share under per-item values. */
export function valueOf(values: readonly number[], share: readonly number[]): number {
  return values[0] * share[0] + values[1] * share[1] + values[2] * share[2];
}

/** "1 book, 2 hats and 0 balls". */
export function describeShare(share: readonly number[]): string {
  const parts = share.map((n, i) => `${n} ${ITEM_NAMES[i][n === 1 ? 0 : 1]}`);
  return `${parts[0]}, ${parts[1]} and ${parts[2]}`;
}
