import { ConfigError, resolveConfig } from '../../src/train/config';
import { learningRate } from '../../src/train/lr-schedule';
import { parseRoleGroups, RolesError } from '../../src/train/role-groups';
import { parseSchedule, trainsAt } from '../../src/train/schedule';
import { planSeats, sideOf, type PlanContext, type SeatPolicy } from '../../src/train/seat-plan';
import { Rng } from '../../src/core/rng';
import type { Agent } from '../../src/core/agent';

const WEREWOLF_ROLES = [
  { name: 'werewolf', count: 2, team: 'werewolves' },
  { name: 'villager', count: 4, team: 'villagers' },
  { name: 'seer', count: 1, team: 'villagers' },
  { name: 'doctor', count: 1, team: 'villagers' },
];

describe('training config', () => {
  test('defaults depend on the algorithm', () => {
    const ppo = resolveConfig({});
    expect([ppo.algorithm, ppo.epochs, ppo.groupSize, ppo.valueCoef, ppo.lr]).toEqual(['ppo', 4, 1, 0.5, 3e-4]);
    const grpo = resolveConfig({ algorithm: 'grpo' });
    expect([grpo.epochs, grpo.groupSize, grpo.valueCoef]).toEqual([1, 8, 0]);
  });

  test('bad values name the field', () => {
    expect(() => resolveConfig({ lr: -1 })).toThrow(ConfigError);
    expect(() => resolveConfig({ lr: -1 })).toThrow(/lr:/);
    expect(() => resolveConfig({ algorithm: 'dqn' })).toThrow(/algorithm:/);
    expect(() => resolveConfig({ hidden: [0] })).toThrow(/hidden\.0:/);
    expect(() => resolveConfig({ lrr: 1 })).toThrow(/lrr/);
    expect(() => resolveConfig({ algorithm: 'rloo', episodesPerIteration: 10 })).toThrow(/multiple of groupSize \(8\)/);
    expect(() => resolveConfig({ learners: { solver: { entropy: 1 } } })).toThrow(/learners\.solver/);
    expect(() => resolveConfig({ actions: { solver: [[0]] } })).toThrow(/actions/);
  });

  test('per-learner overrides and action ranges are accepted', () => {
    const c = resolveConfig({ learners: { challenger: { entropyCoef: 0.02, lrScale: 0.5 } }, actions: { solver: [[0, 90]] } });
    expect(c.learners.challenger).toEqual({ entropyCoef: 0.02, lrScale: 0.5 });
    expect(c.actions).toEqual({ solver: [[0, 90]] });
    expect(resolveConfig({}).actions).toBe('all');
  });
});

describe('--roles', () => {
  test('roles, teams, shared nets', () => {
    expect(parseRoleGroups(undefined, WEREWOLF_ROLES)).toEqual([['werewolf'], ['villager'], ['seer'], ['doctor']]);
    expect(parseRoleGroups('villagers,werewolf', WEREWOLF_ROLES)).toEqual([['villager', 'seer', 'doctor'], ['werewolf']]);
    expect(parseRoleGroups('seer+doctor,villager', WEREWOLF_ROLES)).toEqual([['seer', 'doctor'], ['villager']]);
    expect(parseRoleGroups('villagers,werewolves', WEREWOLF_ROLES, true)).toEqual([['villager', 'seer', 'doctor', 'werewolf']]);
    const withWitch = [...WEREWOLF_ROLES, { name: 'witch', count: 0, team: 'villagers' }];
    expect(parseRoleGroups('villagers', withWitch)).toEqual([['villager', 'seer', 'doctor', 'witch']]);
    expect(parseRoleGroups('villagers', withWitch, false, new Set(['villager', 'seer', 'doctor', 'werewolf']))).toEqual([['villager', 'seer', 'doctor']]);
  });

  test('unknown and duplicated roles are errors that list what exists', () => {
    expect(() => parseRoleGroups('witch', WEREWOLF_ROLES)).toThrow(RolesError);
    expect(() => parseRoleGroups('witch', WEREWOLF_ROLES)).toThrow(/unknown role or team "witch".*werewolf, villager, seer, doctor; teams: werewolves, villagers/);
    expect(() => parseRoleGroups('villagers,seer', WEREWOLF_ROLES)).toThrow(/role "seer" is in two learners/);
  });
});

describe('schedules and learning rates', () => {
  test('alternate:K', () => {
    const s = parseSchedule('alternate:3');
    expect([0, 1, 2, 3, 5, 6].map((it) => trainsAt(s, 0, 2, it))).toEqual([true, true, true, false, false, true]);
    expect(trainsAt(parseSchedule(undefined), 1, 2, 0)).toBe(true);
    expect(() => parseSchedule('alternate:0')).toThrow(/K must be an integer of at least 1/);
    expect(() => parseSchedule('round-robin')).toThrow(/--schedule/);
  });

  test('warm-up, linear and cosine decay', () => {
    const base = { lr: 1, minLr: 0, warmupIterations: 0, iterations: 11 };
    expect(learningRate({ ...base, kind: 'constant' }, 5)).toBe(1);
    expect(learningRate({ ...base, kind: 'linear' }, 5)).toBeCloseTo(0.5, 12);
    expect(learningRate({ ...base, kind: 'cosine' }, 5)).toBeCloseTo(0.5, 12);
    expect(learningRate({ ...base, kind: 'cosine', minLr: 0.1 }, 10)).toBeCloseTo(0.1, 12);
    expect(learningRate({ ...base, kind: 'linear' }, 10)).toBe(0);
    expect(learningRate({ ...base, kind: 'linear', warmupIterations: 4 }, 1)).toBeCloseTo(0.5, 12);
  });
});

describe('seat plans', () => {
  const seats = [
    { role: 'werewolf', team: 'werewolves' },
    { role: 'seer', team: 'villagers' },
    { role: 'villager', team: 'villagers' },
    { role: 'werewolf', team: 'werewolves' },
    { role: 'villager', team: 'villagers' },
  ];
  const town: SeatPolicy = { id: 'town', roles: ['villager', 'seer'] };
  const agent = (name: string): Agent => ({ name, act: () => 0 });
  const ctx: PlanContext<SeatPolicy> = {
    learnerFor: (role) => (town.roles.includes(role) ? town : undefined),
    training: () => true,
    learnerAgent: (_l, seat, record) => agent(`${record ? 'rec' : 'play'}${seat}`),
    snapshotAgent: () => ({ agent: agent('snap'), label: 'town@3' }),
    fixedAgent: (spec, seat) => agent(`${spec}${seat}`),
    defaultAgent: (seat) => agent(`default${seat}`),
  };

  test('a side is the focus seat\'s team (several teams) or the focus seat alone (one team)', () => {
    expect(sideOf(seats, 2, town)).toEqual([1, 2, 4]);
    const twoNegotiators = [
      { role: 'negotiator', team: 'negotiator' },
      { role: 'negotiator', team: 'negotiator' },
    ];
    expect(sideOf(twoNegotiators, 1, { id: 'n', roles: ['negotiator'] })).toEqual([1]);
  });

  test('self, baselines and checkpoints plans', () => {
    const rng = Rng.fromSeed(1);
    const self = planSeats('self', seats, 0, ctx, rng);
    expect(self.agents.map((a) => a.name)).toEqual(['default0', 'rec1', 'rec2', 'default3', 'rec4']);
    expect([...self.recorded]).toEqual([1, 2, 4]);
    const base = planSeats('baselines', seats, 0, ctx, rng, { opponent: 'rule-based' });
    expect(base.agents.map((a) => a.name)).toEqual(['rule-based0', 'rec1', 'rec2', 'rule-based3', 'rec4']);
    expect(base.label).toBe('rule-based');
    const evalPlan = planSeats('baselines', seats, 1, ctx, rng, { opponent: 'random', only: town, record: false });
    expect(evalPlan.agents.map((a) => a.name)).toEqual(['random0', 'play1', 'play2', 'random3', 'play4']);
    expect(evalPlan.recorded.size).toBe(0);
  });
});
