import type { Env, EnvDefinition } from '../../src/core/env';
import { normalizeEnv } from '../../src/core/normalize-env';
import { loadEnv, rps } from '../fixtures/load';

interface CardState {
  cards: number[];
  history: number[];
}

/** The hidden-card fixture with some members replaced (typed for TS tests). */
export function makeHiddenCardTs(members: Partial<EnvDefinition<CardState, number, unknown>>): Env {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { makeHiddenCard } = require('../fixtures/hidden-card.js') as { makeHiddenCard: (o: unknown) => EnvDefinition };
  return normalizeEnv(makeHiddenCard({ id: 'variant-card-v1', members }));
}

export { loadEnv, rps };

interface SeerState {
  seer: number;
  round: number;
  night: boolean;
  checks: number[];
  votes: number[][];
}

/**
 * Three players, one of them a secret seer (or none, in a private variant). Each round has a
 * night step (the seer checks a player; with `everyoneActsAtNight` the others act too, choosing
 * "sleep") and a public day step (everyone votes). Two rounds. With `everyoneActsAtNight: false`
 * the public turn at night names the seer: the view-stream check must catch that.
 */
export function makeSeerEnv(everyoneActsAtNight: boolean): Env {
  const SLEEP = 3;
  const def: EnvDefinition<SeerState, number, unknown> = {
    meta: {
      id: everyoneActsAtNight ? 'quiet-seer-v1' : 'loud-seer-v1',
      roles: [{ name: 'player', count: 3 }],
      dynamics: 'simultaneous',
      chance: true,
      information: 'imperfect',
      utility: 'general-sum',
      maxLength: 4,
      params: {},
    },
    init: (_p, seed) => ({ seer: Math.abs(Number(seed)) % 3, round: 0, night: true, checks: [], votes: [] }),
    toAct: (s) => (s.round >= 2 ? [] : s.night ? (everyoneActsAtNight ? [0, 1, 2] : s.seer >= 0 ? [s.seer] : [0, 1, 2]) : [0, 1, 2]),
    legalActions(s, seat) {
      if (!def.toAct(s).includes(seat)) return [];
      if (s.night) return seat === s.seer ? [0, 1, 2].filter((x) => x !== seat) : [SLEEP];
      return [0, 1, 2];
    },
    step(s, actions) {
      if (s.night) {
        const events = [];
        const checks = [...s.checks];
        if (s.seer >= 0 && actions[s.seer] !== undefined && actions[s.seer] !== SLEEP) {
          checks.push(actions[s.seer]);
          events.push({ type: 'check', visibility: { seat: s.seer }, data: { target: actions[s.seer] } });
        }
        return { state: { ...s, night: false, checks }, events };
      }
      const votes = [0, 1, 2].map((x) => actions[x]);
      return { state: { ...s, night: true, round: s.round + 1, votes: [...s.votes, votes] }, events: [{ type: 'votes', visibility: 'public', data: { votes } }] };
    },
    isTerminal: (s) => s.round >= 2,
    returns: () => [0, 0, 0],
    outcome: (s) => (s.round >= 2 ? 'done' : ''),
    observe: (s, viewer) => ({ round: s.round, night: s.night, votes: s.votes, ...(typeof viewer === 'number' ? { seer: viewer === s.seer, checks: viewer === s.seer ? s.checks : [] } : {}) }),
    privateVariants: (s, seat) => (seat === s.seer && s.round < 2 ? [{ ...s, seer: -1, checks: [] }] : []),
  };
  return normalizeEnv(def);
}
