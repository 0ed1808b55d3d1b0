/**
 * Batches of outcomes folded in one SQLite transaction (docs/scale-out.md, "Batches") with a real
 * league: the same league as folding one match at a time (plans paired between folds from the
 * state each fold left), and a batch whose transaction fails mid-way leaves none of its matches,
 * ratings or plan deletions behind; a rerun then completes the same league.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../../src/bus/event-bus';
import { createRegistry } from '../../../app/catalog';
import { Store } from '../../../src/store/store';
import { parseLeagueConfig } from '../../../league/config';
import { drive } from '../../../league/engine/drive';
import { localPlayer } from '../../../league/engine/local-player';
import type { PlayOutcome } from '../../../league/engine/record-match';
import type { PlanPlayer } from '../../../league/engine/schedule';
import { LeagueSchedule } from '../../../league/league-schedule';
import { runLeague } from '../../../league/league-run';
import { outcome, rpsLeague } from '../scale/helpers';

const tmp = () => mkdtempSync(join(tmpdir(), 'arena-batch-fold-'));

/** Plays up to `size` plans from the head in this process and hands their outcomes back at once (as a worker's batch comes back). */
function batchPlayer(size: number, registry = createRegistry()): PlanPlayer & { batches: number[] } {
  const one = localPlayer({ registry, bus: new EventBus() });
  const batches: number[] = [];
  return {
    batches,
    async play(plans, signal) {
      const out: PlayOutcome[] = [];
      for (const p of plans.slice(0, size)) {
        const o = await one.play([p], signal);
        if (!o) return null;
        out.push(o[0]);
      }
      batches.push(out.length);
      return out;
    },
    folded: async () => {},
    close: async () => {},
  };
}

async function reference(db: string, raw: Record<string, unknown>): Promise<void> {
  const store = new Store(db);
  await runLeague({ config: parseLeagueConfig(raw), store, registry: createRegistry(), bus: new EventBus() });
  store.close();
}

test('a league folded in batches of 4 (window 4) equals the same league folded one match at a time', async () => {
  const dir = tmp();
  const raw = rpsLeague('batched', 22, { window: 4 });
  await reference(join(dir, 'ref.db'), raw);
  const store = new Store(join(dir, 'b.db'));
  const player = batchPlayer(4);
  const schedule = await LeagueSchedule.open({ config: parseLeagueConfig(raw), store, registry: createRegistry(), bus: new EventBus() });
  expect(await drive(schedule, player)).toMatchObject({ played: 22, completed: 22, finished: true });
  schedule.dispose();
  store.close();
  expect(player.batches).toEqual([4, 4, 4, 4, 4, 2]);
  expect(outcome(join(dir, 'b.db'), 'batched')).toEqual(outcome(join(dir, 'ref.db'), 'batched'));
});

test('a batch whose transaction fails at its third match leaves nothing of the batch written; a rerun completes the same league', async () => {
  const dir = tmp();
  const raw = rpsLeague('broken', 12, { window: 4 });
  await reference(join(dir, 'ref.db'), raw);
  const db = join(dir, 'b.db');
  const store = new Store(db);
  const record = store.recordPlannedMatch.bind(store);
  store.recordPlannedMatch = (m, events, ratings, history) => {
    if (m.idx === 6) throw new Error('disk I/O error at match 6');
    record(m, events, ratings, history);
  };
  const schedule = await LeagueSchedule.open({ config: parseLeagueConfig(raw), store, registry: createRegistry(), bus: new EventBus() });
  await expect(drive(schedule, batchPlayer(4))).rejects.toThrow('disk I/O error at match 6');
  schedule.dispose();
  // the batch of matches 4-7 failed at 6: 4 and 5, their ratings and their plans' deletion are rolled back with it
  expect(store.matchCount('broken')).toBe(4);
  expect(store.matches('broken').map((m) => m.idx)).toEqual([0, 1, 2, 3]);
  expect(new Set(store.ratingHistory('broken', 'elo').map((h) => h.matchIdx))).toEqual(new Set([0, 1, 2, 3]));
  expect(store.plans('broken').map((p) => p.idx)).toEqual([4, 5, 6, 7]);
  expect(store.events('broken:4')).toEqual([]);
  store.close();

  const again = new Store(db);
  expect(await runLeague({ config: parseLeagueConfig(raw), store: again, registry: createRegistry(), bus: new EventBus() })).toMatchObject({ played: 8, completed: 12 });
  again.close();
  expect(outcome(db, 'broken')).toEqual(outcome(join(dir, 'ref.db'), 'broken'));
});
