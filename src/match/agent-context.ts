import type { AgentContext } from '../core/agent';
import type { Env } from '../core/env';
import type { Params } from '../core/params';
import type { Rng } from '../core/rng';

/**
 * The per-seat context object, reused across decisions so the synchronous fast path
 * allocates nothing: the AbortController behind `signal` is only created when an agent
 * actually reads it.
 */
export class SeatContext implements AgentContext {
  step = 0;
  deadline = Infinity;
  private controller: AbortController | undefined;

  constructor(
    readonly matchId: string,
    readonly seat: number,
    readonly role: string,
    readonly team: string,
    readonly rng: Rng,
    readonly env: Env,
    readonly params: Params,
  ) {}

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
