import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bestGames, leagueOverview, thin } from '../../league/league-overview';
import { Store, type PlayerRecord } from '../../src/store/store';

const player = (id: string, kind: PlayerRecord['kind'], parent: string | null = null, version = 0): PlayerRecord => ({
  id,
  kind,
  agent: kind === 'baseline' ? id : `neural:${id}`,
  version,
  roles: ['player'],
  parent,
  checkpoint: null,
  createdAt: version,
});

describe('league overview', () => {
  let dir: string;
  let store: Store;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arena-overview-'));
    store = new Store(join(dir, 'a.db'));
    store.ensureLeague('L', { env: 'rock-paper-scissors-v1' });
    for (const p of [player('random', 'baseline'), player('greedy', 'baseline'), player('learner', 'learner'), player('learner-v5', 'snapshot', 'learner', 5), player('learner-v10', 'snapshot', 'learner-v5', 10), player('other-v5', 'snapshot', 'nobody', 5)]) store.addPlayer('L', p);
    // 12 matches: the learner against the baselines, winning more and more; one match without it
    const returnsOf = [[-1, 1], [1, -1], [0, 0], [1, -1], [-1, 1], [1, -1], [1, -1], [0, 0], [1, -1], [1, -1], [1, -1], [-1, 1]];
    returnsOf.forEach((returns, idx) => {
      const opponent = idx === 11 ? 'greedy' : idx % 2 ? 'random' : 'greedy';
      const seats = (idx === 11 ? ['random', 'greedy'] : ['learner', opponent]).map((p) => ({ player: p, role: 'player', team: 'player' }));
      const elo = 1500 + idx * 10;
      store.recordMatch(
        { league: 'L', idx, id: `m${idx}`, env: 'rock-paper-scissors-v1', params: {}, seed: idx, seats, returns, outcome: 'x', code: 'ok', length: 1, faults: [], summary: null, startedAt: idx * 1000, endedAt: idx * 1000 + 500 },
        [],
        [
          { system: 'elo', player: 'learner', role: 'player', value: elo, state: { games: idx + 1 } },
          { system: 'elo', player: 'random', role: 'player', value: 1500 - idx, state: { games: idx } },
          { system: 'elo', player: 'learner-v5', role: 'player', value: 1490, state: { games: 3 } },
        ],
        [
          { system: 'elo', player: 'learner', role: 'player', matchIdx: idx, value: elo, time: idx },
          { system: 'elo', player: 'random', role: 'player', matchIdx: idx, value: 1500 - idx, time: idx },
        ],
      );
    });
    store.recordTraining('L', 1, 'learner', { learners: { player: { meanReturn: { player: 0.1 }, winRate: { random: 0.4 }, games: { random: 10 } } } });
    store.recordTraining('L', 2, 'learner', { learners: { player: { meanReturn: { player: 0.3 }, winRate: { random: 0.6, self: 0.5 }, games: { random: 10 } } } });
  });
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('matches, baselines, the learner: snapshots by lineage, training, Elo against the baselines, best games', () => {
    const o = leagueOverview(store, 'L')!;
    expect(o).toMatchObject({ league: 'L', env: 'rock-paper-scissors-v1', matches: 12, lastMatchAt: 11_500 });
    expect(o.baselines.map((b) => b.id).sort()).toEqual(['greedy', 'random']);
    expect(o.learners).toHaveLength(1);
    const l = o.learners[0];
    expect(l.id).toBe('learner');
    expect(l.games).toEqual({ player: 12 });
    expect(l.snapshots.map((s) => [s.id, s.iteration])).toEqual([['learner-v5', 5], ['learner-v10', 10]]);
    expect(l.snapshots[0].elo).toEqual({ player: 1490 });
    expect(l.iterations).toBe(2);
    expect(l.lastIteration).toMatchObject({ iteration: 2, meanReturn: { player: 0.3 }, winRate: { random: 0.6, self: 0.5 } });
    expect(l.ratings.map((r) => r.side)).toEqual(['player']);
    const series = l.ratings[0].series;
    expect(series.map((s) => [s.player, s.kind])).toEqual([['learner', 'learner'], ['random', 'baseline']]);
    expect(series[0].points.slice(0, 2)).toEqual([[0, 1500], [1, 1510]]);
    expect(series[0].points).toHaveLength(12);
    // best: the highest returns of the learner (1) among its 11 games, newest first; m11 is not its game
    expect(l.best.map((g) => g.id)).toEqual(['m10', 'm9', 'm8', 'm6', 'm5']);
    expect(l.best[0]).toMatchObject({ return: 1, outcome: 'x', opponents: [{ player: 'greedy', seats: 1 }] });
  });

  test('an unknown league is null; series are thinned to the cap, first and last kept', () => {
    expect(leagueOverview(store, 'nope')).toBeNull();
    const o = leagueOverview(store, 'L', { maxPoints: 4, best: 2 })!;
    expect(o.learners[0].ratings[0].series[0].points).toEqual([[0, 1500], [4, 1540], [7, 1570], [11, 1610]]);
    expect(o.learners[0].best).toHaveLength(2);
    expect(thin([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });

  test('best games average a learner holding several seats, and count each opponent once', () => {
    const seats = ['learner', 'learner', 'a', 'a', 'b'].map((p) => ({ player: p, role: 'r', team: 't' }));
    const m = { league: 'L', idx: 0, id: 'x', env: 'e', params: {}, seed: 0, seats, returns: [1, 0, -1, -1, 1], outcome: 'o', code: 'ok', length: 1, faults: [], summary: null, startedAt: 0, endedAt: 1 };
    expect(bestGames([m], 'learner', 3)).toEqual([{ id: 'x', idx: 0, endedAt: 1, outcome: 'o', return: 0.5, opponents: [{ player: 'a', seats: 2 }, { player: 'b', seats: 1 }] }]);
  });
});
