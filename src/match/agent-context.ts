import type { AgentContext } from '../core/agent';
import type { Env } from '../core/env';
import type { Params } from '../core/params';
import type { Rng } from '../core/rng';

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

  constructor(
    readonly matchId: string,
    readonly seat: number,
    readonly role: string,
    readonly team: string,
    private readonly makeRng: () => Rng,
    readonly env: Env,
    readonly params: Params,
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
  }

  /** Aborts the current decision's signal, if anybody is listening to it. */
  abort(reason: string): void {
    this.controller?.abort(new Error(reason));
  }
}
