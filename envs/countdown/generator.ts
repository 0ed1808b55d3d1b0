/**
 * Puzzle generation inside a contract, from the env's seeded Rng.
 *
 * - uk: the television draw — `large` large tiles (0…4; uniform when not given) and the rest
 *   small tiles, drawn without replacement from the bag; target uniform in the target range.
 *   Such a puzzle is not always solvable, exactly as on television.
 * - tinyzero / reasoning-gym: solvable by construction, as reasoning-gym builds its
 *   puzzles: the numbers in random order folded left with random operators (a division only
 *   when exact, otherwise a subtraction), kept when the result is an integer in the target
 *   range; otherwise new numbers are drawn (up to 1000 tries, then a uniform target).
 */
import type { Rng } from '../../src/core/rng';
import type { Contract } from './contract';
import type { Rules } from './scoring';

/** Parts of the puzzle fixed by params. */
export interface PuzzleRequest {
  numbers?: readonly number[];
  target?: number;
  /** UK draw: how many large tiles (clamped to what the count and bag allow). */
  large?: number;
}

const TRIES = 1000;

/** Draws the numbers of a puzzle inside the contract. */
export function drawNumbers(c: Contract, rng: Rng, large?: number): number[] {
  const count = rng.range(c.count[0], c.count[1]);
  if (!c.tiles) return Array.from({ length: count }, () => rng.range(c.values[0], c.values[1]));
  const big = rng.shuffle(c.tiles.filter((t) => t > 10));
  const small = rng.shuffle(c.tiles.filter((t) => t <= 10));
  const maxLarge = Math.min(big.length, count);
  let k = large === undefined ? rng.int(maxLarge + 1) : Math.min(large, maxLarge);
  k = Math.max(k, count - small.length);
  return [...big.slice(0, k), ...small.slice(0, count - k)];
}

/** One left fold of `numbers` (random order, random operators); an integer, possibly negative. */
function randomFold(numbers: readonly number[], rng: Rng): number {
  const order = rng.shuffle(numbers);
  let v = order[0];
  for (let i = 1; i < order.length; i++) {
    const x = order[i];
    switch (rng.int(4)) {
      case 0:
        v += x;
        break;
      case 1:
        v -= x;
        break;
      case 2:
        v *= x;
        break;
      default:
        v = v % x === 0 ? v / x : v - x;
    }
  }
  return v;
}

/** A puzzle inside the contract (params may fix the numbers, the target or both). */
export function generatePuzzle(rules: Rules, c: Contract, rng: Rng, req: PuzzleRequest = {}): { numbers: number[]; target: number } {
  const given = req.numbers ? [...req.numbers] : null;
  let numbers = given ?? drawNumbers(c, rng, req.large);
  if (req.target !== undefined) return { numbers, target: req.target };
  if (rules !== 'uk') {
    for (let tries = 0; tries < TRIES; tries++) {
      const v = randomFold(numbers, rng);
      if (Number.isInteger(v) && v >= c.target[0] && v <= c.target[1]) return { numbers, target: v };
      if (!given) numbers = drawNumbers(c, rng, req.large);
    }
  }
  return { numbers, target: rng.range(c.target[0], c.target[1]) };
}
