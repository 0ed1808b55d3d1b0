import { NUM_ACTIONS } from '../../../envs/werewolf/actions';
import { isLegal, legalFor } from '../../../envs/werewolf/legal';
import { Rng } from '../../../src/core/rng';
import { game } from './helpers';

describe('werewolf-v1 legality', () => {
  test.each([
    ['arena', { preset: 'arena', debateTurns: 3 }],
    ['lspo', { preset: 'lspo' }],
    ['witch-guard', { preset: 'witch-guard' }],
    ['custom', { composition: { werewolf: 2, villager: 2, seer: 1, doctor: 1, witch: 1, guard: 1 }, seerRepeat: false, doctorRepeat: false, doctorSelf: false, guardSelf: false, witchSelfSave: false, witchBothSameNight: false, abstain: false }],
  ])('the fast check used by step agrees with the legal action lists (%s)', (_name, params) => {
    const { env, init } = game(params);
    const rng = Rng.fromSeed(9);
    let checked = 0;
    const mismatches: string[] = [];
    for (let seed = 0; seed < 4; seed++) {
      let s = init(seed);
      while (!env.isTerminal(s)) {
        for (let seat = -1; seat <= s.roles.length; seat++) {
          const legal = legalFor(s, seat);
          for (let a = -1; a <= NUM_ACTIONS; a++) {
            if (isLegal(s, seat, a) !== legal.includes(a)) mismatches.push(`seed ${seed} seat ${seat} action ${a}`);
            checked++;
          }
          if (isLegal(s, seat, 0.5)) mismatches.push(`seed ${seed} seat ${seat} action 0.5`);
        }
        const actions: Record<number, number> = {};
        for (const seat of env.toAct(s)) {
          const legal = legalFor(s, seat);
          actions[seat] = legal[rng.int(legal.length)];
        }
        s = env.step(s, actions).state;
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(10000);
  });

  test('step refuses an illegal or missing action with the reason', () => {
    const { env, init } = game({ preset: 'lspo', roles: ['werewolf', 'villager', 'seer', 'werewolf', 'doctor', 'villager', 'villager'] });
    const s = init(1);
    const all = Object.fromEntries(env.toAct(s).map((x) => [x, legalFor(s, x)[0]]));
    expect(() => env.step(s, { ...all, 1: 3 })).toThrow(/seat 1: target 3 \(3\) is not legal for seat 1 now \(asked to sleep/);
    const { 2: _drop, ...missing } = all;
    expect(() => env.step(s, missing)).toThrow(/seat 2: no action given/);
  });
});
