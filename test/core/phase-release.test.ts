import { PhaseBoundaries, ViewStream, releasedView, type Released } from '../../src/core/phase-release';
import type { MatchEvent } from '../../src/core/events';
import type { Visibility } from '../../src/core/visibility';
import { filterForViewer, visibleTo } from '../../src/bus/view-filter';
import { from, lastValueFrom, toArray } from 'rxjs';

const teamOf = (seat: number) => (seat === 0 ? 'wolves' : 'villagers');
let seq = 0;
const base = (time: number, visibility: Visibility = 'public') => ({ matchId: 'm', seq: seq++, time, visibility });
const created = (time: number): MatchEvent => ({ ...base(time, 'omniscient'), type: 'match.created', env: 'e', params: {}, seed: 1, seats: [] });
const started = (time: number, seatsHidden?: boolean): MatchEvent => ({ ...base(time), type: 'match.started', env: 'e', params: {}, agents: ['a'], ...(seatsHidden ? { seatsHidden, seats: 2 } : {}) });
const turn = (time: number, step: number, phase?: string): MatchEvent => ({ ...base(time), type: 'turn', step, toAct: [0], ...(phase !== undefined ? { phase } : {}) });
const action = (time: number, step: number, seat: number, visibility: Visibility = 'public'): MatchEvent => ({ ...base(time, visibility), type: 'action', step, seat, action: 1 });
const ended = (time: number): MatchEvent => ({ ...base(time), type: 'match.ended', returns: [], outcome: 'x', code: 'ok', length: 3, faults: 0 });
const reward = (time: number): MatchEvent => ({ ...base(time), type: 'reward', returns: [] });

/** A hidden-role log: opening, night 1 (steps 0), day 1 (steps 1-2), night 2 (step 3), then the end. */
function hiddenLog(): MatchEvent[] {
  seq = 0;
  return [
    created(100), // 0
    started(101, true), // 1
    turn(102, 0, 'night 1'), // 2
    action(130, 0, 0, { seat: 0 }), // 3
    turn(131, 1, 'day 1'), // 4
    action(140, 1, 1), // 5
    turn(141, 2, 'day 1'), // 6
    action(300, 2, 0), // 7
    turn(301, 3, 'night 2'), // 8
    action(320, 3, 1, { seat: 1 }), // 9
    reward(321), // 10
    ended(322), // 11
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

describe('ViewStream', () => {
  test('the public view of a hidden-role match: a phase is held, then released whole, stamped with its closing time', () => {
    const log = hiddenLog();
    const s = new ViewStream('public', teamOf);
    const got = log.map((e) => brief(events(s.push(e))));
    expect(got).toEqual([
      [], // created: not public
      [], // started: the opening phase, held
      [['match.started', 0, 102]], // night 1 opens: the opening is out, stamped with this turn's time
      [], // a private night action: nothing public
      [['turn', 1, 131]], // day 1 opens: night 1 (its turn) is out; the private action never
      [],
      [],
      [],
      [
        ['turn', 2, 301],
        ['action', 3, 301],
        ['turn', 4, 301],
        ['action', 5, 301],
      ], // night 2 opens: the whole day at one time, its end; no decision's duration shows
      [],
      [],
      [
        ['turn', 6, 322],
        ['reward', 7, 322],
        ['match.ended', 8, 322],
      ], // the end releases the last phase and itself
    ]);
    expect(s.last).toBe(8);
    expect(s.phased).toBe(true);
    expect(log[5].time).toBe(140); // the log is untouched
  });

  test('releasedThrough: the global seq up to which the view is out', () => {
    const log = hiddenLog();
    const s = new ViewStream('public', teamOf);
    const through: number[] = [];
    for (const e of log) {
      s.push(e);
      through.push(s.releasedThrough);
    }
    expect(through).toEqual([-1, -1, 1, 1, 3, 3, 3, 3, 7, 7, 7, 11]);
  });

  test('extras (observations) are held with their phase; the one a closing event carries goes out with the closed phase', () => {
    const log = hiddenLog();
    const s = new ViewStream<string>('public', teamOf);
    const out: string[] = [];
    const show = (rs: Released<string>[]) => {
      for (const r of rs) out.push(r.event ? `${r.event.type}@${r.event.time}` : `obs:${r.extra}`);
    };
    show(s.push(log[0]));
    show(s.push(log[1]));
    show(s.push(log[2], 'initial'));
    show(s.push(log[3]));
    show(s.push(log[4], 'after-night'));
    expect(out).toEqual(['match.started@102', 'obs:initial', 'turn@131', 'obs:after-night']);
    show(s.push(log[5]));
    show(s.push(log[6], 'after-step-1'));
    expect(out).toHaveLength(4);
    show(s.push(log[7]));
    show(s.push(log[8], 'after-day'));
    expect(out.slice(4)).toEqual(['turn@301', 'action@301', 'obs:after-step-1', 'turn@301', 'action@301', 'obs:after-day']);
    show(s.push(log[9]));
    show(s.push(log[10], 'last'));
    show(s.push(log[11]));
    expect(out.slice(10)).toEqual(['turn@322', 'obs:last', 'reward@322', 'match.ended@322']);
  });

  test('a match whose seats are not hidden streams the public view at once, exact times', () => {
    seq = 0;
    const log = [created(1), started(2), turn(3, 0, 'night 1'), action(4, 0, 0), turn(5, 1, 'day 1'), ended(6)];
    const s = new ViewStream('public', teamOf);
    expect(log.map((e) => brief(events(s.push(e))))).toEqual([[], [['match.started', 0, 2]], [['turn', 1, 3]], [['action', 2, 4]], [['turn', 3, 5]], [['match.ended', 4, 6]]]);
    expect(s.phased).toBe(false);
    expect(s.releasedThrough).toBe(5);
  });

  test('seat and omniscient views of a hidden-role match are exact: a player sees the game as it happens', () => {
    for (const viewer of [0, 1, 'omniscient'] as const) {
      const log = hiddenLog();
      const s = new ViewStream(viewer, teamOf);
      const got = log.flatMap((e) => events(s.push(e)).map((x) => [x.time, e.time]));
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
    expect(events(s.push(turn(10, 2, 'day 1')))).toEqual([]);
    expect(events(s.push(action(20, 2, 1)))).toEqual([]);
    expect(brief(events(s.push(turn(30, 3, 'night 2'))))).toEqual([
      ['turn', 0, 30],
      ['action', 1, 30],
    ]);
    // before match.started a public stream is undecided, and holds
    const u = new ViewStream('public', teamOf);
    seq = 0;
    expect(u.push(created(1))).toEqual([]);
    expect(u.phased).toBe(true);
  });

  test('what an undecided stream held goes out at once when match.started shows open seats', () => {
    seq = 0;
    const s = new ViewStream<string>('public', teamOf);
    expect(s.push(created(1), 'early')).toEqual([]);
    const out = s.push(started(2));
    expect(out.map((r) => r.extra ?? r.event!.type)).toEqual(['early', 'match.started']);
  });

  test('resume: a stream that followed a live log continues its numbering and its held phase', () => {
    const log = hiddenLog();
    const cut = 6; // inside day 1
    const snapshot = releasedView(log.slice(0, cut), 'public', teamOf);
    expect(brief(snapshot.events)).toEqual([
      ['match.started', 0, 102],
      ['turn', 1, 131],
    ]);
    expect(snapshot.through).toBe(3);
    const s = ViewStream.resume(log.slice(0, cut), 'public', teamOf);
    expect(s.last).toBe(3); // day 1's turn and action are numbered, and held
    const rest = log.slice(cut).flatMap((e) => events(s.push(e)));
    expect(brief([...snapshot.events, ...rest])).toEqual(brief(releasedView(log, 'public', teamOf).events));
    // an exact view resumes after what it already delivered
    const seat = ViewStream.resume(log.slice(0, cut), 1, teamOf);
    expect(seat.last).toBe(releasedView(log.slice(0, cut), 1, teamOf).events.length - 1);
  });

  test('releasedView of a finished match releases everything; of a live one, up to the phase in progress', () => {
    const log = hiddenLog();
    expect(releasedView(log, 'public', teamOf).events).toHaveLength(9);
    expect(releasedView(log, 'public', teamOf).through).toBe(11);
    expect(releasedView(log.slice(0, 9), 'public', teamOf).events).toHaveLength(6);
    expect(releasedView(log.slice(0, 9), 'public', teamOf).through).toBe(7);
    expect(releasedView([], 'public', teamOf)).toEqual({ events: [], through: -1 });
  });

  test('visibleTo and filterForViewer (the public API) release the same way', async () => {
    const log = hiddenLog();
    expect(visibleTo(log, 'public', teamOf)).toEqual(releasedView(log, 'public', teamOf).events);
    const streamed = await lastValueFrom(from(log).pipe(filterForViewer('public', teamOf), toArray()));
    expect(streamed).toEqual(releasedView(log, 'public', teamOf).events);
  });
});
