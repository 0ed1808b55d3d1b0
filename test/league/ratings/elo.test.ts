import { eloExpected, eloUpdate } from '../../../league/ratings/elo';
import { EloBook, pairingKey } from '../../../league/ratings/elo-book';
import { ranksFromScores, ratingKey } from '../../../league/ratings/rated-match';

describe('Elo arithmetic', () => {
  test('expected scores: equal ratings 0.5, a 200-point favourite 0.7597, 400 points 10:1', () => {
    expect(eloExpected(1500, 1500)).toBe(0.5);
    expect(eloExpected(1700, 1500)).toBeCloseTo(0.7597, 4);
    expect(eloExpected(1500, 1700)).toBeCloseTo(0.2403, 4);
    expect(eloExpected(1900, 1500)).toBeCloseTo(10 / 11, 12);
  });

  test('1500 vs 1500, K = 32, a win gives 1516 / 1484; a tie between 1700 and 1500 moves 8.31 points', () => {
    expect(eloUpdate(1500, 1500, 1, 32)).toEqual([1516, 1484]);
    const [a, b] = eloUpdate(1700, 1500, 0.5, 32);
    expect(a).toBeCloseTo(1700 - 8.3117, 3);
    expect(b).toBeCloseTo(1500 + 8.3117, 3);
    // The underdog winning: 1500 beats 1700 -> +24.31.
    expect(eloUpdate(1500, 1700, 1, 32)[0]).toBeCloseTo(1524.3117, 3);
  });
});

describe('EloBook', () => {
  const k = (p: string) => ratingKey('rps-v1', 'player', p);

  test('a two-team match is a plain Elo game; history records time, match id and rating', () => {
    const book = new EloBook({ k: 32 });
    const changes = book.record({ matchId: 'm1', time: 10, env: 'rps-v1', teams: [{ keys: [k('a')], rank: 0 }, { keys: [k('b')], rank: 1 }] });
    expect(changes).toEqual([
      { key: 'rps-v1/player/a', before: 1500, after: 1516 },
      { key: 'rps-v1/player/b', before: 1500, after: 1484 },
    ]);
    book.record({ matchId: 'm2', time: 20, teams: [{ keys: [k('a')], rank: 0 }, { keys: [k('b')], rank: 0 }] });
    const e = eloExpected(1516, 1484);
    expect(book.rating(k('a'))).toBeCloseTo(1516 + 32 * (0.5 - e), 10);
    expect(book.history(k('a')).map((h) => [h.time, h.matchId])).toEqual([
      [10, 'm1'],
      [20, 'm2'],
    ]);
    expect(book.history(k('a'))[0].rating).toBe(1516);
    expect(book.gamesOf(k('a'))).toBe(2);
    expect(book.rating(k('never'))).toBe(1500);
  });

  test('team rating is the mean of seats; every member gets the full team change', () => {
    const book = new EloBook({ k: 32 }, { ratings: { a1: 1600, a2: 1400, b: 1500 }, games: {}, history: {} });
    expect(book.teamRating(['a1', 'a2'])).toBe(1500);
    book.record({ matchId: 'w', time: 1, teams: [{ keys: ['a1', 'a2'], rank: 0 }, { keys: ['b'], rank: 1 }] });
    expect(book.rating('a1')).toBe(1616);
    expect(book.rating('a2')).toBe(1416);
    expect(book.rating('b')).toBe(1484);
  });

  test('a key filling several seats (one snapshot, five villagers) is updated once', () => {
    const book = new EloBook();
    const changes = book.record({ matchId: 'w', time: 1, teams: [{ keys: ['wolf', 'wolf'], rank: 1 }, { keys: ['vil', 'vil', 'vil', 'vil', 'vil'], rank: 0 }] });
    expect(changes.map((c) => [c.key, c.after])).toEqual([
      ['wolf', 1484],
      ['vil', 1516],
    ]);
    expect(book.history('vil')).toHaveLength(1);
  });

  test('three teams: K/(T − 1) per pair; ranks [0, 1, 1] give +16, −8, −8', () => {
    const book = new EloBook({ k: 32 });
    book.record({ matchId: 'x', time: 1, teams: [{ keys: ['a'], rank: 0 }, { keys: ['b'], rank: 1 }, { keys: ['c'], rank: 1 }] });
    expect([book.rating('a'), book.rating('b'), book.rating('c')]).toEqual([1516, 1492, 1492]);
  });

  test('K per env and per role pairing (order of sides does not matter)', () => {
    const book = new EloBook({ k: 32, kByEnv: { 'countdown-v1': 16 }, kByPairing: { [pairingKey('countdown-v1', 'solver', 'challenger')]: 8 } });
    expect(pairingKey('countdown-v1', 'solver', 'challenger')).toBe('countdown-v1:challenger|solver');
    expect(book.kFor('countdown-v1', 'challenger', 'solver')).toBe(8);
    expect(book.kFor('countdown-v1', 'solver', 'challenger')).toBe(8);
    expect(book.kFor('countdown-v1', 'solver', 'solver')).toBe(16);
    expect(book.kFor('other-v1', 'challenger', 'solver')).toBe(32);
    book.record({ matchId: 'c', time: 1, env: 'countdown-v1', teams: [{ keys: ['ch'], rank: 0, side: 'challenger' }, { keys: ['so'], rank: 1, side: 'solver' }] });
    expect(book.rating('ch')).toBe(1504);
  });

  test('snapshot round-trips through JSON and continues identically', () => {
    const a = new EloBook({ k: 24 });
    const m = (id: string, r0: number) => ({ matchId: id, time: 0, teams: [{ keys: ['x'], rank: r0 }, { keys: ['y'], rank: 1 - r0 }] });
    a.record(m('1', 0));
    const b = new EloBook({ k: 24 }, JSON.parse(JSON.stringify(a.toJSON())));
    a.record(m('2', 1));
    b.record(m('2', 1));
    expect(b.toJSON()).toEqual(a.toJSON());
    // x won then lost to the 24-point underdog: y is ahead now.
    expect(a.table().map((r) => r.key)).toEqual(['y', 'x']);
  });

  test('malformed matches and options are rejected naming the field', () => {
    const book = new EloBook();
    expect(() => book.record({ matchId: 'z', time: 0, teams: [{ keys: ['a'], rank: 0 }] })).toThrow('rated match "z": teams must hold at least 2 teams (got 1)');
    expect(() => book.record({ matchId: 'z', time: 0, teams: [{ keys: [], rank: 0 }, { keys: ['b'], rank: 1 }] })).toThrow('teams[0].keys must not be empty');
    expect(() => book.record({ matchId: 'z', time: NaN, teams: [{ keys: ['a'], rank: 0 }, { keys: ['b'], rank: 1 }] })).toThrow('time must be a finite number');
    expect(() => new EloBook({ k: 0 })).toThrow('elo: option "k" must be a positive number (got 0)');
    expect(book.rating('a')).toBe(1500);
  });

  test('ranksFromScores: higher scores rank first, equal scores share a rank', () => {
    expect(ranksFromScores([1, -1, 1])).toEqual([0, 2, 0]);
    expect(ranksFromScores([0.2, 0.7, 0.5])).toEqual([2, 0, 1]);
  });

  test('historyLimit bounds the history per key; 0 keeps none (a league keeps its history in the store)', () => {
    const match = (i: number) => ({ matchId: `m${i}`, time: i, teams: [{ side: 'a', rank: 0, keys: ['a'] }, { side: 'b', rank: 1, keys: ['b'] }] });
    const two = new EloBook({ historyLimit: 2 });
    const none = new EloBook({ historyLimit: 0 });
    for (let i = 0; i < 50; i++) (two.record(match(i)), none.record(match(i)));
    expect(two.history('a').map((h) => h.matchId)).toEqual(['m48', 'm49']);
    expect(none.history('a')).toEqual([]);
    expect(none.rating('a')).toBe(two.rating('a'));
    expect(JSON.stringify(none.toJSON().history)).toBe('{}');
  });
});
