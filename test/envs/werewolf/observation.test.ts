import { SILENT, ACCUSE, T, NONE, game, next, play, publicLog } from './helpers';
import { MAX_TEXT_LENGTH } from '../../../envs/werewolf/actions';

const ROLES = ['werewolf', 'villager', 'seer', 'werewolf', 'doctor', 'villager', 'villager'];

describe('werewolf-v1 observations and visibility', () => {
  const { env, init } = game({ preset: 'lspo', roles: ROLES });

  test('a seat sees its own role; wolves see their teammates; spectators see no role', () => {
    const s = init(1);
    expect(env.observe(s, 0)).toMatchObject({ seat: 0, role: 'werewolf', team: 'werewolves', wolves: [0, 3], teamLog: [] });
    expect(env.observe(s, 4)).toMatchObject({ seat: 4, role: 'doctor', team: 'villagers', wolves: [], teamLog: null, potions: null });
    expect(env.observe(s, 'public')).toMatchObject({ seat: null, role: null, wolves: [], roles: null, secret: null, ask: null });
    expect(env.observe(s, 'omniscient').roles).toEqual(ROLES);
    expect(env.observe(s, 99).view).toBe('public');
  });

  test('the night asks every living seat, so turn structure reveals no role, in every preset', () => {
    for (const preset of ['arena', 'lspo', 'witch-guard']) {
      const g = game({ preset });
      for (let seed = 0; seed < 5; seed++) {
        const s = g.init(seed);
        expect(g.env.toAct(s)).toEqual(s.pub.alive.map((_, i) => i));
        for (const seat of g.env.toAct(s)) {
          const vis = g.env.actionVisibility(s, seat, g.env.legalActions!(s, seat)![0]);
          expect(vis).not.toBe('public');
          if (s.roles[seat] !== 1) expect(vis).toEqual({ seat });
        }
      }
    }
  });

  test('game over reveals every role to everyone', () => {
    const g = game({ preset: 'arena', roles: ['werewolf', 'villager', 'villager', 'seer'], debateTurns: 0 });
    let s = g.init(1);
    s = next(g.env, s, { 0: T(1), 3: T(2) });
    s = next(g.env, s, { 0: T(2), 2: T(3), 3: T(0) });
    s = next(g.env, s, { 0: T(2), 3: T(0) });
    expect(g.env.observe(s, 'public').public).toMatchObject({ phase: 'over', winner: 'werewolves', roles: ['werewolf', 'villager', 'villager', 'seer'] });
    expect(publicLog(s).pop()).toEqual({ type: 'game-over', round: 2, winner: 'werewolves', roles: ['werewolf', 'villager', 'villager', 'seer'] });
  });

  test('free text alongside a speech act: a public message event, never parsed; only with speech acts', () => {
    let s = init(2);
    s = next(env, s, { 0: T(5), 2: T(1), 4: T(5) });
    expect(env.validateAction(s, 3, { act: T(5), text: 'hi' })).toEqual({ ok: false, reason: expect.stringMatching(/free text is only accepted alongside a speech act/) });
    s = next(env, s, { 3: T(6) });
    expect(s.pub.speaker).toBe(0);
    expect(env.legalActions!(s, 0)!.every((a) => typeof a === 'number')).toBe(true);
    const action = { act: ACCUSE + 2, text: 'P2 is the seer, vote P3! (ignore: accuse 4)' };
    expect(env.validateAction(s, 0, action)).toEqual({ ok: true });
    expect(env.validateAction(s, 0, { act: ACCUSE + 2, text: 'x'.repeat(MAX_TEXT_LENGTH + 1) }).ok).toBe(false);
    expect(env.validateAction(s, 0, { act: ACCUSE + 2, text: 5 }).ok).toBe(false);
    expect(env.validateAction(s, 0, { act: ACCUSE + 2, why: 'x' })).toEqual({ ok: false, reason: 'unknown field "why" in action object (allowed: act, text)' });
    expect(env.validateAction(s, 0, { act: ACCUSE + 0, text: 'me' }).ok).toBe(false);
    expect(env.validateAction(s, 0, { act: SILENT })).toEqual({ ok: true });
    const r = play(env, s, { 0: action });
    expect(r.events.filter((e) => e.type === 'message')).toEqual([{ type: 'message', visibility: 'public', data: { seat: 0, text: action.text } }]);
    expect(publicLog(r.state).pop()).toEqual({ type: 'speech', round: 1, seat: 0, act: 'accuse', target: 2, text: action.text });
    expect(r.state.named).toBe(1 << 2);
    expect(env.encoder!.actionIndex(action)).toBe(ACCUSE + 2);
  });

  test('validateAction answers with reasons and never throws on bad input', () => {
    const s = init(3);
    for (const bad of [null, undefined, -1, 1.5, 1e9, 'x', {}, [], { act: 'x' }, true]) {
      const r = env.validateAction(s, 1, bad);
      expect(r.ok).toBe(false);
    }
    expect(env.validateAction(s, 9, NONE)).toEqual({ ok: false, reason: 'seat 9 is not a seat of this game (0..6)' });
    expect(env.validateAction(s, 1, T(2)).ok).toBe(false);
    expect(env.validateAction(s, 1, NONE)).toEqual({ ok: true });
    expect(env.legalActions!(s, 0.5)).toEqual([]);
  });

  test('render gives text agents the whole picture', () => {
    let s = init(4);
    s = next(env, s, { 0: T(5), 2: T(3), 4: T(5) });
    s = next(env, s, { 3: T(6) });
    const text = env.render(env.observe(s, 2));
    expect(text).toMatch(/You are P2, the seer\./);
    expect(text).toMatch(/Dawn: P6 died in the night\./);
    expect(text).toMatch(/you checked P3: werewolf/);
    expect(env.render(env.observe(s, 3))).toMatch(/the werewolves are P0, P3[\s\S]*P0 proposed to kill P5/);
  });
});
