import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '../../app/catalog';
import { EventBus } from '../../src/bus/event-bus';
import { Store } from '../../src/store/store';
import { parseLeagueConfig } from '../../league/config';
import { runLeague } from '../../league/league-run';
import { pickSeats } from '../../league/seat-picker';
import { RatingBook } from '../../league/rating-book';
import { HeadToHead } from '../../league/matchmaking/head-to-head';
import { Rng } from '../../src/core/rng';

function config(budget: number) {
  return parseLeagueConfig({
    name: 'learn',
    env: 'deal-or-no-deal-v1',
    params: { protocol: 'openspiel' },
    seed: 3,
    players: [
      { id: 'random', agent: 'random' },
      { id: 'greedy', agent: 'greedy' },
    ],
    learners: [{ id: 'neural', roles: ['negotiator'], options: { hidden: [16], epochs: 1 } }],
    training: { every: 5, episodes: 8, snapshotEvery: 2 },
    matchmaking: { mode: 'random' },
    budget: { matches: budget },
  });
}

describe('league learners', () => {
  test('learners play, train on schedule, snapshots join with parents, and a restarted league resumes from the last checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-learn-'));
    const db = join(dir, 'l.db');
    const bus = new EventBus();
    const added: string[] = [];
    bus.ofType('snapshot.added').subscribe((e) => added.push(String(e.data.player)));
    let store = new Store(db);
    await runLeague({ config: config(20), store, registry: createRegistry(), bus, backend: 'cpu' });
    expect(store.trainingMetrics('learn').map((m) => m.iteration)).toEqual([1, 2, 3, 4]);
    const players = store.players('learn');
    expect(players.filter((p) => p.kind === 'snapshot').map((p) => [p.id, p.parent])).toEqual([
      ['neural-v2', 'neural'],
      ['neural-v4', 'neural-v2'],
    ]);
    expect(added).toEqual(['neural-v2', 'neural-v4']);
    expect(players.find((p) => p.id === 'neural')?.kind).toBe('learner');
    expect(store.matches('learn').some((m) => m.seats.some((s) => s.player === 'neural'))).toBe(true);
    expect(existsSync(join(`${db}.learners`, 'learn', 'snapshots', 'neural-v4.json'))).toBe(true);
    store.close();

    store = new Store(db);
    await runLeague({ config: config(30), store, registry: createRegistry(), backend: 'cpu' });
    expect(store.trainingMetrics('learn').map((m) => m.iteration)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(store.players('learn').filter((p) => p.kind === 'snapshot').map((p) => p.parent)).toEqual(['neural', 'neural-v2', 'neural-v4']);
    // a frozen snapshot plays league matches through the neural agent
    expect(store.matches('learn').some((m) => m.idx >= 20 && m.seats.some((s) => s.player.startsWith('neural-v')))).toBe(true);
    store.close();
  });
});

describe('AlphaStar learner types in seat picking', () => {
  test('a main exploiter plays the main learner (or its snapshots); a league exploiter only frozen players', () => {
    const rec = (id: string, kind: 'baseline' | 'snapshot' | 'learner', parent: string | null = null) => ({
      id, kind, agent: id, version: 0, roles: ['negotiator'], parent, checkpoint: null, createdAt: 0,
    });
    const players = [rec('random', 'baseline'), rec('greedy', 'baseline'), rec('main', 'learner'), rec('main-v2', 'snapshot', 'main'), rec('mx', 'learner'), rec('lx', 'learner')];
    const types = new Map([['main', 'main'], ['mx', 'main-exploiter'], ['lx', 'league-exploiter']] as const);
    const seats = [{ role: 'negotiator', team: 'negotiator' }, { role: 'negotiator', team: 'negotiator' }];
    const base = { matchmaking: { mode: 'elo' as const, pfsp: 'hard' as const, p: 2 }, seats, players, book: new RatingBook({ eloK: 32, eloInitial: 1500 }, []), learnerTypes: types };
    const opponents = (focal: string) => {
      const seen = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const h2h = new HeadToHead();
        const ids = pickSeats({ ...base, h2h, rng: Rng.fromSeed(i), focal }).map((p) => p.id);
        seen.add(ids.find((x) => x !== focal)!);
      }
      return [...seen].sort();
    };
    expect(opponents('mx')).toEqual(['main']); // P[mx beats main] = 0.5 > 0.1: plays the main agent
    expect(opponents('lx')).toEqual(['greedy', 'main-v2', 'random']); // frozen players only
  });
});
