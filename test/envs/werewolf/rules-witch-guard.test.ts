import { ANTIDOTE, NONE, POISON, T, game, next, play, publicLog } from './helpers';

// seats 0,1 werewolves; 2,3 villagers; 4 seer; 5 witch; 6 guard
const ROLES = ['werewolf', 'werewolf', 'villager', 'villager', 'seer', 'witch', 'guard'];
const { env, init } = game({ preset: 'witch-guard', roles: ROLES });
type S = ReturnType<typeof init>;

/** One night: wolf votes in turn, guard, seer check, then the witch's antidote and poison answers. */
function night(s: S, o: { wolves: number[]; guard?: number; check?: number; antidote?: boolean; poison?: number }): S {
  const living = env.toAct(s).filter((x) => ROLES[x] === 'werewolf');
  const first: Record<number, number> = { [living[0]]: T(o.wolves[0]) };
  if (s.pub.alive[6]) first[6] = T(o.guard ?? (s.lastGuard === 6 ? 5 : 6));
  if (s.pub.alive[4]) first[4] = T(o.check ?? 0);
  s = next(env, s, first);
  s = next(env, s, living[1] !== undefined ? { [living[1]]: T(o.wolves[1]) } : {});
  s = next(env, s, o.antidote ? { 5: ANTIDOTE } : {});
  return next(env, s, o.poison !== undefined ? { 5: POISON + o.poison } : {});
}

/** The day: everyone silent in today's order, then sequential votes from `votes` (pass when absent). */
function day(s: S, votes: Record<number, number> = {}): S {
  while (s.pub.phase === 'speak') s = next(env, s, {});
  while (s.pub.phase === 'vote') {
    const voter = env.toAct(s)[0];
    s = next(env, s, votes[voter] !== undefined ? { [voter]: T(votes[voter]) } : {});
  }
  return s;
}

const lastDawn = (s: S) => publicLog(s).filter((e) => e.type === 'dawn').pop();

describe('witch-guard preset (ChatArena-based Werewolf study)', () => {
  test('night order: wolves vote in turn (the second sees the first), guard and seer, then the witch', () => {
    let s = init(1);
    expect(env.toAct(s)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect([0, 1, 4, 5, 6].map((x) => env.observe(s, x).ask)).toEqual(['wolf-vote', 'sleep', 'check', 'sleep', 'guard']);
    s = next(env, s, { 0: T(2), 6: T(3), 4: T(1) });
    expect(env.observe(s, 1).ask).toBe('wolf-vote');
    expect(env.observe(s, 1).teamLog).toEqual([{ type: 'wolf-vote', round: 1, by: 0, target: 2 }]);
    expect(env.observe(s, 4).private).toEqual([{ type: 'check', round: 1, target: 1, result: 'werewolf' }]);
    s = next(env, s, { 1: T(2) });
    // the witch is told the victim, and asked about the antidote first
    expect(env.observe(s, 5).ask).toBe('antidote');
    expect(env.observe(s, 5).private).toEqual([{ type: 'victim', round: 1, target: 2 }]);
    expect(env.legalActions!(s, 5)).toEqual([ANTIDOTE, NONE]);
    expect(env.observe(s, 2).private).toEqual([]);
    s = next(env, s, {});
    expect(env.observe(s, 5).ask).toBe('poison');
    expect(env.legalActions!(s, 5)).toEqual([NONE, ...[0, 1, 2, 3, 4, 6].map((p) => POISON + p)]);
    s = next(env, s, {});
    expect(lastDawn(s)).toEqual({ type: 'dawn', round: 1, dead: [2] });
  });

  test('a tie between the wolves means no kill', () => {
    const s = night(init(2), { wolves: [2, 3] });
    expect(env.observe(s, 5).private).toEqual([{ type: 'victim', round: 1, target: null }]);
    expect(lastDawn(s)).toEqual({ type: 'dawn', round: 1, dead: [] });
  });

  test('the guard saves its target, may guard itself, but never the same player two nights running', () => {
    let s = night(init(3), { wolves: [2, 2], guard: 2 });
    expect(lastDawn(s)).toEqual({ type: 'dawn', round: 1, dead: [] });
    s = day(s);
    expect(s.pub.phase).toBe('night');
    const legal = env.legalActions!(s, 6);
    expect(legal).not.toContain(T(2));
    expect(legal).toContain(T(6));
    expect(env.validateAction(s, 6, T(2)).ok).toBe(false);
    s = night(s, { wolves: [2, 2], guard: 6 });
    expect(lastDawn(s)).toEqual({ type: 'dawn', round: 2, dead: [2] });
    s = day(s);
    expect(env.legalActions!(s, 6)).toContain(T(3));
    expect(env.legalActions!(s, 6)).not.toContain(T(6));
  });

  test('witch: one antidote for the whole game', () => {
    let s = night(init(4), { wolves: [3, 3], guard: 6, antidote: true });
    expect(lastDawn(s)).toEqual({ type: 'dawn', round: 1, dead: [] });
    expect(env.observe(s, 5).potions).toEqual([0, 1]);
    expect(env.observe(s, 5).private).toEqual([
      { type: 'victim', round: 1, target: 3 },
      { type: 'antidote', round: 1, target: 3 },
    ]);
    expect(env.observe(s, 2).potions).toBeNull();
    s = day(s);
    s = next(env, s, { 0: T(3), 6: T(4), 4: T(1) });
    s = next(env, s, { 1: T(3) });
    expect(env.observe(s, 5).private.at(-1)).toEqual({ type: 'victim', round: 2, target: 3 });
    expect(env.legalActions!(s, 5)).toEqual([NONE]);
    expect(env.validateAction(s, 5, ANTIDOTE).ok).toBe(false);
  });

  test('witch: the poison kills through the guard, once per game; both potions may be used in one night', () => {
    let s = night(init(5), { wolves: [3, 3], guard: 0, antidote: true, poison: 0 });
    expect(lastDawn(s)).toEqual({ type: 'dawn', round: 1, dead: [0] });
    expect(env.observe(s, 5).potions).toEqual([0, 0]);
    s = day(s);
    s = next(env, s, { 1: T(2), 6: T(6), 4: T(3) });
    s = next(env, s, {});
    s = next(env, s, {});
    expect(env.observe(s, 5).ask).toBe('poison');
    expect(env.legalActions!(s, 5)).toEqual([NONE]);
  });

  test('the day: speaking order reshuffled each day, then sequential public votes in that order, passing allowed', () => {
    const orders = new Set<string>();
    for (let seed = 0; seed < 6; seed++) {
      let s = night(init(seed), { wolves: [2, 3] });
      expect([...s.pub.order].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
      orders.add(s.pub.order.join());
      const order = s.pub.order;
      const speakers: number[] = [];
      while (s.pub.phase === 'speak') {
        speakers.push(env.toAct(s)[0]);
        s = next(env, s, {});
      }
      expect(speakers).toEqual(order);
      const voters: number[] = [];
      while (s.pub.phase === 'vote') {
        const voter = env.toAct(s)[0];
        voters.push(voter);
        expect(env.legalActions!(s, voter)).toContain(NONE);
        expect(env.actionVisibility(s, voter, NONE)).toBe('public');
        const r = play(env, s, {});
        expect(r.events.find((e) => e.type === 'vote')).toMatchObject({ visibility: 'public', data: { seat: voter, target: null } });
        s = r.state;
      }
      expect(voters).toEqual(order);
      expect(publicLog(s).filter((e) => e.type === 'exile')).toEqual([{ type: 'exile', round: 1, seat: null }]);
      s = night(s, { wolves: [2, 3] });
      orders.add(s.pub.order.join());
    }
    expect(orders.size).toBeGreaterThan(6);
  });

  test('plurality exiles; any tie exiles nobody', () => {
    const s = night(init(7), { wolves: [2, 3] });
    const tie = day(s, { 0: 2, 1: 2, 2: 0, 3: 0 });
    expect(publicLog(tie).filter((e) => e.type === 'exile')).toEqual([{ type: 'exile', round: 1, seat: null }]);
    const plural = day(s, { 0: 2, 1: 2, 2: 0 });
    expect(publicLog(plural).filter((e) => e.type === 'exile')).toEqual([{ type: 'exile', round: 1, seat: 2 }]);
  });

  test('werewolves win when every plain villager is dead, even with the special roles alive', () => {
    let s = night(init(8), { wolves: [2, 2] });
    s = day(s);
    s = night(s, { wolves: [3, 3] });
    expect(env.isTerminal(s)).toBe(true);
    expect(env.outcome(s)).toBe('werewolves');
    expect(s.pub.alive).toEqual([1, 1, 0, 0, 1, 1, 1]);
    expect(env.returns(s)).toEqual([1, 1, -1, -1, -1, -1, -1]);
    expect(env.summary(s)).toMatchObject({ survived: { seer: true, witch: true, guard: true } });
  });

  test('villagers win when every werewolf is dead', () => {
    let s = night(init(9), { wolves: [2, 3], poison: 0 });
    expect(s.pub.alive[0]).toBe(0);
    s = day(s, { 1: 2, 2: 1, 3: 1, 4: 1 });
    expect(env.outcome(s)).toBe('villagers');
    expect(env.returns(s)).toEqual([-1, -1, 1, 1, 1, 1, 1]);
  });
});
