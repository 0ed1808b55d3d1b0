/**
 * The day's vote in detail (issue 20): the exact-half case of the strict-majority rule, the
 * vote statistics of the summary (villagers' votes only, abstentions not counted), the exile
 * log with and without revealOnDeath, the plurality rules' ties, and secret votes.
 */
import { NONE, T, askedTo, game, next, play, publicLog } from './helpers';

// seats 0,1 werewolves; 2 seer; 3 doctor; 4..7 villagers
const ROLES = ['werewolf', 'werewolf', 'seer', 'doctor', 'villager', 'villager', 'villager', 'villager'];

/** Arena rules with these overrides, after a night where the doctor saved the victim: 8 alive, voting. */
function votingDay(params: Record<string, unknown> = {}, seed = 1) {
  const { env, init } = game({ preset: 'arena', roles: ROLES, debateTurns: 0, ...params });
  const s0 = init(seed);
  const s = next(env, s0, { [askedTo(env, s0, 'kill')]: T(4), 3: T(4), 2: T(0) });
  expect(s.pub.phase).toBe('vote');
  expect(s.pub.alive).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  return { env, s };
}
const votes = (targets: (number | null)[]) => Object.fromEntries(targets.map((t, v) => [v, t === null ? NONE : T(t)]));
const exiles = (s: Parameters<typeof publicLog>[0]) => publicLog(s).filter((e) => e.type === 'exile');

describe('strict majority of the living', () => {
  test('exactly half of the living is not a majority: nobody is exiled', () => {
    const { env, s } = votingDay();
    const after = next(env, s, votes([5, 5, 5, 5, 6, 7, 4, 0]));
    expect(exiles(after)).toEqual([{ type: 'exile', round: 1, seat: null }]);
    expect(after.pub.alive).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  test('one vote more than half exiles the player; the log names no role without revealOnDeath', () => {
    const { env, s } = votingDay();
    const after = next(env, s, votes([5, 5, 5, 5, 6, 7, 4, 5]));
    expect(exiles(after)).toEqual([{ type: 'exile', round: 1, seat: 5 }]);
    expect(after.pub.alive).toEqual([1, 1, 1, 1, 1, 0, 1, 1]);
  });

  test('with revealOnDeath the exile log names the role', () => {
    const { env, s } = votingDay({ revealOnDeath: true });
    expect(exiles(next(env, s, votes([5, 5, 5, 5, 6, 7, 4, 5])))).toEqual([{ type: 'exile', round: 1, seat: 5, role: 'villager' }]);
    expect(exiles(next(env, s, votes([1, 0, 1, 1, 1, 1, 0, 0])))).toEqual([{ type: 'exile', round: 1, seat: 1, role: 'werewolf' }]);
  });
});

describe('vote statistics (summary)', () => {
  test("only villagers' votes count, and those on wolves are counted apart", () => {
    const { env, s } = votingDay();
    expect(env.summary(s)).toMatchObject({ villagerVotes: 0, villagerVotesOnWolves: 0 });
    // wolves 0 and 1 vote for a wolf and a villager: not counted; villagers 2 and 3 vote for wolves
    const after = next(env, s, votes([1, 5, 0, 1, 5, 6, 5, 5]));
    expect(env.summary(after)).toMatchObject({ villagerVotes: 6, villagerVotesOnWolves: 2 });
  });

  test('abstentions are not votes; statistics add up over the days', () => {
    const { env, s } = votingDay({ abstain: true });
    const day1 = next(env, s, votes([null, null, 0, null, 1, null, 5, null]));
    expect(env.summary(day1)).toMatchObject({ villagerVotes: 3, villagerVotesOnWolves: 2 });
    expect(exiles(day1)).toEqual([{ type: 'exile', round: 1, seat: null }]);
    const night2 = next(env, day1, { [askedTo(env, day1, 'kill')]: T(6), 3: T(6), 2: T(1) });
    const day2 = next(env, night2, votes([null, null, null, null, null, null, null, 0]));
    expect(env.summary(day2)).toMatchObject({ villagerVotes: 4, villagerVotesOnWolves: 3 });
    // nobody voting adds nothing
    const night3 = next(env, day2, { [askedTo(env, day2, 'kill')]: T(6), 3: T(6), 2: T(3) });
    expect(env.summary(next(env, night3, votes(Array(8).fill(null))))).toMatchObject({ villagerVotes: 4, villagerVotesOnWolves: 3 });
  });
});

describe('plurality rules', () => {
  test('plurality-none: a single top exiles even without a majority; a tie at the top exiles nobody', () => {
    const { env, s } = votingDay({ exile: 'plurality-none' });
    expect(exiles(next(env, s, votes([5, 5, 6, 6, 5, 7, 4, 0])))).toEqual([{ type: 'exile', round: 1, seat: 5 }]);
    expect(exiles(next(env, s, votes([5, 5, 6, 6, 5, 6, 4, 0])))).toEqual([{ type: 'exile', round: 1, seat: null }]);
    expect(exiles(next(env, s, votes([5, 5, 6, 6, 7, 7, 4, 0])))).toEqual([{ type: 'exile', round: 1, seat: null }]);
  });

  test('plurality-random: a single top is exiled; a tie is broken at random among the tied only', () => {
    const single = votingDay({ exile: 'plurality-random' });
    expect(exiles(next(single.env, single.s, votes([5, 5, 6, 6, 5, 7, 4, 0])))).toEqual([{ type: 'exile', round: 1, seat: 5 }]);
    const picked = new Set<number | null>();
    for (let seed = 1; seed <= 30; seed++) {
      const { env, s } = votingDay({ exile: 'plurality-random' }, seed);
      const e = exiles(next(env, s, votes([4, 4, 6, 6, 5, 7, 4, 6])));
      picked.add((e[0] as { seat: number | null }).seat);
    }
    expect([...picked].sort()).toEqual([4, 6]);
  });
});

describe('secret and public votes', () => {
  test('secret simultaneous votes: each voter is told its own vote only; no public record', () => {
    const { env, s } = votingDay({ abstain: true });
    const r = play(env, s, votes([5, null, 5, 5, 6, 7, 4, 0]));
    expect(publicLog(r.state).some((e) => e.type === 'votes' || e.type === 'vote')).toBe(false);
    expect(env.observe(r.state, 0).private.filter((e) => e.type === 'vote')).toEqual([{ type: 'vote', round: 1, target: 5 }]);
    expect(env.observe(r.state, 1).private.filter((e) => e.type === 'vote')).toEqual([{ type: 'vote', round: 1, target: null }]);
    expect(env.observe(r.state, 7).private.filter((e) => e.type === 'vote')).toEqual([{ type: 'vote', round: 1, target: 0 }]);
  });

  test('public simultaneous votes: one record with every vote, null for abstentions', () => {
    const { env, s } = votingDay({ abstain: true, votesPublic: true });
    const r = play(env, s, votes([5, null, 5, 5, 6, 7, 4, 0]));
    expect(publicLog(r.state).filter((e) => e.type === 'votes')).toEqual([{ type: 'votes', round: 1, votes: [5, null, 5, 5, 6, 7, 4, 0] }]);
  });

  test('sequential votes: one public record per voter, in order, then the tally', () => {
    const { env, s } = votingDay({ voting: 'sequential', abstain: true, exile: 'plurality-none' });
    let t = s;
    const order: number[] = [];
    const plan = [5, null, 5, 5, 6, 4, 4, 5];
    while (t.pub.phase === 'vote') {
      const voter = env.toAct(t)[0];
      order.push(voter);
      expect(env.toAct(t)).toHaveLength(1);
      t = next(env, t, { [voter]: plan[voter] === null ? NONE : T(plan[voter]!) });
    }
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(publicLog(t).filter((e) => e.type === 'vote')).toEqual(order.map((seat) => ({ type: 'vote', round: 1, seat, target: plan[seat] })));
    expect(exiles(t)).toEqual([{ type: 'exile', round: 1, seat: 5 }]);
  });
});

describe('after the tally', () => {
  test('exiling the last wolf ends the game at once (no next night)', () => {
    const { env, init } = game({ preset: 'arena', roles: ['werewolf', 'seer', 'doctor', 'villager', 'villager'], debateTurns: 0 });
    const s0 = init(1);
    const s = next(env, s0, { 0: T(3), 2: T(3), 1: T(0) });
    expect(s.pub.phase).toBe('vote');
    const after = next(env, s, votes([1, 0, 0, 0, 0]));
    expect(exiles(after)).toEqual([{ type: 'exile', round: 1, seat: 0 }]);
    expect(env.isTerminal(after)).toBe(true);
    expect(env.summary(after)).toMatchObject({ winner: 'villagers', rounds: 1 });
    expect(after.pub.round).toBe(1);
    expect(env.toAct(after)).toEqual([]);
  });

  test('no exile and no win: the next night starts; at the round cap the game ends', () => {
    const { env, s } = votingDay();
    const after = next(env, s, votes([5, 5, 5, 5, 6, 7, 4, 0]));
    expect(after.pub).toMatchObject({ phase: 'night', round: 2 });
    const capped = votingDay({ maxRounds: 1 });
    const last = next(capped.env, capped.s, votes([5, 5, 5, 5, 6, 7, 4, 0]));
    expect(capped.env.isTerminal(last)).toBe(true);
    expect(capped.env.summary(last)).toMatchObject({ winner: 'draw', rounds: 1 });
  });

  test('each tally counts afresh (nothing left over from an earlier vote)', () => {
    const { env, s } = votingDay({ exile: 'plurality-none' });
    for (let k = 0; k < 3; k++) {
      expect(exiles(next(env, s, votes([6, 6, 6, 6, 6, 6, 4, 6])))).toEqual([{ type: 'exile', round: 1, seat: 6 }]);
      expect(exiles(next(env, s, votes([5, 5, 6, 6, 5, 6, 4, 0])))).toEqual([{ type: 'exile', round: 1, seat: null }]);
    }
  });

  test('sequential votes: the public turn index follows the voters', () => {
    const { env, s } = votingDay({ voting: 'sequential', abstain: true });
    let t = s;
    const turns: number[] = [];
    while (t.pub.phase === 'vote') {
      turns.push(t.pub.turn);
      t = next(env, t, { [env.toAct(t)[0]]: NONE });
    }
    expect(turns).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
