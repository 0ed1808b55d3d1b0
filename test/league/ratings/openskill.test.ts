import { ordinal, rate, rating } from 'openskill';
import { OpenSkillBook } from '../../../league/ratings/openskill-book';

describe('OpenSkillBook', () => {
  test('the openskill package loads under jest (its CommonJS build) and a 1v1 matches the package', () => {
    const [[a], [b]] = rate([[rating()], [rating()]]);
    const book = new OpenSkillBook();
    const changes = book.record({ matchId: 'm', time: 5, teams: [{ keys: ['a'], rank: 0 }, { keys: ['b'], rank: 1 }] });
    expect(book.get('a')).toEqual({ mu: a.mu, sigma: a.sigma });
    expect(book.get('b')).toEqual({ mu: b.mu, sigma: b.sigma });
    expect(book.get('a').mu).toBeGreaterThan(25);
    expect(changes[0].ordinalBefore).toBeCloseTo(25 - 3 * (25 / 3), 12);
    expect(book.ordinal('a')).toBeCloseTo(a.mu - 3 * a.sigma, 12);
    expect(book.ordinal('a')).toBeCloseTo(ordinal(a), 12);
    expect(book.history('a')).toEqual([{ time: 5, matchId: 'm', rating: book.ordinal('a'), mu: a.mu, sigma: a.sigma }]);
  });

  test('Werewolf: 2 werewolves vs 5 villagers, team sizes kept; a villager win moves wolves down', () => {
    const book = new OpenSkillBook();
    const wolves = ['w1', 'w2'];
    const villagers = ['v1', 'v2', 'v3', 'seer', 'doctor'];
    book.record({ matchId: 'g1', time: 1, teams: [{ keys: wolves, rank: 1 }, { keys: villagers, rank: 0 }] });
    const expected = rate(
      [wolves.map(() => rating()), villagers.map(() => rating())],
      { rank: [1, 0] },
    );
    expect(book.get('w1')).toEqual(expected[0][0]);
    expect(book.get('seer')).toEqual(expected[1][3]);
    expect(book.get('w1').mu).toBeLessThan(25);
    expect(book.get('v1').mu).toBeGreaterThan(25);
    const p = book.predictWin([wolves, villagers]);
    expect(p[0] + p[1]).toBeCloseTo(1, 12);
    expect(p[1]).toBeGreaterThan(p[0]);
  });

  test('one snapshot filling all villager seats is one key updated once, equal to a per-seat update', () => {
    const book = new OpenSkillBook();
    book.record({ matchId: 'g', time: 1, teams: [{ keys: ['wolf', 'wolf'], rank: 0 }, { keys: ['vil', 'vil', 'vil', 'vil', 'vil'], rank: 1 }] });
    const expected = rate([[rating(), rating()], [rating(), rating(), rating(), rating(), rating()]], { rank: [0, 1] });
    expect(book.get('wolf').mu).toBeCloseTo(expected[0][0].mu, 12);
    expect(book.get('vil').sigma).toBeCloseTo(expected[1][0].sigma, 12);
    expect(book.history('vil')).toHaveLength(1);
    expect(book.gamesOf('vil')).toBe(1);
  });

  test('a tie moves neither mean for equal players; snapshot round-trips; bad model is named', () => {
    const book = new OpenSkillBook({ model: 'bradley-terry-full' });
    book.record({ matchId: 't', time: 1, teams: [{ keys: ['a'], rank: 0 }, { keys: ['b'], rank: 0 }] });
    expect(book.get('a').mu).toBeCloseTo(25, 9);
    expect(book.get('a').sigma).toBeLessThan(25 / 3);
    const copy = new OpenSkillBook({ model: 'bradley-terry-full' }, JSON.parse(JSON.stringify(book.toJSON())));
    expect(copy.toJSON()).toEqual(book.toJSON());
    expect(copy.table().map((r) => r.key)).toEqual(['a', 'b']);
    expect(() => new OpenSkillBook({ model: 'elo' as never })).toThrow('openskill: option "model" must be one of "plackett-luce"');
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) expect(() => new OpenSkillBook({ model: name as never })).toThrow('openskill: option "model" must be one of');
  });
});
