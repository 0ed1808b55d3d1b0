import { RatingBook } from '../../league/rating-book';

describe('RatingBook (issue 15 item 6)', () => {
  test('keeps ratings but no in-memory history: a league of any length holds constant memory', () => {
    const book = new RatingBook({ eloK: 32, eloInitial: 1500 }, []);
    const sides = [
      { key: 'negotiator', seats: [0], score: 1, rank: 0 },
      { key: 'negotiator', seats: [1], score: 0, rank: 1 },
    ];
    for (let i = 0; i < 1000; i++) {
      const u = book.record(i, `l:${i}`, 'env-v1', sides, i % 2 ? ['a', 'b'] : ['b', 'a']);
      expect(u.history).toHaveLength(4); // the rows the store records
    }
    expect(JSON.stringify(book.elo.toJSON().history)).toBe('{}');
    expect(JSON.stringify(book.skill.toJSON().history)).toBe('{}');
    expect(book.elo.gamesOf('negotiator\u0000a')).toBe(1000);
  });
});
