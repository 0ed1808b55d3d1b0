/** The one loop of scheduled play, with a fake schedule and player: order, stopping, the event-loop turn, hooks, batches folded in one transaction. */
import { drive } from '../../../league/engine/drive';
import type { MatchPlan } from '../../../league/engine/match-plan';
import type { PlayOutcome } from '../../../league/engine/record-match';
import type { PlanPlayer, Schedule } from '../../../league/engine/schedule';

const plan = (idx: number): MatchPlan => ({ league: 'x', idx, matchId: `x:${idx}`, env: 'e', envId: 'e-v1', params: {}, seed: idx, seats: [], deadlineMs: null, faults: 'forfeit', paceMs: 0, files: [] });
const played: PlayOutcome = { ok: true, played: { returns: [], outcome: 'o', code: 'ok', length: 0, faults: [], summary: null, startedAt: 0, endedAt: 0 }, events: [] };

class FakeSchedule implements Schedule<number> {
  readonly name = 'x';
  readonly envId = 'e-v1';
  readonly window: number;
  completed = 0;
  readonly log: string[] = [];
  constructor(
    readonly total: number,
    window = 1,
    private readonly hooks: { start?: boolean; afterFold?: (completed: number) => boolean; due?: (completed: number) => boolean; failAt?: number } = {},
  ) {
    this.window = window;
  }
  async start() {
    this.log.push('start');
    return this.hooks.start ?? true;
  }
  next() {
    this.log.push(`next ${this.completed}`);
    const out: MatchPlan[] = [];
    for (let i = this.completed; i < Math.min(this.total, this.completed + this.window); i++) out.push(plan(i));
    return out;
  }
  fold(p: MatchPlan, o: PlayOutcome) {
    if (p.idx !== this.completed) throw new Error('out of order');
    if (p.idx === this.hooks.failAt) throw new Error(`disk full at ${p.idx}`);
    this.log.push(`fold ${p.idx} ${o.ok ? 'ok' : 'failed'}`);
    return this.completed++;
  }
  transaction<T>(fn: () => T): T {
    this.log.push('begin');
    const r = fn();
    this.log.push('commit');
    return r;
  }
  dueAfterFold() {
    return this.hooks.due?.(this.completed) ?? false;
  }
  async afterFold() {
    this.log.push(`after ${this.completed}`);
    return this.hooks.afterFold?.(this.completed) ?? true;
  }
  dispose() {}
}

/** Answers at once (a synchronous match), or with the outcomes given per index; `batch`: hands back that many outcomes at once (the head and the plans after it). */
function fakePlayer(outcomes: Record<number, PlayOutcome | null> = {}, batch = 1) {
  const log: string[] = [];
  const player: PlanPlayer = {
    play: (plans) => {
      log.push(`play ${plans.map((p) => p.idx).join(',')}`);
      if (plans[0].idx in outcomes && outcomes[plans[0].idx] === null) return Promise.resolve(null);
      return Promise.resolve(plans.slice(0, batch).map((p) => outcomes[p.idx] ?? played));
    },
    folded: async (ps) => {
      log.push(`folded ${ps.map((p) => p.idx).join(',')}`);
    },
    close: async (finished) => {
      log.push(`close ${finished}`);
    },
  };
  return { player, log };
}

test('plays and folds in index order until the schedule is over; the player sees the window and is closed as finished', async () => {
  const s = new FakeSchedule(3, 2);
  const { player, log } = fakePlayer({ 1: { ok: false, reason: 'no worker' } });
  const folds: [number, number][] = [];
  const r = await drive(s, player, { onFold: (f, done) => folds.push([f, done]) });
  expect(r).toEqual({ played: 3, completed: 3, finished: true, interrupted: false });
  expect(s.log.filter((l) => l.startsWith('fold') || l === 'start')).toEqual(['start', 'fold 0 ok', 'fold 1 failed', 'fold 2 ok']);
  expect(log).toEqual(['play 0,1', 'folded 0', 'play 1,2', 'folded 1', 'play 2', 'folded 2', 'close true']);
  expect(folds).toEqual([
    [0, 1],
    [1, 2],
    [2, 3],
  ]);
});

test('maxMatches: stops after that many folds, not finished', async () => {
  const s = new FakeSchedule(10);
  const { player, log } = fakePlayer();
  expect(await drive(s, player, { maxMatches: 4 })).toEqual({ played: 4, completed: 4, finished: false, interrupted: false });
  expect(log[log.length - 1]).toBe('close false');
  // at the end of the schedule it is finished, however large the limit
  expect(await drive(new FakeSchedule(2), fakePlayer().player, { maxMatches: 2 })).toMatchObject({ played: 2, finished: true });
});

test('a signal raised by a timer stops an endless run of synchronous matches (the loop gives the event loop a turn)', async () => {
  // long enough never to end before the timer; without the turn the loop runs to the end and never sees the signal
  const s = new FakeSchedule(300_000);
  const { player } = fakePlayer();
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  const r = await drive(s, player, { signal: ac.signal });
  expect(r.interrupted).toBe(true);
  expect(r.finished).toBe(false);
  expect(r.played).toBeGreaterThan(0);
  expect(r.completed).toBe(r.played);
});

test('an aborted signal before the first match plays nothing', async () => {
  const ac = new AbortController();
  ac.abort();
  const { player, log } = fakePlayer();
  // the first turn may come 20 ms later: the check after it sees the signal either way
  expect(await drive(new FakeSchedule(5), player, { signal: ac.signal })).toMatchObject({ played: 0, interrupted: true });
  expect(log).toEqual(['close false']);
});

test('stopped by the schedule (a training round the signal stopped) or the player (a match aborted): interrupted, nothing more played', async () => {
  const s = new FakeSchedule(10, 1, { afterFold: (done) => done < 2 });
  expect(await drive(s, fakePlayer().player)).toEqual({ played: 2, completed: 2, finished: false, interrupted: true });
  const stoppedAtStart = new FakeSchedule(10, 1, { start: false });
  const p = fakePlayer();
  expect(await drive(stoppedAtStart, p.player)).toEqual({ played: 0, completed: 0, finished: false, interrupted: true });
  expect(p.log).toEqual(['close false']);
  const aborted = fakePlayer({ 1: null });
  expect(await drive(new FakeSchedule(10), aborted.player)).toEqual({ played: 1, completed: 1, finished: false, interrupted: true });
  expect(aborted.log).toEqual(['play 0', 'folded 0', 'play 1', 'close false']);
});

test('an error (an env that throws) closes the player and reaches the caller', async () => {
  const s = new FakeSchedule(3);
  const log: string[] = [];
  const player: PlanPlayer = {
    play: async () => {
      throw new Error('env threw');
    },
    folded: async () => {},
    close: async (finished) => {
      log.push(`close ${finished}`);
    },
  };
  await expect(drive(s, player)).rejects.toThrow('env threw');
  expect(log).toEqual(['close false']);
});

test('a batch of outcomes is folded in ONE transaction, with next() between folds (each plan paired from the state its fold left), the player told once', async () => {
  const s = new FakeSchedule(6, 3);
  const { player, log } = fakePlayer({}, 3);
  const folds: number[] = [];
  const r = await drive(s, player, { onFold: (_f, done) => folds.push(done) });
  expect(r).toEqual({ played: 6, completed: 6, finished: true, interrupted: false });
  expect(s.log).toEqual(['start', 'next 0', 'begin', 'fold 0 ok', 'next 1', 'fold 1 ok', 'next 2', 'fold 2 ok', 'commit', 'after 3', 'next 3', 'begin', 'fold 3 ok', 'next 4', 'fold 4 ok', 'next 5', 'fold 5 ok', 'commit', 'after 6', 'next 6']);
  expect(log).toEqual(['play 0,1,2', 'folded 0,1,2', 'play 3,4,5', 'folded 3,4,5', 'close true']);
  expect(folds).toEqual([1, 2, 3, 4, 5, 6]);
});

test('a batch is cut where a fold makes a training round due: the round runs before the next fold, the rest is asked for again', async () => {
  const s = new FakeSchedule(4, 4, { due: (done) => done === 2 });
  const { player, log } = fakePlayer({}, 4);
  await drive(s, player);
  expect(s.log.filter((l) => /^(fold|after|begin|commit)/.test(l))).toEqual(['begin', 'fold 0 ok', 'fold 1 ok', 'commit', 'after 2', 'begin', 'fold 2 ok', 'fold 3 ok', 'commit', 'after 4']);
  expect(log).toEqual(['play 0,1,2,3', 'folded 0,1', 'play 2,3', 'folded 2,3', 'close true']);
});

test('maxMatches cuts a batch; a fold that throws mid-batch reaches the caller before the player is told of any fold of it', async () => {
  const s = new FakeSchedule(10, 4);
  const p = fakePlayer({}, 4);
  expect(await drive(s, p.player, { maxMatches: 3 })).toMatchObject({ played: 3, completed: 3 });
  expect(p.log).toEqual(['play 0,1,2,3', 'folded 0,1,2', 'close false']);
  const failing = new FakeSchedule(10, 4, { failAt: 2 });
  const q = fakePlayer({}, 4);
  await expect(drive(failing, q.player)).rejects.toThrow('disk full at 2');
  expect(failing.log).not.toContain('commit');
  expect(q.log).toEqual(['play 0,1,2,3', 'close false']);
});
