/**
 * The text tournament report's Elo figures: an interval only from a sample that can carry one
 * (the page's rule, docs/numbers.md); below it the estimate says "too few games".
 */
import type { EloEstimate } from '../../league/tournament/statistics';
import { formatElo, MIN_INTERVAL_GAMES } from '../../app/cli/tournament-format';

const estimate = (games: number, elo = 0, lo = 0, hi = 0): EloEstimate => ({ model: 'pentanomial', games, score: 0.5, elo, eloLo: lo, eloHi: hi, los: 0.5 }) as EloEstimate;

test('below the minimum sample: no degenerate "+0 [+0, +0]", the estimate and "too few games"', () => {
  expect(MIN_INTERVAL_GAMES).toBe(10);
  expect(formatElo(estimate(4))).toBe('+0 (too few games)');
  expect(formatElo(estimate(9, -35.4, -80, 10))).toBe('-35 (too few games)');
  expect(formatElo(estimate(0, NaN, NaN, NaN))).toBe('— (too few games)');
});

test('from the minimum sample on: the estimate with its 95% interval, signed, infinities named', () => {
  expect(formatElo(estimate(10, 120.4, 51, 201))).toBe('+120 [+51, +201]');
  expect(formatElo(estimate(400, -3, -20.6, 14.2))).toBe('-3 [-21, +14]');
  expect(formatElo(estimate(12, Infinity, 300, Infinity))).toBe('+inf [+300, +inf]');
});
