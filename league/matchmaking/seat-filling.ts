import type { SeatInfo } from '../../src/core/env';
import type { Rng } from '../../src/core/rng';

/** A league player as seat filling sees it. */
export interface SeatCandidate {
  id: string;
  /** Roles the player can play; undefined = every role (as in the league config). */
  roles?: readonly string[];
}

/** What a `pick` callback is told about the seats it fills. */
export interface SeatPickContext {
  /** Seat indices being filled (one seat, or every open seat of a team). */
  seats: readonly number[];
  team: string;
  /** Distinct roles of those seats. */
  roles: readonly string[];
  /** Player id per seat so far (undefined = still open). */
  filled: ReadonlyArray<string | undefined>;
  /** The focal player's id, when one was placed. */
  focal?: string;
}

/** Seat-filling settings. */
export interface SeatFillOptions<T extends SeatCandidate> {
  /**
   * "team" (default): one player fills every seat of a team and must be able to play every
   * role on it (Werewolf: one snapshot plays all werewolves, one all villagers); "seat": each
   * seat gets its own player. A team partly taken by pinned seats is completed seat by seat.
   */
  by?: 'team' | 'seat';
  /**
   * Who may appear twice: "teams" (default) — a player never sits on two teams (no one plays
   * against itself) but may fill several seats of one team; "seats" — every seat a different
   * player (teams are then filled seat by seat even with by "team"); "none" — no
   * restriction (mirror self-play).
   */
  distinct?: 'teams' | 'seats' | 'none';
  /** The player being trained or evaluated: placed first, on a seat (team) it can play. */
  focal?: { id: string; team?: string; role?: string };
  /** Seats pinned to players (seat index -> id); they must be eligible. */
  fixed?: Readonly<Record<number, string>>;
  /**
   * Chooses among the eligible players (never empty) for the given seats; default: uniform
   * with `rng`. Plug PFSP or Elo-closeness against the focal player in here.
   */
  pick?: (eligible: readonly T[], ctx: SeatPickContext) => T;
}

/** A seat (or team) that no player can fill; the message names the role, seat and team. */
export class SeatFillError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeatFillError';
  }
}

/** Whether `player` can play `role`. */
export function canPlay(player: SeatCandidate, role: string): boolean {
  return player.roles === undefined || player.roles.includes(role);
}

function describePopulation(population: readonly SeatCandidate[]): string {
  const shown = population.slice(0, 8).map((p) => `${p.id} [${p.roles ? p.roles.join(', ') : 'any role'}]`);
  return population.length > 8 ? `${shown.join('; ')}; ... (${population.length} players)` : shown.join('; ') || 'none';
}

/**
 * Fills every seat of an episode (`seats` as `env.seats(state)` gives them: role and team per
 * seat) with an eligible player from `population` and returns the player id per seat.
 * Order: pinned seats, then the focal player (on a seat/team it can play, drawn uniformly
 * among those matching its `team`/`role` filter), then the remaining teams in order of first
 * seat, each seat or team from the eligible players by `pick`.
 * A challenger focal thus faces solvers: the other seats only take players of their roles.
 * Throws {@link SeatFillError} naming the role, seat and team when nobody eligible is left.
 */
export function fillSeats<T extends SeatCandidate>(seats: readonly SeatInfo[], population: readonly T[], rng: Rng, options: SeatFillOptions<T> = {}): string[] {
  const by = options.by ?? 'team';
  const distinct = options.distinct ?? 'teams';
  const filled: Array<string | undefined> = seats.map(() => undefined);
  const teamOfPlayer = new Map<string, string>();
  const used = new Set<string>();
  const byId = new Map(population.map((p) => [p.id, p]));
  const focal = options.focal?.id;

  const place = (id: string, seatList: readonly number[]): void => {
    for (const s of seatList) filled[s] = id;
    used.add(id);
    teamOfPlayer.set(id, seats[seatList[0]].team);
  };
  const allowed = (p: T, team: string, count: number): boolean => {
    if (distinct === 'none') return true;
    if (distinct === 'seats') return !used.has(p.id) && count === 1;
    const t = teamOfPlayer.get(p.id);
    return t === undefined || t === team;
  };
  const where = (list: readonly number[]): string =>
    list.length === 1 ? `seat ${list[0]} (role "${seats[list[0]].role}", team "${seats[list[0]].team}")` : `team "${seats[list[0]].team}" (seats ${list.join(', ')})`;

  // Units to fill: a whole team, or single seats.
  const teams = [...new Set(seats.map((s) => s.team))];
  const units: number[][] =
    by === 'team' && distinct !== 'seats' ? teams.map((t) => seats.map((s, i) => (s.team === t ? i : -1)).filter((i) => i >= 0)) : seats.map((_, i) => [i]);

  for (const [key, id] of Object.entries(options.fixed ?? {})) {
    const s = Number(key);
    const p = byId.get(id);
    if (!(s >= 0 && s < seats.length)) throw new SeatFillError(`seat filling: fixed seat ${key} does not exist (${seats.length} seats)`);
    if (!p) throw new SeatFillError(`seat filling: fixed player "${id}" is not in the population`);
    if (!canPlay(p, seats[s].role)) throw new SeatFillError(`seat filling: fixed player "${id}" cannot play role "${seats[s].role}" of seat ${s} (plays ${p.roles?.join(', ')})`);
    place(id, [s]);
  }

  if (focal !== undefined) {
    const p = byId.get(focal);
    if (!p) throw new SeatFillError(`seat filling: focal player "${focal}" is not in the population`);
    const f = options.focal!;
    const fits = units
      .map((u) => u.filter((s) => filled[s] === undefined))
      .filter((u) => u.length > 0)
      .filter((u) => (f.team === undefined || seats[u[0]].team === f.team) && (f.role === undefined || u.some((s) => seats[s].role === f.role)))
      .filter((u) => u.every((s) => canPlay(p, seats[s].role)) && allowed(p, seats[u[0]].team, u.length));
    if (fits.length === 0) {
      const filter = [f.team !== undefined ? `team "${f.team}"` : '', f.role !== undefined ? `role "${f.role}"` : ''].filter(Boolean).join(', ');
      throw new SeatFillError(`seat filling: focal player "${focal}" (plays ${p.roles ? p.roles.join(', ') : 'any role'}) fits no open ${by === 'team' ? 'team' : 'seat'}${filter ? ` with ${filter}` : ''}`);
    }
    place(focal, rng.pick(fits));
  }

  for (const unit of units) {
    const open = unit.filter((s) => filled[s] === undefined);
    if (open.length === 0) continue;
    const team = seats[open[0]].team;
    // A team partly taken by pinned seats is completed seat by seat.
    const groups = by === 'team' && open.length < unit.length ? open.map((s) => [s]) : [open];
    for (const group of groups) {
      const roles = [...new Set(group.map((s) => seats[s].role))];
      const eligible = population.filter((p) => roles.every((r) => canPlay(p, r)) && allowed(p, team, group.length));
      if (eligible.length === 0) {
        const capable = population.filter((p) => roles.every((r) => canPlay(p, r)));
        const why = capable.length === 0 ? `no player can play ${roles.map((r) => `"${r}"`).join(' and ')}` : `every player who can play ${roles.map((r) => `"${r}"`).join(' and ')} is already seated elsewhere (distinct: "${distinct}")`;
        throw new SeatFillError(`seat filling: cannot fill ${where(group)}: ${why}; population: ${describePopulation(population)}`);
      }
      const ctx: SeatPickContext = { seats: group, team, roles, filled: filled.slice(), focal };
      const chosen = options.pick ? options.pick(eligible, ctx) : rng.pick(eligible);
      if (!eligible.includes(chosen)) throw new SeatFillError(`seat filling: pick returned "${chosen?.id}", which is not eligible for ${where(group)}`);
      place(chosen.id, group);
    }
  }
  return filled as string[];
}
