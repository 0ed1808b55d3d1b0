import { editDistance, nearestName } from '../../src/core/edit-distance';

describe('editDistance (optimal string alignment)', () => {
  test.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['budget', 'budget', 0],
    ['bugdet', 'budget', 1], // one swap of adjacent characters
    ['budgt', 'budget', 1], // one insertion
    ['budgets', 'budget', 1], // one deletion
    ['budgat', 'budget', 1], // one substitution
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3], // OSA: no edit of a swapped pair again (true Damerau would say 2)
    ['ab', 'ba', 1],
  ])('%j -> %j is %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('nearestName', () => {
  const keys = ['name', 'env', 'params', 'seed', 'players', 'budget', 'window', 'paceMs'];
  test('the nearest valid name within the limit, case-insensitive', () => {
    expect(nearestName('bugdet', keys)).toBe('budget');
    expect(nearestName('Budget', keys)).toBe('budget');
    expect(nearestName('player', keys)).toBe('players');
    expect(nearestName('pacems', keys)).toBe('paceMs');
  });
  test('nothing when no name is near: an unrelated word gets no hint', () => {
    expect(nearestName('bogus', keys)).toBeNull();
    expect(nearestName('zzzzzzzz', keys)).toBeNull();
    expect(nearestName('x', [])).toBeNull();
  });
  test('an explicit limit; ties go to the earlier candidate', () => {
    expect(nearestName('sed', keys, 0)).toBeNull();
    expect(nearestName('sed', keys, 1)).toBe('seed');
    expect(nearestName('ab', ['ac', 'ad'], 1)).toBe('ac');
    // equal distance (4): the one sharing the longer prefix
    expect(nearestName('bogus', keys, Infinity)).toBe('budget');
    expect(nearestName('bogus', ['probes', 'budget'], Infinity)).toBe('budget');
    expect(nearestName('pogus', ['budget', 'probes'], Infinity)).toBe('probes');
  });
});
