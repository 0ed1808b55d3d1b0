import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leagueLeaderboardProvider } from '../../app/server/league-leaderboard';
import { Store } from '../../src/store/store';

describe('leagueLeaderboardProvider', () => {
  test('adapts the league leaderboard: BT with intervals by default, Elo on request, kinds from the players', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-lb-'));
    const store = new Store(join(dir, 'a.db'));
    try {
      store.ensureLeague('L', { env: 'rock-paper-scissors-v1' });
      for (const id of ['a', 'b']) store.addPlayer('L', { id, kind: id === 'a' ? 'learner' : 'baseline', agent: 'random', version: 0, roles: ['player'], parent: null, checkpoint: null, createdAt: 0 });
      for (let idx = 0; idx < 12; idx++) {
        const aWins = idx % 3 !== 0;
        store.recordMatch(
          { league: 'L', idx, id: `m${idx}`, env: 'rock-paper-scissors-v1', params: {}, seed: idx, seats: [{ player: 'a', role: 'player', team: 'player' }, { player: 'b', role: 'player', team: 'player' }], returns: aWins ? [1, -1] : [-1, 1], outcome: 'x', code: 'ok', length: 1, faults: [], summary: null, startedAt: idx, endedAt: idx },
          [],
          [
            { system: 'elo', player: 'a', role: 'player', value: 1520, state: {} },
            { system: 'elo', player: 'b', role: 'player', value: 1480, state: {} },
            { system: 'openskill', player: 'a', role: 'player', value: 27 - 3 * 4, state: { mu: 27, sigma: 4 } },
            { system: 'openskill', player: 'b', role: 'player', value: 21 - 3 * 6, state: { mu: 21, sigma: 6 } },
          ],
          [],
        );
      }
      const provider = leagueLeaderboardProvider(store, { resamples: 50 });
      const bt = await provider('L', {});
      expect(bt.map((r) => [r.player, r.role, r.kind])).toEqual([['a', 'player', 'learner'], ['b', 'player', 'baseline']]);
      for (const r of bt) {
        expect(r.lo).toBeLessThanOrEqual(r.rating);
        expect(r.hi).toBeGreaterThanOrEqual(r.rating);
      }
      expect(bt[0].rating).toBeGreaterThan(bt[1].rating);
      const elo = await provider('L', { system: 'elo' });
      expect(elo.map((r) => [r.player, r.rating, r.rank])).toEqual([['a', 1520, 1], ['b', 1480, 2]]);
      expect(await provider('L', { role: 'nobody' })).toEqual([]);
      // BT rows carry bootstrap rank ranges
      for (const r of bt) expect(r.rankLo! <= r.rank || r.rankHi! >= r.rank).toBe(true);
      expect(bt.every((r) => Number.isInteger(r.rankLo) && Number.isInteger(r.rankHi))).toBe(true);
      // OpenSkill: skill mu with its 95% interval, and the ordinal mu - 3 sigma the history plots
      const os = await provider('L', { system: 'openskill' });
      expect(os.map((r) => [r.player, r.rating, r.ordinal, r.rank])).toEqual([['a', 27, 15, 1], ['b', 21, 3, 2]]);
      expect(os[0].lo).toBeCloseTo(27 - 1.96 * 4, 2);
      expect(os[1].hi).toBeCloseTo(21 + 1.96 * 6, 2);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
