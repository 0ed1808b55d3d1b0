/** Seat sets as bitmasks (bit p = seat p): the hot path's representation of who is alive or acts. */

const seatLists: number[][] = [];

/** The seats in a bitmask, ascending: a shared, cached array that must never be mutated. */
export function seatsOf(mask: number): number[] {
  let list = seatLists[mask];
  if (!list) {
    list = [];
    for (let p = 0; mask >> p; p++) if ((mask >> p) & 1) list.push(p);
    seatLists[mask] = list;
  }
  return list;
}

/** Number of set bits of a seat mask. */
export function popcount(mask: number): number {
  let c = 0;
  for (let m = mask; m; m &= m - 1) c++;
  return c;
}
