import { Subject, filter, type Observable, type OperatorFunction } from 'rxjs';
import { isMatchEvent, type ArenaEvent, type MatchEvent } from '../core/events';

/**
 * The arena's one event stream (an RxJS Subject). Producers check `active` before building
 * an event, so publishing costs one property read when nobody listens. Every consumer —
 * recorder, live broadcast, metrics, trajectories — is a subscription (a projection).
 */
export class EventBus {
  private readonly subject = new Subject<ArenaEvent>();

  /** All events, in publish order. */
  readonly events$: Observable<ArenaEvent> = this.subject.asObservable();

  /** True when at least one subscriber listens; skip building events otherwise. */
  get active(): boolean {
    return this.subject.observed;
  }

  /** Publishes one event (frozen in development builds is left to callers; events must not be mutated). */
  publish(event: ArenaEvent): void {
    this.subject.next(event);
  }

  /** Events of one match. */
  match(matchId: string): Observable<MatchEvent> {
    return this.events$.pipe(
      filter((e): e is MatchEvent => isMatchEvent(e) && e.matchId === matchId),
    );
  }

  /** Events of given types. */
  ofType<T extends ArenaEvent['type']>(...types: T[]): Observable<Extract<ArenaEvent, { type: T }>> {
    return this.events$.pipe(ofType(...types));
  }

  /** Ends the stream for all subscribers. */
  complete(): void {
    this.subject.complete();
  }
}

/** RxJS operator: keep events of the given types. */
export function ofType<T extends ArenaEvent['type']>(...types: T[]): OperatorFunction<ArenaEvent, Extract<ArenaEvent, { type: T }>> {
  const set = new Set<string>(types);
  return filter((e): e is Extract<ArenaEvent, { type: T }> => set.has(e.type));
}
