// Rock-paper-scissors, best of N rounds: the complete example env of docs/env-authoring.md.
// A plain CommonJS module with no imports: `arena check ./examples/rock-paper-scissors.js`.
'use strict';

const MOVES = ['rock', 'paper', 'scissors'];
/** 1 when move a beats move b, -1 when b beats a, 0 on a tie. */
const beats = (a, b) => (a === b ? 0 : (a - b + 3) % 3 === 1 ? 1 : -1);

/** @type {import('../src/core/env').EnvDefinition} */
const env = {
  meta: {
    id: 'rock-paper-scissors-v1',
    description: 'Two players throw rock (0), paper (1) or scissors (2) at the same time; best of N rounds.',
    roles: [{ name: 'player', count: 2 }],
    dynamics: 'simultaneous',
    chance: false,
    information: 'imperfect',
    utility: 'zero-sum',
    maxLength: (params) => params.rounds,
    params: {
      rounds: { type: 'integer', min: 1, max: 99, default: 3, description: 'rounds to play' },
    },
  },

  init(params) {
    return { rounds: params.rounds, history: [], score: [0, 0] };
  },

  toAct(state) {
    return state.history.length >= state.rounds ? [] : [0, 1];
  },

  legalActions(state, seat) {
    return (seat === 0 || seat === 1) && state.history.length < state.rounds ? [0, 1, 2] : [];
  },

  step(state, actions) {
    const a = actions[0];
    const b = actions[1];
    const r = beats(a, b);
    const score = [state.score[0] + (r > 0 ? 1 : 0), state.score[1] + (r < 0 ? 1 : 0)];
    const round = state.history.length;
    return {
      state: { rounds: state.rounds, history: [...state.history, [a, b]], score },
      events: [
        {
          type: 'round',
          visibility: 'public',
          data: { round, moves: [MOVES[a], MOVES[b]], winner: r > 0 ? 0 : r < 0 ? 1 : null },
        },
      ],
    };
  },

  isTerminal(state) {
    return state.history.length >= state.rounds;
  },

  returns(state) {
    const d = Math.sign(state.score[0] - state.score[1]);
    return [d, -d];
  },

  outcome(state) {
    if (state.history.length < state.rounds) return '';
    const d = state.score[0] - state.score[1];
    return d > 0 ? 'player0' : d < 0 ? 'player1' : 'draw';
  },

  // Moves are simultaneous and revealed together, so every seat and the public see the same thing.
  observe(state, viewer) {
    return {
      round: state.history.length,
      rounds: state.rounds,
      history: state.history,
      score: state.score,
      you: typeof viewer === 'number' ? viewer : null,
    };
  },

  render(obs) {
    const rows = obs.history.map((m, i) => `round ${i + 1}: ${MOVES[m[0]]} vs ${MOVES[m[1]]}`);
    return [`score ${obs.score[0]}-${obs.score[1]} after ${obs.round}/${obs.rounds} rounds`, ...rows].join('\n');
  },

  // Both moves are revealed together at the end of the step, so action events are public.
  actionVisibility() {
    return 'public';
  },

  summary(state) {
    return { score: state.score, history: state.history.map((m) => m.map((x) => MOVES[x])) };
  },

  // Nothing is private between steps (moves are sealed only within a step), so no variant exists.
  privateVariants() {
    return [];
  },

  encoder: {
    size: 6,
    numActions: 3,
    encode(obs, out = new Float32Array(6)) {
      const last = obs.history[obs.history.length - 1];
      if (last && obs.you !== null) {
        out[last[obs.you]] = 1; // my last move
        out[3 + last[1 - obs.you]] = 1; // their last move
      }
      return out;
    },
    actionIndex: (a) => (a === 0 || a === 1 || a === 2 ? a : -1),
    action: (i) => i,
  },
};

// A scripted agent shipped with the env: always plays what would have beaten the opponent's last move.
const counter = {
  name: 'counter-last',
  description: "plays the move that beats the opponent's previous move",
  envs: ['rock-paper-scissors-v1'],
  create: () => ({
    name: 'counter-last',
    act(obs) {
      const last = obs.history[obs.history.length - 1];
      return last ? (last[1 - obs.you] + 1) % 3 : 0;
    },
  }),
};

module.exports = { env, agents: [counter] };
