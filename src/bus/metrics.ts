import type { Subscription } from 'rxjs';
import type { ArenaEvent } from '../core/events';
import type { EventBus } from './event-bus';

/** Running counters over the stream: a projection for progress lines and dashboards. */
export interface BusMetrics {
  matchesStarted: number;
  matchesEnded: number;
  decisions: number;
  faults: number;
  outcomes: Record<string, number>;
}

/** Fresh counters. */
export function emptyMetrics(): BusMetrics {
  return { matchesStarted: 0, matchesEnded: 0, decisions: 0, faults: 0, outcomes: {} };
}

/** Subscribes a counter projection; call `stop()` to detach. */
export function trackMetrics(bus: EventBus): { metrics: BusMetrics; stop(): void } {
  const metrics = emptyMetrics();
  const sub: Subscription = bus.events$.subscribe((e) => countEvent(metrics, e));
  return { metrics, stop: () => sub.unsubscribe() };
}

/** Adds one event to the counters. */
export function countEvent(metrics: BusMetrics, e: ArenaEvent): void {
  switch (e.type) {
    case 'match.started':
      metrics.matchesStarted++;
      break;
    case 'action':
      metrics.decisions++;
      break;
    case 'fault':
      metrics.faults++;
      break;
    case 'match.ended':
      metrics.matchesEnded++;
      metrics.outcomes[e.outcome] = (metrics.outcomes[e.outcome] ?? 0) + 1;
      break;
    default:
      break;
  }
}
