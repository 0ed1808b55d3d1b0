/**
 * The state of a werewolf-v1 game and the `Draft` that builds the next state inside `step`.
 *
 * Design for speed: the state is a flat object of small number arrays; everything public lives
 * in one `pub` object that every observation shares by reference; the public log is chunked
 * per round, so an append copies only the current round's chunk. Nothing is deep-copied: a
 * step copies the shells it changes (structural sharing) and never mutates its input.
 */
import type { EnvEvent, SeatInfo } from '../../src/core/env';
import type { JsonObject } from '../../src/core/json';
import { Rng, type RngState } from '../../src/core/rng';
import { append } from './arrays';
import { seatsOf } from './seat-masks';
import type { SpeechActName } from './actions';
import { MAX_SEATS, type RoleName } from './roles';
import type { Rules } from './config';

export const PH_NIGHT = 0;
export const PH_BID = 1;
export const PH_SPEAK = 2;
export const PH_VOTE = 3;
export const PH_OVER = 4;
export const PHASE_NAMES = ['night', 'bid', 'speak', 'vote', 'over'] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

/** Winner codes kept in the state. */
export const W_NONE = 0;
export const W_WOLVES = 1;
export const W_VILLAGERS = 2;
export const W_DRAW = 3;
export const WINNER_NAMES = ['', 'werewolves', 'villagers', 'draw'] as const;

/** Tonight's pending choices (`state.night`); a seat number, or -1 for none. */
export type NightChoices = {
  /** The wolves' victim once decided. */
  victim: number;
  /** The doctor's target. */
  protect: number;
  /** The guard's target. */
  guard: number;
  /** Whether the witch used the antidote tonight. */
  saved: boolean;
  /** The witch's poison target. */
  poison: number;
  /** The first wolf's proposal (propose-decide). */
  proposal: number;
  /** The wolves' votes in turn (vote-in-turn), one per kill step. */
  wolfVotes: readonly number[];
};

/** Public events, kept in the log (chunk per round) and sent as env events of the same type. */
export type DawnEvent = { type: 'dawn'; round: number; dead: number[]; roles?: RoleName[] };
export type SpeechEvent = {
  type: 'speech';
  round: number;
  seat: number;
  act: SpeechActName;
  target?: number;
  role?: RoleName;
  werewolf?: boolean;
  text?: string;
};
export type VoteEvent = { type: 'vote'; round: number; seat: number; target: number | null };
export type VotesEvent = { type: 'votes'; round: number; votes: (number | null)[] };
export type ExileEvent = { type: 'exile'; round: number; seat: number | null; role?: RoleName };
export type GameOverEvent = { type: 'game-over'; round: number; winner: string; roles: RoleName[] };
export type PublicEvent = DawnEvent | SpeechEvent | VoteEvent | VotesEvent | ExileEvent | GameOverEvent;

/** Private events: a seat's own night results (and, for wolves, the team's shared log). */
export type PrivateEvent =
  | { type: 'kill' | 'proposal' | 'decision' | 'wolf-vote'; round: number; by: number; target: number }
  | { type: 'check'; round: number; target: number; result: string }
  | { type: 'protect' | 'guard' | 'antidote' | 'poison'; round: number; target: number }
  | { type: 'victim'; round: number; target: number | null }
  | { type: 'vote'; round: number; target: number | null };

/** Everything every viewer may see; shared by reference by all observations of a state. */
export type PublicInfo = {
  round: number;
  phase: PhaseName;
  /** 1 = alive, 0 = dead, per seat. */
  alive: number[];
  /** Seat speaking now (speak phase), -1 otherwise. */
  speaker: number;
  /** Last seat that spoke today, -1 before the first utterance of the day. */
  lastSpeaker: number;
  /** Index of the current speaking turn of the day (or of the voter in sequential votes). */
  turn: number;
  /** Today's speaking (and sequential voting) order; [] in a bidding debate. */
  order: number[];
  /** Public events, one chunk per round (log[round - 1]). */
  log: PublicEvent[][];
  winner: string | null;
  /** Every seat's role, revealed when the game is over; null before. */
  roles: RoleName[] | null;
};

/** The full (omniscient) state. Plain JSON; never mutated after a step returns it. */
export type WerewolfState = {
  rules: Rules;
  /** Role code per seat (see roles.ts). */
  roles: number[];
  seats: SeatInfo[];
  /** Werewolf seats, ascending, and as a bitmask. */
  wolves: number[];
  wolfMask: number;
  /** Bitmask of the plain villagers (for the "villagers-dead" win rule). */
  plainMask: number;
  pub: PublicInfo;
  /** Bitmask of living seats (mirrors pub.alive). */
  aliveBits: number;
  /** Phase code (PH_*); `pub.phase` holds its name. */
  phase: number;
  /** Kill steps of each night, then all of its steps (kill steps + the witch's two), fixed by the rules. */
  killSteps: number;
  nightSteps: number;
  /** The step within the phase: the night step, or the voter's index in sequential voting. */
  stepInPhase: number;
  /** Seats to act now, and as a bitmask. */
  act: number[];
  actMask: number;
  /** Night: the wolf who acts in this kill step (-1 none). */
  actor: number;
  /** Tonight's pending choices. */
  night: NightChoices;
  /** Bitmask of the seats named in the last utterance (they get extra weight in bidding). */
  named: number;
  /** Votes cast so far in this vote (per seat, -1 none / abstain). */
  votes: number[];
  priv: PrivateEvent[][];
  team: PrivateEvent[];
  /** Seer's checked seats (bitmask); doctor's and guard's previous targets (-1 none). */
  checked: number;
  lastProtect: number;
  lastGuard: number;
  /** Witch's potions left: [antidote, poison]. */
  potions: number[];
  rng: RngState;
  /** Uniform draws in [0, 1) taken from the Rng ahead of time (refilled from `rng` when used up), and the next one's index. */
  pool: number[];
  poolAt: number;
  /** [votes cast by villager-team seats, of which on a werewolf]. */
  stats: number[];
  winner: number;
};

/** An empty array shared by every game (frozen: a stray push would corrupt them all). */
export const EMPTY: readonly never[] = Object.freeze([]) as readonly never[];

/**
 * The next state under construction inside one `step`: copies each shell at most once,
 * collects env events, and opens the Rng only when the step draws something.
 */
export class Draft {
  readonly s: WerewolfState;
  readonly events: EnvEvent[] = [];
  private pubCopied = false;
  private logCopied = false;
  private privCopied = false;
  private nightCopied = false;

  /**
   * A draft of the state after `prev`. With `fresh`, `prev` is a newly built state owned by
   * the caller (init): it is used in place instead of copied.
   */
  constructor(prev: WerewolfState, fresh = false) {
    if (fresh) {
      this.s = prev;
      // init's fresh pub, log and priv are its own; `night` may be the shared NIGHT_INIT (copied on write)
      this.pubCopied = this.logCopied = this.privCopied = true;
      return;
    }
    this.s = {
      rules: prev.rules,
      roles: prev.roles,
      seats: prev.seats,
      wolves: prev.wolves,
      wolfMask: prev.wolfMask,
      plainMask: prev.plainMask,
      pub: prev.pub,
      aliveBits: prev.aliveBits,
      phase: prev.phase,
      killSteps: prev.killSteps,
      nightSteps: prev.nightSteps,
      stepInPhase: prev.stepInPhase,
      act: prev.act,
      actMask: prev.actMask,
      actor: prev.actor,
      night: prev.night,
      named: prev.named,
      votes: prev.votes,
      priv: prev.priv,
      team: prev.team,
      checked: prev.checked,
      lastProtect: prev.lastProtect,
      lastGuard: prev.lastGuard,
      potions: prev.potions,
      rng: prev.rng,
      pool: prev.pool,
      poolAt: prev.poolAt,
      stats: prev.stats,
      winner: prev.winner,
    };
  }

  /** The public info of the new state, copied on first use. */
  pub(): PublicInfo {
    if (!this.pubCopied) {
      const p = this.s.pub;
      this.s.pub = {
        round: p.round,
        phase: p.phase,
        alive: p.alive,
        speaker: p.speaker,
        lastSpeaker: p.lastSpeaker,
        turn: p.turn,
        order: p.order,
        log: p.log,
        winner: p.winner,
        roles: p.roles,
      };
      this.pubCopied = true;
    }
    return this.s.pub;
  }

  /** Appends a public event to the current round's log chunk and emits it (visibility public). */
  log(ev: PublicEvent): void {
    const p = this.pub();
    if (!this.logCopied) {
      p.log = p.log.slice();
      this.logCopied = true;
    }
    const last = p.log.length - 1;
    p.log[last] = append(p.log[last], ev);
    this.events.push({ type: ev.type, visibility: 'public', data: ev as unknown as JsonObject });
  }

  /** Starts the log chunk of a new round. */
  newRound(round: number): void {
    const p = this.pub();
    p.round = round;
    p.log = append(p.log, [] as PublicEvent[]);
    this.logCopied = true;
  }

  /** Appends a private event to `seat`'s log and emits it to that seat only. */
  priv(seat: number, ev: PrivateEvent): void {
    if (!this.privCopied) {
      this.s.priv = this.s.priv.slice();
      this.privCopied = true;
    }
    this.s.priv[seat] = append(this.s.priv[seat], ev);
    this.events.push({ type: ev.type, visibility: { seat }, data: ev as unknown as JsonObject });
  }

  /** Appends a private event to `seat`'s log without an env event (its content is the seat's own action, already on the bus). */
  privQuiet(seat: number, ev: PrivateEvent): void {
    if (!this.privCopied) {
      this.s.priv = this.s.priv.slice();
      this.privCopied = true;
    }
    this.s.priv[seat] = append(this.s.priv[seat], ev);
  }

  /** Appends an event to the wolves' shared log and emits it to the werewolf team. */
  team(ev: PrivateEvent): void {
    this.s.team = append(this.s.team, ev);
    this.events.push({ type: ev.type, visibility: { team: 'werewolves' }, data: ev as unknown as JsonObject });
  }

  /** Emits an event that is not logged (floor results, bids for the omniscient view). */
  emit(ev: EnvEvent): void {
    this.events.push(ev);
  }

  /** Tonight's choices, copied on first write. */
  night(): NightChoices {
    if (!this.nightCopied) {
      this.s.night = copyNight(this.s.night);
      this.nightCopied = true;
    }
    return this.s.night;
  }

  /** Records a wolf's vote (vote-in-turn) in kill step `killStep` (-1: none). */
  wolfVote(killStep: number, target: number): void {
    const n = this.night();
    const votes = n.wolfVotes.slice();
    votes[killStep] = target;
    n.wolfVotes = votes;
  }

  /** Resets the choices for a new night. */
  clearNight(): void {
    this.s.night = NIGHT_INIT;
    this.nightCopied = false;
  }

  /** Marks seats dead (alive copied once per call). */
  kill(seats: readonly number[]): void {
    if (!seats.length) return;
    const p = this.pub();
    const alive = p.alive.slice();
    let bits = this.s.aliveBits;
    for (const x of seats) {
      alive[x] = 0;
      bits &= ~(1 << x);
    }
    p.alive = alive;
    this.s.aliveBits = bits;
  }

  /** Sets who acts now: the seats of `mask` (a shared cached list). */
  setActMask(mask: number): void {
    this.s.act = seatsOf(mask);
    this.s.actMask = mask;
  }

  /** Sets who acts now. */
  setAct(seats: number[]): void {
    this.s.act = seats;
    let m = 0;
    for (const x of seats) m |= 1 << x;
    this.s.actMask = m;
  }

  /** A uniform draw in [0, 1) from the state's pool (refilled from the state's Rng when used up). */
  random(): number {
    const s = this.s;
    if (s.poolAt >= s.pool.length) {
      const rng = Rng.fromState(s.rng);
      s.pool = drawPool(rng);
      s.rng = rng.state();
      s.poolAt = 0;
    }
    return s.pool[s.poolAt++];
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.random() * n);
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }

  /** The finished state. */
  done(): WerewolfState {
    return this.s;
  }
}

/** Draws taken from the Rng per refill of the pool. */
export const POOL_SIZE = 16;

/**
 * The next POOL_SIZE draws of `rng`. Restoring a generator (Rng.fromState) costs far more than
 * a draw, so a step takes its few draws from this pool, kept in the state with the Rng state.
 */
export function drawPool(rng: Rng): number[] {
  const out = new Array<number>(POOL_SIZE);
  for (let i = 0; i < POOL_SIZE; i++) out[i] = rng.next();
  return out;
}

/** Most kill steps a night can have (vote-in-turn: one per wolf). */
export const MAX_KILL_STEPS = MAX_SEATS;

/** A copy of night choices (one object literal, so every copy shares one hidden class: fast reads). */
export function copyNight(n: NightChoices): NightChoices {
  return { victim: n.victim, protect: n.protect, guard: n.guard, saved: n.saved, poison: n.poison, proposal: n.proposal, wolfVotes: n.wolfVotes };
}

/** The choices at the start of a night: shared by every state, never written (drafts copy it first). */
export const NIGHT_INIT: NightChoices = copyNight({
  victim: -1,
  protect: -1,
  guard: -1,
  saved: false,
  poison: -1,
  proposal: -1,
  wolfVotes: Array.from({ length: MAX_KILL_STEPS }, () => -1),
});
