import { PhaseBoundaries, PhaseClock, STALL_FACTOR, ViewStream, releasedView, type Batch, type Released } from '../../src/core/phase-release';
import type { MatchEvent } from '../../src/core/events';
import type { Visibility } from '../../src/core/visibility';
import { visibleTo } from '../../src/bus/view-filter';

const teamOf = (seat: number) => (seat === 0 ? 'wolves' : 'villagers');
let seq = 0;
const base = (time: number, visibility: Visibility = 'public') => ({ matchId: 'm', seq: seq++, time, visibility });
const created = (time: number): MatchEvent => ({ ...base(time, 'omniscient'), type: 'match.created', env: 'e', params: {}, seed: 1, seats: [] });
const started = (time: number, seatsHidden?: boolean): MatchEvent => ({ ...base(time), type: 'match.started', env: 'e', params: {}, agents: ['a'], ...(seatsHidden ? { seatsHidden, seats: 2 } : {}) });
const turn = (time: number, step: number, phase?: string): MatchEvent => ({ ...base(time), type: 'turn', step, toAct: [0], ...(phase !== undefined ? { phase } : {}) });
const action = (time: number, step: number, seat: number, visibility: Visibility = 'public'): MatchEvent => ({ ...base(time, visibility), type: 'action', step, seat, action: 1 });
const ended = (time: number): MatchEvent => ({ ...base(time), type: 'match.ended', returns: [], outcome: 'x', code: 'ok', length: 3, faults: 0 });
const reward = (time: number): MatchEvent => ({ ...base(time), type: 'reward', returns: [] });

/**
 * A hidden-role log: the opening, night 1 (step 0, 98 ms: the slowest phase, so its mean sets the
 * pace), day 1 (steps 1-2, 80 ms), night 2 (step 3, 22 ms), then the end.
 */
function hiddenLog(): MatchEvent[] {
  seq = 0;
  return [
    created(100), // 0
    started(101, true), // 1
    turn(102, 0, 'night 1'), // 2
    action(190, 0, 0, { seat: 0 }), // 3
    turn(200, 1, 'day 1'), // 4
    action(205, 1, 1), // 5
    turn(210, 2, 'day 1'), // 6
    action(250, 2, 0), // 7
    turn(280, 3, 'night 2'), // 8
    action(300, 3, 1, { seat: 1 }), // 9
    reward(301), // 10
    ended(302), // 11
  ];
}
const events = (rs: Released<unknown>[]) => rs.map((r) => r.event!);
const brief = (es: MatchEvent[]) => es.map((e) => [e.type, e.seq, e.time]);

describe('PhaseBoundaries', () => {
  test('the first turn closes the opening; a turn closes the phase only when its label changes; match.ended always closes', () => {
    seq = 0;
    const p = new PhaseBoundaries();
    expect(p.closes(started(0))).toBe(false);
    expect(p.closes(turn(0, 0, 'night 1'))).toBe(true);
    expect(p.closes(action(0, 0, 0))).toBe(false);
    expect(p.closes(turn(0, 1, 'night 1'))).toBe(false);
    expect(p.closes(turn(0, 2, 'day 1'))).toBe(true);
    expect(p.closes(reward(0))).toBe(false);
    expect(p.closes(ended(0))).toBe(true);
  });

  test('turns without a label are one phase (an env without `phase`), opened by the first of them', () => {
    seq = 0;
    const p = new PhaseBoundaries();
    expect(p.closes(turn(0, 0))).toBe(true);
    expect(p.closes(turn(0, 1))).toBe(false);
    expect(p.closes(turn(0, 2, ''))).toBe(false);
    expect(p.closes(turn(0, 3, 'x'))).toBe(true);
  });
});

describe('PhaseClock', () => {
  test('the opening is due when it closes; phase k is due (k-1) + steps × the slowest phase mean so far, never before it closes', () => {
    const log = hiddenLog();
    const clock = new PhaseClock();
    // night 1 (mean 98) is due when it ends; day 1 (2 steps, mean 40) 2 × 98 after it; night 2 (mean 22) 98 after that
    expect(log.map((e) => clock.feed(e))).toEqual([null, null, 102, null, 200, null, null, null, 396, null, null, 494]);
  });

  test('a stalled phase (over STALL_FACTOR × the lower median) is released when it ends and does not slow the phases after it', () => {
    expect(STALL_FACTOR).toBe(3);
    seq = 0;
    const clock = new PhaseClock();
    // a, b: 100 ms; c: 10 s (over 3 × 100): released at its end; d, e paced at 100, not 10 s
    const dues = [turn(0, 0, 'a'), turn(100, 1, 'b'), turn(200, 2, 'c'), turn(10_200, 3, 'd'), turn(10_300, 4, 'e'), ended(10_350)].map((e) => clock.feed(e));
    expect(dues).toEqual([0, 100, 200, 10_200, 10_300, 10_400]);
  });

  test('a stall in the first phase sets the pace only until a typical phase shows it up', () => {
    seq = 0;
    const clock = new PhaseClock();
    const dues = [turn(0, 0, 'a'), turn(10_000, 1, 'b'), turn(10_100, 2, 'c'), turn(10_200, 3, 'd'), ended(10_250)].map((e) => clock.feed(e));
    expect(dues).toEqual([0, 10_000, 10_100, 10_200, 10_300]);
  });

  test('an even number of phases takes the lower median: of two, the slower does not set the pace when it is over 3 × the other', () => {
    seq = 0;
    const clock = new PhaseClock();
    // a: 100 ms (one step); b: 2 steps, 10 ms each. Means 10 and 100: the lower median is 10, so the pace is 10, not 100
    const dues = [turn(0, 0, 'a'), turn(100, 1, 'b'), turn(110, 2, 'b'), ended(120)].map((e) => clock.feed(e));
    expect(dues).toEqual([0, 100, null, 120]);
    // within 3 ×: the slower sets the pace (2 × 25 after b's start: due after the phase really ended)
    seq = 0;
    const near = new PhaseClock();
    expect([turn(0, 0, 'a'), turn(25, 1, 'b'), turn(35, 2, 'b'), ended(45)].map((e) => near.feed(e))).toEqual([0, 25, null, 75]);
  });

  test('a clock set back between two events: the phase is never due before it closes', () => {
    seq = 0;
    const clock = new PhaseClock();
    clock.feed(turn(1000, 0, 'a'));
    expect(clock.feed(turn(900, 1, 'b'))).toBe(1000); // mean -100: pace 0 (no mean within a negative cap): due max(900, 1000 + 0)
    expect(clock.feed(turn(950, 2, 'c'))).toBe(1000);
    expect(clock.feed(turn(5000, 3, 'd'))).toBe(5000); // closes after it would be due: never before it closed
  });
});

describe('ViewStream', () => {
  test('the public view of a hidden-role match: a phase is held, then released whole, stamped with its due time', () => {
    const log = hiddenLog();
    const s = new ViewStream('public', teamOf);
    const got = log.map((e) => {
      const b = s.push(e);
      return b && { items: brief(events(b.items)), through: b.through, delay: b.delay };
    });
    expect(got).toEqual([
      null, // created: not public (the view is undecided until match.started)
      null, // started: the opening phase, held
      { items: [['match.started', 0, 102]], through: 1, delay: 0 }, // night 1 opens: the opening is out
      null, // a private night action
      { items: [['turn', 1, 200]], through: 3, delay: 0 }, // day 1 opens: night 1 (its turn) is out, due when it ended (the slowest phase so far)
      null,
      null,
      null,
      {
        items: [
          ['turn', 2, 396],
          ['action', 3, 396],
          ['turn', 4, 396],
          ['action', 5, 396],
        ],
        through: 7,
        delay: 116,
      }, // night 2 opens: the whole day at one time, 2 steps x 98 ms after night 1, not when it really ended
      null,
      null,
      {
        items: [
          ['turn', 6, 494],
          ['reward', 7, 494],
          ['match.ended', 8, 494],
        ],
        through: 11,
        delay: 192,
      }, // the end releases the last phase and itself
    ]);
    expect(s.last).toBe(8);
    expect(s.phased).toBe(true);
    expect(log[5].time).toBe(205); // the log is untouched
  });

  test('extras (observations) are held with their phase; the one a closing event carries goes out with the closed phase', () => {
    const log = hiddenLog();
    const s = new ViewStream<string>('public', teamOf);
    const out: string[] = [];
    const show = (b: Batch<string> | null) => {
      for (const r of b?.items ?? []) out.push(r.event ? `${r.event.type}@${r.event.time}` : `obs:${r.extra}`);
    };
    show(s.push(log[0]));
    show(s.push(log[1]));
    show(s.push(log[2], 'initial'));
    show(s.push(log[3]));
    show(s.push(log[4], 'after-night'));
    expect(out).toEqual(['match.started@102', 'obs:initial', 'turn@200', 'obs:after-night']);
    show(s.push(log[5]));
    show(s.push(log[6], 'after-step-1'));
    expect(out).toHaveLength(4);
    show(s.push(log[7]));
    show(s.push(log[8], 'after-day'));
    expect(out.slice(4)).toEqual(['turn@396', 'action@396', 'obs:after-step-1', 'turn@396', 'action@396', 'obs:after-day']);
    show(s.push(log[9]));
    show(s.push(log[10], 'last'));
    show(s.push(log[11]));
    expect(out.slice(10)).toEqual(['turn@494', 'obs:last', 'reward@494', 'match.ended@494']);
  });

  test('a match whose seats are not hidden streams the public view at once, exact times', () => {
    seq = 0;
    const log = [created(1), started(2), turn(3, 0, 'night 1'), action(4, 0, 0), turn(5, 1, 'day 1'), ended(6)];
    const s = new ViewStream('public', teamOf);
    expect(s.push(log[0])).toBeNull(); // undecided until match.started
    expect(log.slice(1).map((e) => s.push(e)).map((b) => [brief(events(b!.items)), b!.through, b!.delay])).toEqual([
      [[['match.started', 0, 2]], 1, 0],
      [[['turn', 1, 3]], 2, 0],
      [[['action', 2, 4]], 3, 0],
      [[['turn', 3, 5]], 4, 0],
      [[['match.ended', 4, 6]], 5, 0],
    ]);
    expect(s.phased).toBe(false);
  });

  test('seat and omniscient views of a hidden-role match are exact: a player sees the game as it happens', () => {
    for (const viewer of [0, 1, 'omniscient'] as const) {
      const log = hiddenLog();
      const s = new ViewStream(viewer, teamOf);
      const got = log.flatMap((e) => events(s.push(e)!.items).map((x) => [x.time, e.time]));
      for (const [shown, real] of got) expect(shown).toBe(real);
      expect(s.phased).toBe(false);
    }
    const seat0 = releasedView(hiddenLog(), 0, teamOf).events;
    expect(seat0.map((e) => e.type)).toEqual(['match.started', 'turn', 'action', 'turn', 'action', 'turn', 'action', 'turn', 'reward', 'match.ended']);
  });

  test('a stream that never saw match.started (a server that joined mid-match) holds per phase: timing hidden when in doubt', () => {
    seq = 5;
    const s = new ViewStream('public', teamOf);
    expect(s.phased).toBe(true);
    expect(s.push(turn(10, 2, 'day 1'))).toMatchObject({ items: [], through: 4, delay: 0 });
    expect(s.push(action(20, 2, 1))).toBeNull();
    expect(brief(events(s.push(turn(30, 3, 'night 2'))!.items))).toEqual([
      ['turn', 0, 30],
      ['action', 1, 30],
    ]);
    // before match.started a public stream is undecided, and holds
    const u = new ViewStream('public', teamOf);
    seq = 0;
    expect(u.push(created(1))).toBeNull();
    expect(u.phased).toBe(true);
  });

  test('an exact view sends an extra item before the event it came with', () => {
    const log = hiddenLog();
    const s = new ViewStream<string>(1, teamOf);
    s.push(log[0]);
    s.push(log[1]);
    s.push(log[2], 'initial');
    const out = s.push(log[3], 'after-night')!;
    expect(out.items.map((r) => r.extra ?? r.event!.type)).toEqual(['after-night']); // the seat does not see the night action of seat 0
    expect(s.push(log[4], 'x')!.items.map((r) => r.extra ?? r.event!.type)).toEqual(['x', 'turn']);
  });

  test('what an undecided stream held goes out at once when match.started shows open seats', () => {
    seq = 0;
    const s = new ViewStream<string>('public', teamOf);
    expect(s.push(created(1), 'early')).toBeNull();
    const out = s.push(started(2))!;
    expect(out.items.map((r) => r.extra ?? r.event!.type)).toEqual(['early', 'match.started']);
  });
});

describe('releasedView', () => {
  test('a finished match releases everything; a live one up to the phase in progress, or to what was out (upTo)', () => {
    const log = hiddenLog();
    expect(releasedView(log, 'public', teamOf)).toMatchObject({ through: 11 });
    expect(releasedView(log, 'public', teamOf).events).toHaveLength(9);
    expect(brief(releasedView(log.slice(0, 9), 'public', teamOf).events)).toEqual([
      ['match.started', 0, 102],
      ['turn', 1, 200],
      ['turn', 2, 396],
      ['action', 3, 396],
      ['turn', 4, 396],
      ['action', 5, 396],
    ]);
    expect(releasedView(log.slice(0, 9), 'public', teamOf).through).toBe(7);
    // the day closed but is not due yet on a live server: out through seq 3 only
    expect(releasedView(log.slice(0, 9), 'public', teamOf, 3)).toEqual({ events: releasedView(log.slice(0, 5), 'public', teamOf).events, through: 3 });
    expect(releasedView(log, 'public', teamOf, 0)).toEqual({ events: [], through: -1 });
    expect(releasedView([], 'public', teamOf)).toEqual({ events: [], through: -1 });
    // exact views: upTo cuts at that seq
    expect(releasedView(log, 1, teamOf, 5).events.map((e) => e.type)).toEqual(['match.started', 'turn', 'turn', 'action']);
  });

  test('visibleTo (the public API) is releasedView', () => {
    const log = hiddenLog();
    expect(visibleTo(log, 'public', teamOf)).toEqual(releasedView(log, 'public', teamOf).events);
  });
});
