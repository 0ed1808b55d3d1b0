/**
 * The exact verifier: the solver matching the episode's rules, reduced to a {@link Verdict}.
 */
import type { Rules } from './scoring';
import { solveAllNumbers } from './solver-rational';
import { solveUk } from './solver-uk';
import type { Verdict } from './types';

/** The verdict on (numbers, target) under `rules` (uk: best distance too; others: exact hit only). */
export function verdictFor(rules: Rules, numbers: readonly number[], target: number): Verdict {
  if (rules === 'uk') {
    const s = solveUk(numbers, target);
    return { reachable: s.reachable, value: s.value, distance: s.distance, expression: s.expression, tiles: s.tiles, nodes: s.nodes };
  }
  const s = solveAllNumbers(numbers, target);
  return {
    reachable: s.reachable,
    value: s.reachable ? target : null,
    distance: s.reachable ? 0 : null,
    expression: s.expression,
    tiles: s.reachable ? numbers.length : null,
    nodes: s.nodes,
  };
}
