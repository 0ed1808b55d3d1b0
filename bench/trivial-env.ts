import type { EnvDefinition } from '../src/core/env';

interface CountState {
  n: number;
  turn: number;
}

/**
 * The trivial sequential env of the runner benchmark: two players alternately add 1 or 2 to a
 * counter; whoever reaches `target` wins. Cheap by design, so the runner's overhead dominates.
 */
export const countEnv: EnvDefinition<CountState, number, CountState> = {
  meta: {
    id: 'count-to-n-v1',
    roles: [{ name: 'player', count: 2 }],
    dynamics: 'sequential',
    chance: false,
    information: 'perfect',
    utility: 'zero-sum',
    maxLength: 100,
    params: { target: { type: 'integer', min: 1, max: 100, default: 21 } },
  },
  init: (params) => ({ n: 100 - (params.target as number), turn: 0 }),
  toAct: (s) => (s.n >= 100 ? [] : [s.turn]),
  legalActions: (s, seat) => (s.n < 100 && seat === s.turn ? LEGAL : NONE),
  step: (s, actions) => ({ state: { n: s.n + actions[s.turn], turn: 1 - s.turn }, events: [] }),
  isTerminal: (s) => s.n >= 100,
  returns: (s) => (s.n < 100 ? [0, 0] : s.turn === 1 ? [1, -1] : [-1, 1]),
  outcome: (s) => (s.n < 100 ? '' : s.turn === 1 ? 'player0' : 'player1'),
  observe: (s) => s,
};
const LEGAL = [1, 2];
const NONE: number[] = [];
