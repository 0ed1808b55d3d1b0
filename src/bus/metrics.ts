import type { Subscription } from 'rxjs';
import type { EventBus } from './event-bus';

/** Running counters over the stream: a projection for progress lines and dashboards. */
export interface BusMetrics {
  matchesStarted: number;
  matchesEnded: number;
  decisions: number;
  faults: number;
  outcomes: Record<string, number>;
}

/** Subscribes a counter projection; call `stop()` to detach. */
export function trackMetrics(bus: EventBus): { metrics: BusMetrics; stop(): void } {
  const metrics: BusMetrics = { matchesStarted: 0, matchesEnded: 0, decisions: 0, faults: 0, outcomes: {} };
  const sub: Subscription = bus.events$.subscribe((e) => {
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
  });
  return { metrics, stop: () => sub.unsubscribe() };
}
