/**
 * Swiss pairing (Monrad system): players are ranked by score, then by their place in the entry
 * list (the seeding), and paired top down with the nearest-ranked player they have not met
 * (1–2, 3–4, ... when nobody has met), backtracking when a choice would leave someone unpaired.
 * With an odd number of players the lowest-ranked player without a bye sits out (a bye); if no
 * such choice lets the others pair without repeats, players who had a bye are considered too.
 */

/** No pairing without a repeated encounter exists (too many rounds for the field): a config problem. */
export class SwissPairingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SwissPairingError';
  }
}

/** A player as the pairing sees it. */
export interface SwissEntrant {
  id: string;
  score: number;
  /** Place in the entry list (0 = top seed). */
  seed: number;
  /** Players already met. */
  opponents: ReadonlySet<string>;
  /** Byes already received. */
  byes: number;
}

/** One round's pairings: [higher-ranked, lower-ranked] per board, and who has the bye. */
export interface SwissRound {
  pairings: [string, string][];
  bye: string | null;
}

/** Ranking order for pairing: score descending, then seed ascending. */
export function pairingOrder(players: readonly SwissEntrant[]): SwissEntrant[] {
  return [...players].sort((x, y) => y.score - x.score || x.seed - y.seed);
}

/** Pairs `order` (ranked) top down without repeats; null when impossible. */
function pairAll(order: readonly SwissEntrant[]): [string, string][] | null {
  const used = new Array<boolean>(order.length).fill(false);
  const out: [string, string][] = [];
  const go = (): boolean => {
    const i = used.indexOf(false);
    if (i < 0) return true;
    used[i] = true;
    for (let j = i + 1; j < order.length; j++) {
      if (used[j] || order[i].opponents.has(order[j].id)) continue;
      used[j] = true;
      out.push([order[i].id, order[j].id]);
      if (go()) return true;
      out.pop();
      used[j] = false;
    }
    used[i] = false;
    return false;
  };
  return go() ? out : null;
}

/**
 * The next round's pairings for `players` (see the module comment); throws SwissPairingError
 * when no pairing without a repeated encounter exists (`round`, 0-based, names it in the message).
 */
export function swissPairing(players: readonly SwissEntrant[], round?: number): SwissRound {
  const order = pairingOrder(players);
  if (order.length % 2 === 0) {
    const pairings = pairAll(order);
    if (pairings) return { pairings, bye: null };
  } else {
    const fewestByes = Math.min(...order.map((p) => p.byes));
    for (const allowed of [fewestByes, Infinity]) {
      for (let k = order.length - 1; k >= 0; k--) {
        if (order[k].byes > allowed) continue;
        const pairings = pairAll(order.filter((_, i) => i !== k));
        if (pairings) return { pairings, bye: order[k].id };
      }
    }
  }
  const which = round === undefined ? 'swiss' : `swiss round ${round + 1}`;
  throw new SwissPairingError(`${which}: no pairing of ${players.length} players without a repeated encounter; use fewer rounds (config field "rounds"); the games played so far are kept`);
}
