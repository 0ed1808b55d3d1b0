import { ACCUSE, NONE, T, game, next } from './helpers';
import { ENCODING_SIZE } from '../../../envs/werewolf/encoder';
import { NUM_ACTIONS, type WerewolfAction } from '../../../envs/werewolf/actions';

describe('werewolf-v1 encoder', () => {
  const { env, init } = game({ preset: 'lspo', roles: ['werewolf', 'villager', 'seer', 'werewolf', 'doctor', 'villager', 'villager'] });
  const enc = env.encoder!;

  test('fixed size, values in [0, 1], fixed action indices', () => {
    expect(enc.size).toBe(ENCODING_SIZE);
    expect(enc.numActions).toBe(NUM_ACTIONS);
    expect(NUM_ACTIONS).toBe(92);
    expect(enc.action(ACCUSE + 3)).toBe(ACCUSE + 3);
    expect(enc.actionIndex({ act: NONE, text: 'x' })).toBe(NONE);
    expect(enc.actionIndex(-3)).toBe(-1);
    let s = init(1);
    for (let i = 0; i < 30 && !env.isTerminal(s); i++) {
      for (const v of [0, 2, 5, 'public' as const]) {
        const x = enc.encode(env.observe(s, v));
        expect(x).toHaveLength(ENCODING_SIZE);
        expect(x.every((y) => Number.isFinite(y) && y >= 0 && y <= 1)).toBe(true);
      }
      const acts: Record<number, WerewolfAction> = {};
      for (const seat of env.toAct(s)) acts[seat] = env.legalActions!(s, seat)![0];
      s = env.step(s, acts).state;
    }
  });

  test("the seer's check and the wolves' teammates show up only in their own encodings", () => {
    let s = init(2);
    s = next(env, s, { 0: T(5), 2: T(3), 4: T(5) });
    s = next(env, s, { 3: T(5) });
    const seer = enc.encode(env.observe(s, 2));
    const villager = enc.encode(env.observe(s, 1));
    const wolf = enc.encode(env.observe(s, 0));
    const knownWolf = (x: Float32Array, p: number) => x[80 + p * 6 + 1];
    expect(knownWolf(seer, 3)).toBe(1);
    expect(knownWolf(villager, 3)).toBe(0);
    expect(knownWolf(wolf, 3)).toBe(1);
    expect(villager.slice(68, 80).every((y) => y === 0)).toBe(true);
    expect(Array.from(wolf.slice(68, 75))).toEqual([1, 0, 0, 1, 0, 0, 0]);
  });
});
