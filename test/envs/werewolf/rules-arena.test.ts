import { ACCUSE, BID, NONE, SILENT, T, askedTo, game, next, play, publicLog } from './helpers';

// seats 0,1 werewolves; 2 seer; 3 doctor; 4..7 villagers
const ROLES = ['werewolf', 'werewolf', 'seer', 'doctor', 'villager', 'villager', 'villager', 'villager'];

describe('arena preset (Werewolf Arena rules)', () => {
  const { env, init } = game({ preset: 'arena', roles: ROLES, debateTurns: 0 });

  test('starts at night; every living player is asked (villagers sleep), one random wolf kills', () => {
    const s = init(1);
    expect(s.pub.phase).toBe('night');
    expect(env.toAct(s)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const killer = askedTo(env, s, 'kill');
    expect([0, 1]).toContain(killer);
    expect(env.observe(s, 1 - killer).ask).toBe('sleep');
    expect(env.observe(s, 2).ask).toBe('check');
    expect(env.observe(s, 3).ask).toBe('protect');
    expect(env.observe(s, 5).ask).toBe('sleep');
    expect(env.legalActions!(s, 5)).toEqual([NONE]);
    // the wolf picks among living non-wolves; the doctor may protect itself; the seer anyone but itself
    expect(env.legalActions!(s, killer)).toEqual([T(2), T(3), T(4), T(5), T(6), T(7)]);
    expect(env.legalActions!(s, 3)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(T));
    expect(env.legalActions!(s, 2)).toEqual([0, 1, 3, 4, 5, 6, 7].map(T));
    // over many seeds both wolves get to choose
    const killers = new Set(Array.from({ length: 40 }, (_, k) => askedTo(env, init(k), 'kill')));
    expect([...killers].sort()).toEqual([0, 1]);
  });

  test('doctor save: the protected victim survives and nobody is announced dead', () => {
    const s = init(1);
    const killer = askedTo(env, s, 'kill');
    const r = play(env, s, { [killer]: T(4), 3: T(4), 2: T(0) });
    const dawn = publicLog(r.state).find((e) => e.type === 'dawn');
    expect(dawn).toEqual({ type: 'dawn', round: 1, dead: [] });
    expect(r.state.pub.alive).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(r.state.pub.phase).toBe('vote');
    // the wolves' choice is shared with the wolf team only
    expect(r.events.find((e) => e.type === 'kill')).toMatchObject({ visibility: { team: 'werewolves' }, data: { by: killer, target: 4 } });
    expect(env.observe(r.state, 1 - killer).teamLog).toEqual([{ type: 'kill', round: 1, by: killer, target: 4 }]);
    expect(env.observe(r.state, 4).teamLog).toBeNull();
  });

  test('an unprotected victim dies; the seer privately learns the exact role', () => {
    const s = init(2);
    const killer = askedTo(env, s, 'kill');
    const r = play(env, s, { [killer]: T(4), 3: T(5), 2: T(3) });
    expect(publicLog(r.state).find((e) => e.type === 'dawn')).toEqual({ type: 'dawn', round: 1, dead: [4] });
    expect(r.state.pub.alive).toEqual([1, 1, 1, 1, 0, 1, 1, 1]);
    expect(env.observe(r.state, 2).private).toEqual([{ type: 'check', round: 1, target: 3, result: 'doctor' }]);
    expect(r.events.find((e) => e.type === 'check')).toMatchObject({ visibility: { seat: 2 } });
    for (const v of [0, 1, 3, 5, 6, 7]) expect(env.observe(r.state, v).private.filter((e) => e.type === 'check')).toEqual([]);
    const pub = env.observe(r.state, 'public');
    expect(JSON.stringify(pub)).not.toMatch(/"result"/);
    // a fixed deal (the roles param) is hidden: the public rules do not carry it
    expect(pub.rules).not.toHaveProperty('roles');
    expect(pub.roles).toBeNull();
  });

  test('the seer never checks itself or a player it checked before', () => {
    let s = init(3);
    s = next(env, s, { [askedTo(env, s, 'kill')]: T(4), 3: T(4), 2: T(0) });
    // vote: nobody reaches a majority (everyone votes for the next seat)
    s = next(env, s, Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7].map((v) => [v, T((v + 1) % 8)])));
    expect(publicLog(s).filter((e) => e.type === 'exile')).toEqual([{ type: 'exile', round: 1, seat: null }]);
    expect(s.pub.phase).toBe('night');
    expect(s.pub.round).toBe(2);
    expect(env.legalActions!(s, 2)).toEqual([1, 3, 4, 5, 6, 7].map(T));
  });

  test('votes: a living player other than oneself, no abstaining; strict majority of the living exiles', () => {
    let s = init(4);
    s = next(env, s, { [askedTo(env, s, 'kill')]: T(7), 3: T(6), 2: T(0) });
    expect(s.pub.alive.reduce((a, b) => a + b)).toBe(7);
    expect(env.legalActions!(s, 0)).toEqual([1, 2, 3, 4, 5, 6].map(T));
    expect(env.validateAction(s, 0, T(0)).ok).toBe(false);
    expect(env.validateAction(s, 0, NONE).ok).toBe(false);
    // 3 of 7 living (not more than half): nobody is exiled, votes stay secret
    const tied = next(env, s, { 0: T(5), 1: T(5), 2: T(5), 3: T(4), 4: T(3), 5: T(4), 6: T(4) });
    expect(publicLog(tied).filter((e) => e.type === 'exile')).toEqual([{ type: 'exile', round: 1, seat: null }]);
    expect(publicLog(tied).some((e) => e.type === 'votes' || e.type === 'vote')).toBe(false);
    expect(env.observe(tied, 0).private).toEqual([{ type: 'vote', round: 1, target: 5 }]);
    // 4 of 7: exiled
    const major = next(env, s, { 0: T(5), 1: T(5), 2: T(5), 3: T(5), 4: T(3), 5: T(4), 6: T(4) });
    expect(publicLog(major).filter((e) => e.type === 'exile')).toEqual([{ type: 'exile', round: 1, seat: 5 }]);
    expect(major.pub.alive[5]).toBe(0);
    expect(env.actionVisibility(s, 0, T(5))).toEqual({ seat: 0 });
  });

  test('werewolves win at parity after a night; returns +1 to wolves and -1 to villagers', () => {
    const g = game({ preset: 'arena', roles: ['werewolf', 'villager', 'villager', 'seer'], debateTurns: 0 });
    let s = g.init(1);
    s = next(g.env, s, { 0: T(1), 3: T(2) });
    expect(s.pub.alive).toEqual([1, 0, 1, 1]);
    expect(g.env.isTerminal(s)).toBe(false);
    // vote: no majority (1 of 3 each)
    s = next(g.env, s, { 0: T(2), 2: T(3), 3: T(0) });
    s = next(g.env, s, { 0: T(2), 3: T(0) });
    expect(g.env.isTerminal(s)).toBe(true);
    expect(g.env.outcome(s)).toBe('werewolves');
    expect(g.env.returns(s)).toEqual([1, -1, -1, -1]);
    expect(s.pub.roles).toEqual(['werewolf', 'villager', 'villager', 'seer']);
    expect(g.env.toAct(s)).toEqual([]);
  });

  test('the round cap (our addition: Werewolf Arena has none) ends the game in a draw', () => {
    const g = game({ preset: 'arena', roles: ROLES, debateTurns: 0, maxRounds: 2 });
    let s = g.init(6);
    for (let round = 1; round <= 2; round++) {
      s = next(g.env, s, { [askedTo(g.env, s, 'kill')]: T(5), 3: T(5), 2: T(round + 3) });
      s = next(g.env, s, Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7].map((v) => [v, T((v + 1) % 8)])));
    }
    expect(g.env.isTerminal(s)).toBe(true);
    expect(g.env.outcome(s)).toBe('draw');
    expect(g.env.returns(s)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(g.env.aggregate!([g.env.summary(s)])).toMatchObject({ games: 1, winRate: { werewolves: 0, villagers: 0, draw: 1 }, meanRounds: 2 });
  });

  test('villagers win when no werewolf is left (after the day)', () => {
    let s = init(5);
    s = next(env, s, { [askedTo(env, s, 'kill')]: T(4), 3: T(4), 2: T(0) });
    s = next(env, s, { 0: T(1), 1: T(2), 2: T(0), 3: T(0), 4: T(0), 5: T(0), 6: T(0), 7: T(0) });
    expect(s.pub.alive[0]).toBe(0);
    s = next(env, s, { [askedTo(env, s, 'kill')]: T(4), 3: T(4), 2: T(1) });
    s = next(env, s, { 1: T(2), 2: T(1), 3: T(1), 4: T(1), 5: T(1), 6: T(1), 7: T(1) });
    expect(env.outcome(s)).toBe('villagers');
    expect(env.returns(s)).toEqual([-1, -1, 1, 1, 1, 1, 1, 1]);
    expect(env.summary(s)).toMatchObject({ winner: 'villagers', rounds: 2, villagerVotes: 12, villagerVotesOnWolves: 12, survived: { seer: true, doctor: true } });
  });
});

describe('arena bidding debate', () => {
  const { env, init } = game({ preset: 'arena', roles: ROLES, debateTurns: 2 });
  const afterNight = (seed: number) => {
    const s = init(seed);
    return next(env, s, { [askedTo(env, s, 'kill')]: T(4), 3: T(4), 2: T(0) });
  };

  test('everyone bids 0..4; the single highest bidder gets the floor; the last speaker does not bid', () => {
    let s = afterNight(1);
    expect(s.pub.phase).toBe('bid');
    expect(env.toAct(s)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(env.legalActions!(s, 3)).toEqual([BID, BID + 1, BID + 2, BID + 3, BID + 4]);
    const r = play(env, s, { 5: BID + 4, 6: BID + 3 });
    expect(r.events.find((e) => e.type === 'floor')).toMatchObject({ visibility: 'public', data: { seat: 5 } });
    expect(r.events.find((e) => e.type === 'bids')?.visibility).toBe('omniscient');
    expect(env.actionVisibility(s, 5, BID + 4)).toEqual({ seat: 5 });
    s = r.state;
    expect(s.pub.phase).toBe('speak');
    expect(env.toAct(s)).toEqual([5]);
    s = next(env, s, { 5: ACCUSE + 6 });
    expect(publicLog(s).filter((e) => e.type === 'speech')).toEqual([{ type: 'speech', round: 1, seat: 5, act: 'accuse', target: 6 }]);
    expect(s.pub.phase).toBe('bid');
    expect(env.toAct(s)).toEqual([0, 1, 2, 3, 4, 6, 7]);
    s = next(env, s, { 0: BID + 1 });
    s = next(env, s, { 0: SILENT });
    // after debateTurns utterances: the vote
    expect(s.pub.phase).toBe('vote');
    expect(s.pub.lastSpeaker).toBe(0);
  });

  test('top bidders named in the last utterance get double weight in the draw', () => {
    let six = 0;
    const N = 300;
    for (let seed = 0; seed < N; seed++) {
      let s = afterNight(seed);
      s = next(env, s, { 5: BID + 4 });
      s = next(env, s, { 5: ACCUSE + 6 });
      const r = play(env, s, { 6: BID + 4, 7: BID + 4 });
      const floor = r.events.find((e) => e.type === 'floor')!.data.seat;
      expect([6, 7]).toContain(floor);
      if (floor === 6) six++;
    }
    expect(six / N).toBeGreaterThan(0.58);
    expect(six / N).toBeLessThan(0.75);
  });

  test('with equal top bids and nobody named, each candidate is drawn', () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 40; seed++) {
      const r = play(env, afterNight(seed), { 2: BID + 2, 3: BID + 2, 7: BID + 2 });
      seen.add(r.events.find((e) => e.type === 'floor')!.data.seat as number);
    }
    expect([...seen].sort()).toEqual([2, 3, 7]);
  });
});
