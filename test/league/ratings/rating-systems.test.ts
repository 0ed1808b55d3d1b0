/** The RatingSystem interface, its three implementations and the registry that names them. */
import { RatingBook, ratedMatchOf } from '../../../league/rating-book';
import { bradleyTerryLeaderboard } from '../../../league/ratings/bt-leaderboard';
import { PairCounts } from '../../../league/ratings/pair-counts';
import type { RatedMatch } from '../../../league/ratings/rated-match';
import type { RatingSystem, SavedRating } from '../../../league/ratings/rating-system';
import { defaultOnlineRatingSystem, defaultRatingSystem, onlineRatingSystems, ratingSystem, ratingSystemInfos, ratingSystemNames } from '../../../league/ratings/rating-systems';

const settings = { eloK: 32, eloInitial: 1500, resamples: 100 };
const key = (p: string) => `player\u0000${p}`;
/** A two-sided game: a beats b (or a tie). */
const game = (i: number, a: string, b: string, tie = false): RatedMatch => ({ matchId: `m${i}`, time: i, env: 'x-v1', teams: [{ side: 'player', rank: 0, keys: [key(a)] }, { side: 'player', rank: tie ? 0 : 1, keys: [key(b)] }] });
const games = [game(0, 'a', 'b'), game(1, 'a', 'c'), game(2, 'b', 'c'), game(3, 'a', 'b', true), game(4, 'c', 'b'), game(5, 'a', 'c')];

describe('the registry', () => {
  test('names, the default, the online ones, their descriptions', () => {
    expect(ratingSystemNames()).toEqual(['bt', 'elo', 'openskill']);
    expect(defaultRatingSystem()).toBe('bt');
    expect(onlineRatingSystems()).toEqual(['elo', 'openskill']);
    expect(defaultOnlineRatingSystem()).toBe('elo');
    const infos = ratingSystemInfos();
    expect(infos.map((i) => i.name)).toEqual(ratingSystemNames());
    for (const i of infos) {
      expect(i.title.length).toBeGreaterThan(0);
      expect(i.note.length).toBeGreaterThan(20);
      // every chart plots an online system's stored history
      expect(onlineRatingSystems()).toContain(i.history.system);
    }
    expect(infos.find((i) => i.name === 'bt')!.rankRanges).toBe(true);
    expect(infos.find((i) => i.name === 'openskill')!.ordinal).toBe('μ − 3σ');
  });

  test('an unknown name is refused with the known ones', () => {
    expect(() => ratingSystem('glicko')).toThrow('unknown rating system "glicko" (known: bt, elo, openskill)');
  });
});

describe.each(ratingSystemNames())('%s implements RatingSystem', (name) => {
  const make = (saved?: SavedRating[]): RatingSystem => ratingSystem(name).create(settings, saved);

  test('update returns the keys it rated; rate, interval and ratings agree; the winner is ahead', () => {
    const s = make();
    expect(s.name).toBe(name);
    expect(s.rate(key('a'))).toBeUndefined();
    expect(s.interval(key('a'))).toBeNull();
    for (const g of games) expect(s.update(g).sort()).toEqual([...new Set(g.teams.flatMap((t) => t.keys))].sort());
    const rows = s.ratings();
    expect(rows.map((r) => r.key).sort()).toEqual([key('a'), key('b'), key('c')]);
    const by = new Map(rows.map((r) => [r.key, r]));
    // a won all its games
    expect(s.rate(key('a'))!).toBeGreaterThan(s.rate(key('c'))!);
    for (const r of rows) {
      const iv = s.interval(r.key);
      if (iv === null) expect(r.lo).toBeUndefined();
      else expect([r.lo, r.hi]).toEqual(iv);
      expect(r.games).toBe(name === 'bt' ? by.get(r.key)!.games : s.state(r.key).games);
    }
    expect(by.get(key('a'))!.games).toBe(4);
  });

  test('serialization: a system restored from its stored rows rates as the original (online systems)', () => {
    if (!ratingSystem(name).online) return;
    const s = make();
    for (const g of games.slice(0, 4)) s.update(g);
    const saved = [key('a'), key('b'), key('c')].map((k) => ({ key: k, value: s.rate(k)!, state: s.state(k) }));
    const restored = make(JSON.parse(JSON.stringify(saved)) as SavedRating[]);
    for (const g of games.slice(4)) {
      s.update(g);
      restored.update(g);
    }
    for (const k of [key('a'), key('b'), key('c')]) {
      expect(restored.rate(k)).toBe(s.rate(k));
      expect(restored.state(k)).toEqual(s.state(k));
    }
  });
});

test('Bradley–Terry: the fit of its updates equals the fit of the same pairwise results counted directly', () => {
  const s = ratingSystem('bt').create(settings);
  const counts = new PairCounts();
  for (const g of games) {
    s.update(g);
    counts.add(g.teams[0].keys[0], g.teams[1].keys[0], g.teams[0].rank < g.teams[1].rank ? 1 : 0.5);
  }
  const table = counts.table();
  const direct = bradleyTerryLeaderboard(table, { resamples: 100, seed: 1, groups: table.ids.map(() => 'player') }).rows;
  expect(s.ratings().map((r) => [r.key, r.rating, r.lo, r.hi, r.rankLo, r.rankHi])).toEqual(direct.map((r) => [r.id, r.rating, r.lo, r.hi, r.rankLo, r.rankHi]));
});

test('RatingBook rates with every online system of the registry, in its order, storing what each system rates', () => {
  const book = new RatingBook(settings, []);
  const sides = [
    { key: 'player', seats: [0], score: 1, rank: 0 },
    { key: 'player', seats: [1], score: 0, rank: 1 },
  ];
  const u = book.record(0, 'm0', 'x-v1', sides, ['a', 'b']);
  expect(u.ratings.map((r) => [r.system, r.player])).toEqual([
    ['elo', 'a'],
    ['elo', 'b'],
    ['openskill', 'a'],
    ['openskill', 'b'],
  ]);
  const elo = ratingSystem('elo').create(settings);
  const os = ratingSystem('openskill').create(settings);
  const m = ratedMatchOf(0, 'm0', 'x-v1', sides, ['a', 'b']);
  elo.update(m);
  os.update(m);
  expect(u.ratings.map((r) => r.value)).toEqual([elo.rate(key('a')), elo.rate(key('b')), os.rate(key('a')), os.rate(key('b'))]);
  expect(u.ratings[2].state).toEqual(os.state(key('a')));
  // a book rebuilt from the stored rows continues from them
  const again = new RatingBook(settings, u.ratings);
  expect(again.eloOf('player', 'a')).toBe(book.eloOf('player', 'a'));
  expect(again.skillOf('player', 'b')).toEqual(book.skillOf('player', 'b'));
});
