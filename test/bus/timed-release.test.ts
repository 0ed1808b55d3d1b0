import { from, lastValueFrom, toArray } from 'rxjs';
import { TimedRelease } from '../../src/bus/timed-release';
import { filterForViewer } from '../../src/bus/view-filter';
import type { MatchEvent } from '../../src/core/events';
import { ViewStream, releasedView, type Batch } from '../../src/core/phase-release';
import type { Visibility } from '../../src/core/visibility';

let seq = 0;
const base = (time: number, visibility: Visibility = 'public') => ({ matchId: 'm', seq: seq++, time, visibility });
const started = (time: number, seatsHidden: boolean): MatchEvent => ({ ...base(time), type: 'match.started', env: 'e', params: {}, agents: ['a'], ...(seatsHidden ? { seatsHidden, seats: 1 } : {}) });
const turn = (time: number, step: number, phase: string): MatchEvent => ({ ...base(time), type: 'turn', step, toAct: [0], phase });
const ended = (time: number): MatchEvent => ({ ...base(time), type: 'match.ended', returns: [], outcome: 'x', code: 'ok', length: 3, faults: 0 });
const teamOf = () => undefined;

/** Hangs fail in this long, not the default minute (a mutant that never releases is cheap to find). */
const SHORT = 5000;

/** A hidden-role log: the opening, phase a (one 30 ms step), phase b (two steps, 10 ms each), the end. */
function log(): MatchEvent[] {
  seq = 0;
  return [started(0, true), turn(0, 0, 'a'), turn(30, 1, 'b'), turn(40, 2, 'b'), ended(50)];
}

describe('TimedRelease', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    jest.useFakeTimers();
    clock = 0;
  });
  afterEach(() => jest.useRealTimers());
  const advance = (ms: number) => {
    clock += ms;
    jest.advanceTimersByTime(ms);
  };

  test('batches without delay go out at once; a phase waits for its due time; order is kept', async () => {
    const got: [number, string[]][] = [];
    const r = new TimedRelease(new ViewStream('public', teamOf), (b: Batch<never>) => got.push([clock, b.items.map((i) => `${i.event!.type}@${i.event!.time}`)]), now);
    const [s, t0, t1, t2, end] = log();
    r.push(s);
    r.push(t0); // the opening: due now
    expect(got).toEqual([[0, ['match.started@0']]]);
    clock = 30;
    r.push(t1); // phase a closes at 30, due 0 + 1 × 30: now
    expect(got).toHaveLength(2);
    clock = 40;
    r.push(t2);
    clock = 50;
    r.push(end); // phase b closes at 50 (steps 10 and 10, pace 30): due 30 + 2 × 30 = 90, 40 ms from now
    expect(r.pending).toBe(true);
    const drained = r.drained();
    advance(39);
    expect(got).toHaveLength(2);
    advance(1);
    await drained;
    expect(got).toEqual([
      [0, ['match.started@0']],
      [30, ['turn@30']],
      [90, ['turn@90', 'turn@90', 'match.ended@90']],
    ]);
    expect(r.pending).toBe(false);
  }, SHORT);

  test('an exact batch behind a waiting one waits too (FIFO); drained resolves at once when nothing waits', async () => {
    const got: number[] = [];
    let delay = 50;
    const stream = { push: (e: MatchEvent) => ({ items: [], through: e.seq, delay }) } as unknown as ViewStream<never>;
    const r = new TimedRelease(stream, (b) => got.push(b.through), now);
    await r.drained();
    seq = 0;
    r.push(turn(0, 0, 'x'));
    delay = 0;
    r.push(turn(0, 1, 'x'));
    expect(got).toEqual([]);
    advance(50);
    expect(got).toEqual([0, 1]);
    // a timer that fires a little early re-arms for the rest
    delay = 10;
    r.push(turn(0, 2, 'x'));
    clock += 5; // the clock lags the timer
    jest.advanceTimersByTime(10);
    expect(got).toEqual([0, 1]);
    advance(5);
    expect(got).toEqual([0, 1, 2]);
  }, SHORT);

  test('stop drops what waits and resolves drained()', async () => {
    const got: unknown[] = [];
    const r = new TimedRelease(new ViewStream('public', teamOf), (b) => got.push(b), now);
    for (const e of log()) r.push(e);
    expect(r.pending).toBe(true);
    const drained = r.drained();
    r.stop();
    await drained;
    advance(1000);
    expect(got).toHaveLength(2); // the opening and phase a only
    expect(jest.getTimerCount()).toBe(0); // no timer left behind
  }, SHORT);

  test('stop clears the waiting timer at once (a closing server is not kept alive until a phase is due)', () => {
    const stream = { push: (e: MatchEvent) => ({ items: [], through: e.seq, delay: 60_000 }) } as unknown as ViewStream<never>;
    const r = new TimedRelease(stream, () => undefined, now);
    seq = 0;
    r.push(turn(0, 0, 'x'));
    expect(jest.getTimerCount()).toBe(1);
    r.stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  test('one timer per wait (no polling); drained() waits for the last batch, not the first', async () => {
    const got: number[] = [];
    let delay = 0;
    const stream = { push: (e: MatchEvent) => ({ items: [], through: e.seq, delay }) } as unknown as ViewStream<never>;
    const r = new TimedRelease(stream, (b) => got.push(b.through), now);
    const timers = jest.spyOn(global, 'setTimeout');
    seq = 0;
    delay = 30;
    r.push(turn(0, 0, 'x'));
    delay = 60;
    r.push(turn(0, 1, 'x'));
    let drained = false;
    void r.drained().then(() => (drained = true));
    advance(30);
    await Promise.resolve();
    expect(got).toEqual([0]);
    expect(drained).toBe(false);
    advance(30);
    await Promise.resolve();
    expect(got).toEqual([0, 1]);
    expect(drained).toBe(true);
    expect(timers).toHaveBeenCalledTimes(2); // one per batch, each set for its due time
    expect(timers.mock.calls.map((c) => c[1])).toEqual([30, 30]);
    timers.mockRestore();
  }, SHORT);
});

test('filterForViewer releases on the wall clock and completes once nothing waits', async () => {
  const events = log();
  const got = await lastValueFrom(from(events).pipe(filterForViewer('public', teamOf), toArray()));
  expect(got).toEqual(releasedView(events, 'public', teamOf).events);
  expect(got.map((e) => e.time)).toEqual([0, 30, 90, 90, 90]);
}, SHORT);
