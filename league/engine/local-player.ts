import type { EventBus } from '../../src/bus/event-bus';
import type { Registry } from '../../src/core/registry';
import { playPlan } from './play-plan';
import type { PlanPlayer } from './schedule';

/**
 * Plays plans in this process, one at a time (the head), reading files where the plan says they
 * are. An env that throws stops the run with a MatchFailureError (nothing of the match recorded).
 */
export function localPlayer(o: { registry: Registry; bus?: EventBus }): PlanPlayer {
  return {
    async play(plans, signal) {
      const done = await playPlan(plans[0], { registry: o.registry, bus: o.bus, signal, localFile: async (ref) => ref.path });
      return done ? [{ ok: true, ...done }] : null;
    },
    async folded() {},
    async close() {},
  };
}
