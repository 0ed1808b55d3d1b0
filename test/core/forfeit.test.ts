/** Forfeit returns: the runner's default and the keep-returns-so-far helper envs use. */
import { defaultForfeitReturns, keepReturnsSoFar } from '../../src/core/forfeit';

describe('forfeit returns', () => {
  test('default: the forfeiter −1, the others the sum of their per-decision rewards (general-sum)', () => {
    const rewards = [
      { seat: 0, value: 1 },
      { seat: 2, value: 0.25 },
      { seat: 0, value: -0.5 },
      { seat: 1, value: 3 },
      // a reward of the effect seat or of a seat outside the match counts for nobody
      { seat: -1, value: 9 },
      { seat: 7, value: 9 },
    ];
    expect(defaultForfeitReturns(3, 1, false, rewards)).toEqual([0.5, -1, 0.25]);
    expect(defaultForfeitReturns(3, 1, false, [])).toEqual([0, -1, 0]);
  });

  test('default, zero-sum: the others share +1; one seat alone gets −1', () => {
    expect(defaultForfeitReturns(3, 0, true, [{ seat: 1, value: 5 }])).toEqual([-1, 0.5, 0.5]);
    expect(defaultForfeitReturns(1, 0, true, [])).toEqual([-1]);
  });

  test('keepReturnsSoFar: every other seat keeps its return so far, the forfeiter −1', () => {
    const f = keepReturnsSoFar((s: { r: number[] }) => s.r);
    expect(f({ r: [1, 0, 0.8] }, 1)).toEqual([1, -1, 0.8]);
    expect(f({ r: [1, 0, 0.8] }, 0)).toEqual([-1, 0, 0.8]);
  });
});
