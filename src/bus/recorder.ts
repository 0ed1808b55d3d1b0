import type { Subscription } from 'rxjs';
import { isMatchEvent, type MatchEvent } from '../core/events';
import type { EventBus } from './event-bus';

/**
 * In-memory recorder: a projection that keeps each match's events in order.
 * (The SQLite recorder in src/store is the persistent twin.)
 */
export class MemoryRecorder {
  private readonly byMatch = new Map<string, MatchEvent[]>();
  private readonly sub: Subscription;

  constructor(bus: EventBus) {
    this.sub = bus.events$.subscribe((e) => {
      if (!isMatchEvent(e)) return;
      let list = this.byMatch.get(e.matchId);
      if (!list) this.byMatch.set(e.matchId, (list = []));
      list.push(e);
    });
  }

  /** Events of one match in publish order (empty when unknown). */
  events(matchId: string): MatchEvent[] {
    return this.byMatch.get(matchId) ?? [];
  }

  matchIds(): string[] {
    return [...this.byMatch.keys()];
  }

  stop(): void {
    this.sub.unsubscribe();
  }
}
