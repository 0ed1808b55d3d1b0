import type { AgentContext } from '../core/agent';
import type { ActionCheck, Env } from '../core/env';
import type { JsonObject } from '../core/json';
import type { Params } from '../core/params';
import type { Rng } from '../core/rng';

/** The runner's side of `validate` and `note` (bound to the match's current state and its log). */
export interface SeatHooks {
  validate(seat: number, action: unknown): ActionCheck;
  note(seat: number, step: number, name: string, data: JsonObject): void;
}

/**
 * The per-seat context object, reused across decisions so the synchronous fast path
 * allocates nothing: the AbortController behind `signal` and the seeded `rng` are only created
 * when an agent actually reads them.
 */
export class SeatContext implements AgentContext {
  step = 0;
  deadline = Infinity;
  private controller: AbortController | undefined;
  private generator: Rng | undefined;
  /** True between `begin` and the decision's end (abort, close): notes are accepted only then. */
  private open = false;

  constructor(
    readonly matchId: string,
    readonly seat: number,
    readonly role: string,
    readonly team: string,
    private readonly makeRng: () => Rng,
    readonly env: Env,
    readonly params: Params,
    private readonly hooks: SeatHooks,
  ) {}

  /** The seat's generator, seeded on first use (agents that never draw pay nothing). */
  get rng(): Rng {
    return (this.generator ??= this.makeRng());
  }

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  /** Starts a new decision: new step, new deadline, a fresh (lazy) signal. */
  begin(step: number, deadline: number): void {
    this.step = step;
    this.deadline = deadline;
    this.controller = undefined;
    this.open = true;
  }

  /** Aborts the current decision's signal, if anybody is listening to it. */
  abort(reason: string): void {
    this.open = false;
    this.controller?.abort(new Error(reason));
  }

  /** Ends note-taking (the match is over). */
  close(): void {
    this.open = false;
  }

  validate(action: unknown): ActionCheck {
    return this.hooks.validate(this.seat, action);
  }

  note(name: string, data: JsonObject): void {
    if (this.open) this.hooks.note(this.seat, this.step, name, data);
  }
}
