import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { teamsFromCreated } from '../../src/bus/view-filter';
import { defaultRegistry, make } from '../../app/catalog';
import type { MatchCreated, MatchEvent } from '../../src/core/events';
import { projectEvents } from '../../src/core/view-stream';
import { runMatch } from '../../src/match/runner';
import { randomAgent } from '../../agents/random';
import { trackLog } from '../../app/server/state-tracker';

async function werewolfLog(seed: number): Promise<MatchEvent[]> {
  const { env, params } = make('werewolf-v1', { preset: 'arena', revealOnDeath: false });
  const bus = new EventBus();
  const rec = new MemoryRecorder(bus);
  const n = env.seats(env.init(params, seed)).length;
  const r = await runMatch({ env, params, seed, agents: Array.from({ length: n }, () => randomAgent.create({ env, params, seed })), bus });
  return rec.events(r.matchId);
}

describe('observations per view', () => {
  test("a step's observation is valid only after the step's last event: the final roles never show before game-over", async () => {
    for (const seed of [3, 4]) {
      const log = await werewolfLog(seed);
      const teamOf = teamsFromCreated(log.find((e): e is MatchCreated => e.type === 'match.created'));
      const tracker = trackLog(log, (id) => defaultRegistry.env(id))!;
      for (const viewer of ['public', 0, 'omniscient'] as const) {
        const events = projectEvents(log, viewer, teamOf);
        const gameOver = events.findIndex((e) => e.type === 'env' && e.name === 'game-over');
        expect(gameOver).toBeGreaterThan(0);
        const points = tracker.history(viewer, log, teamOf);
        const final = points[points.length - 1];
        expect((final.obs as { public: { phase: string } }).public.phase).toBe('over');
        // labelled at (or after) the game-over event in this view's own numbering
        expect(final.seq).toBeGreaterThanOrEqual(gameOver);
        expect(events[final.seq]).toBeDefined();
        // every earlier point is labelled before game-over, and labels never decrease
        for (let i = 1; i < points.length; i++) expect(points[i].seq).toBeGreaterThanOrEqual(points[i - 1].seq);
        expect(points.slice(0, -1).every((p) => (p.obs as { public: { phase: string } }).public.phase !== 'over')).toBe(true);
      }
    }
  });
});
