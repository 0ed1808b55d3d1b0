/**
 * The payoff experiment's envs: Deal-or-No-Deal competitive (coop 0, one network per arm, two
 * negotiators) and Werewolf `arena` (both teams learning: villagers and wolves). Arm c of each
 * is its example league, examples/leagues/<env>-payoff.json.
 */
import { join, resolve } from 'node:path';
import type { PayoffEnvSpec } from './experiment';

const EXAMPLES = join(resolve(__dirname, '..', '..', '..', '..'), 'examples', 'leagues');

/** Deal-or-No-Deal, coop 0. Held out: greedy with other acceptance thresholds (4, 8) and the omniscient Nash-split negotiator. */
export const DOND: PayoffEnvSpec = {
  key: 'dond',
  title: 'Deal-or-No-Deal (coop 0)',
  example: join(EXAMPLES, 'deal-or-no-deal-payoff.json'),
  mains: ['main'],
  scripted: ['greedy', 'fair-split'],
  selfPlay: () => [{ kind: 'self', weight: 1 }],
  exploitOptions: { hidden: [64, 64], lr: 0.001, entropyCoef: 0.01, rewardScale: 0.1, actions: { negotiator: [[0, 120]] } },
  panel: [
    { name: 'greedy t4', refs: ['greedy:{"threshold":4}'] },
    { name: 'greedy t8', refs: ['greedy:{"threshold":8}'] },
    { name: 'nash-oracle', refs: ['nash-oracle'] },
  ],
};

/** Werewolf `arena`, villagers and wolves learning. Held out: rule-based with a quarter of random moves, and random. */
export const WEREWOLF: PayoffEnvSpec = {
  key: 'werewolf',
  title: 'Werewolf (arena, both teams learning)',
  example: join(EXAMPLES, 'werewolf-payoff.json'),
  mains: ['villagers', 'wolves'],
  scripted: ['rule-based'],
  selfPlay: (main) => [{ kind: 'learner', of: main === 'villagers' ? 'wolves' : 'villagers', weight: 1 }],
  exploitOptions: { hidden: [64, 64], lr: 0.001 },
  panel: [
    { name: 'rule-based eps0.25', refs: ['rule-based:{"epsilon":0.25}'] },
    { name: 'random', refs: ['random'] },
  ],
};

export const PAYOFF_SPECS: Record<string, PayoffEnvSpec> = { dond: DOND, werewolf: WEREWOLF };
