import { countEvent, emptyMetrics, type BusMetrics } from '../../src/bus/metrics';
import type { LiveMatch, LiveMatches } from './live-matches';

/**
 * The stream counters of `/api/health` (matches, decisions, faults, outcomes), counted as each
 * match's public view releases its log: a hidden-role match's decisions are counted per phase when
 * the phase is due (src/core/phase-release.ts), so polling the health endpoint times no decision
 * (it counted every action as it happened before). The counts are of the whole log, every
 * visibility, as before; only their timing follows the public view.
 */
export function trackReleasedMetrics(live: LiveMatches): { metrics: BusMetrics; stop(): void } {
  const metrics = emptyMetrics();
  /** Per match, how many of its log's events are counted. */
  const counted = new WeakMap<LiveMatch, number>();
  const stop = live.addListener({
    onMatchEvent() {},
    onPublicRelease(m) {
      let k = counted.get(m) ?? 0;
      for (; k < m.events.length && m.events[k].seq <= m.publicThrough; k++) countEvent(metrics, m.events[k]);
      counted.set(m, k);
    },
  });
  return { metrics, stop };
}
