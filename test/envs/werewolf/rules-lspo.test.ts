import { NONE, SILENT, T, game, next, play, publicLog } from './helpers';

// seats 0 and 3 werewolves; 2 seer; 4 doctor; 1, 5, 6 villagers
const ROLES = ['werewolf', 'villager', 'seer', 'werewolf', 'doctor', 'villager', 'villager'];
const { env, init } = game({ preset: 'lspo', roles: ROLES });

/** Night with the first wolf proposing `proposal`, the last deciding `victim`; seer checks `check`; doctor protects `protect`. */
function night(s: ReturnType<typeof init>, proposal: number, victim: number, check: number, protect: number) {
  const proposer = env.toAct(s).find((x) => env.observe(s, x).ask === 'propose')!;
  s = next(env, s, { [proposer]: T(proposal), 2: T(check), 4: T(protect) });
  const decider = env.toAct(s).find((x) => env.observe(s, x).ask === 'decide')!;
  return next(env, s, { [decider]: T(victim) });
}

/** Everyone speaks (silent) in seat order until the vote. */
function talk(s: ReturnType<typeof init>) {
  while (s.pub.phase === 'speak') s = next(env, s, {});
  return s;
}

describe('lspo preset (latent-space policy optimization environment)', () => {
  test('the first living wolf proposes, the second sees the proposal and decides; the doctor saves', () => {
    let s = init(1);
    expect(env.observe(s, 0).ask).toBe('propose');
    expect(env.observe(s, 3).ask).toBe('sleep');
    const r = play(env, s, { 0: T(5), 2: T(1), 4: T(5) });
    s = r.state;
    expect(r.events.find((e) => e.type === 'proposal')).toMatchObject({ visibility: { team: 'werewolves' }, data: { by: 0, target: 5 } });
    expect(env.observe(s, 3).teamLog).toEqual([{ type: 'proposal', round: 1, by: 0, target: 5 }]);
    expect(env.observe(s, 3).ask).toBe('decide');
    expect(env.observe(s, 0).ask).toBe('sleep');
    expect(env.toAct(s)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // the decider overrides the proposal; the doctor had protected the proposed victim
    s = next(env, s, { 3: T(6) });
    expect(publicLog(s).find((e) => e.type === 'dawn')).toEqual({ type: 'dawn', round: 1, dead: [6] });
    // a decider following the proposal: the doctor's save works
    let t = init(1);
    t = night(t, 5, 5, 1, 5);
    expect(publicLog(t).find((e) => e.type === 'dawn')).toEqual({ type: 'dawn', round: 1, dead: [] });
  });

  test('the seer learns only "werewolf" or "not-werewolf"', () => {
    let s = init(2);
    s = night(s, 5, 5, 3, 5);
    expect(env.observe(s, 2).private).toEqual([{ type: 'check', round: 1, target: 3, result: 'werewolf' }]);
    s = talk(s);
    s = next(env, s, {});
    s = night(s, 5, 5, 4, 5);
    expect(env.observe(s, 2).private[1]).toEqual({ type: 'check', round: 2, target: 4, result: 'not-werewolf' });
  });

  test('with one wolf left it both proposes and decides (the night keeps its two steps)', () => {
    let s = night(init(3), 5, 5, 1, 5);
    s = talk(s);
    s = next(env, s, { 0: T(3), 1: T(3), 2: T(3), 4: T(3) });
    expect(s.pub.alive[3]).toBe(0);
    expect(env.observe(s, 0).ask).toBe('propose');
    s = next(env, s, { 0: T(1), 2: T(5), 4: T(6) });
    expect(env.observe(s, 0).ask).toBe('decide');
    s = next(env, s, { 0: T(5) });
    expect(publicLog(s).filter((e) => e.type === 'dawn').pop()).toEqual({ type: 'dawn', round: 2, dead: [5] });
  });

  test('every living player speaks once in seat order, then all vote at once', () => {
    let s = night(init(4), 6, 6, 1, 5);
    expect(s.pub.order).toEqual([0, 1, 2, 3, 4, 5]);
    const speakers: number[] = [];
    while (s.pub.phase === 'speak') {
      expect(env.toAct(s)).toEqual([s.pub.speaker]);
      speakers.push(s.pub.speaker);
      s = next(env, s, { [s.pub.speaker]: SILENT });
    }
    expect(speakers).toEqual([0, 1, 2, 3, 4, 5]);
    expect(s.pub.phase).toBe('vote');
    expect(env.toAct(s)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(env.legalActions!(s, 2)).toEqual([T(0), T(1), T(3), T(4), T(5), NONE]);
  });

  test('plurality exiles; who voted for whom is public; abstaining allowed', () => {
    let s = talk(night(init(5), 6, 6, 1, 5));
    const r = play(env, s, { 0: T(1), 1: T(3), 2: T(3), 3: T(1), 4: T(3) });
    expect(r.events.find((e) => e.type === 'votes')).toMatchObject({ visibility: 'public', data: { votes: [1, 3, 3, 1, 3, null, null] } });
    expect(publicLog(r.state).filter((e) => e.type === 'exile')).toEqual([{ type: 'exile', round: 1, seat: 3 }]);
    expect(env.actionVisibility(s, 0, T(1))).toBe('public');
    // everyone abstains: nobody is exiled
    s = next(env, s, {});
    expect(publicLog(s).filter((e) => e.type === 'exile')).toEqual([{ type: 'exile', round: 1, seat: null }]);
  });

  test('a plurality tie is broken at random', () => {
    const exiled = new Set<number>();
    for (let seed = 0; seed < 30; seed++) {
      const s = talk(night(init(seed), 6, 6, 1, 5));
      const t = next(env, s, { 0: T(1), 1: T(5), 2: T(5), 3: T(1) });
      const e = publicLog(t).find((x) => x.type === 'exile');
      exiled.add((e as { seat: number }).seat);
    }
    expect([...exiled].sort()).toEqual([1, 5]);
  });

  test('werewolves win only when they outnumber the others (2 vs 2 goes on, 2 vs 1 ends)', () => {
    const g = game({ preset: 'lspo', roles: ['werewolf', 'werewolf', 'villager', 'villager', 'villager'] });
    let s = g.init(1);
    s = next(g.env, s, { 0: T(2) });
    s = next(g.env, s, { 1: T(2) });
    expect(s.pub.alive).toEqual([1, 1, 0, 1, 1]);
    expect(g.env.isTerminal(s)).toBe(false);
    while (s.pub.phase === 'speak') s = next(g.env, s, {});
    s = next(g.env, s, {});
    expect(g.env.isTerminal(s)).toBe(false);
    // the next kill makes it 2 vs 1
    s = next(g.env, s, { 0: T(3) });
    s = next(g.env, s, { 1: T(3) });
    expect(g.env.outcome(s)).toBe('werewolves');
    expect(g.env.returns(s)).toEqual([1, 1, -1, -1, -1]);
    // the 2 vs 2 position under arena's parity rule already ends the game
    const a = game({ preset: 'arena', roles: ['werewolf', 'werewolf', 'villager', 'villager', 'villager'], debateTurns: 0 });
    let u = a.init(1);
    u = next(a.env, u, { [u.actor]: T(2) });
    expect(a.env.outcome(u)).toBe('werewolves');
  });

  test('at round 10 the game ends with a random winner', () => {
    const outcomes = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      let s = init(seed);
      for (let round = 1; round <= 10; round++) {
        expect(s.pub.round).toBe(round);
        s = talk(night(s, 5, 5, 1, 5));
        s = next(env, s, {});
      }
      expect(env.isTerminal(s)).toBe(true);
      expect(s.pub.round).toBe(10);
      expect(s.pub.alive).toEqual([1, 1, 1, 1, 1, 1, 1]);
      outcomes.add(env.outcome(s));
      expect(Math.abs(env.returns(s).reduce((a, b) => a + b))).toBe(3);
    }
    expect([...outcomes].sort()).toEqual(['villagers', 'werewolves']);
  });
});
