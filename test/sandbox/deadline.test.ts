/**
 * The deadline a pool slot's wall clock uses (src/sandbox/deadline.ts): one timer for successive
 * deadlines, expiring once when a deadline set is neither cleared nor set again, armed again
 * for a new deadline earlier than it is due, and never keeping the process alive. Fake timers
 * and a fake clock: no time is measured here.
 */
import { Deadline } from '../../src/sandbox/deadline';

/** How far behind the fake timers' clock the deadline's clock reads (ms). */
let skew = 0;
/** The deadline's clock: the fake timers' own. */
const now = () => Date.now() - skew;
beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000 });
  skew = 0;
});
afterEach(() => jest.useRealTimers());

/** Advances the fake timers (and their clock). */
function pass(ms: number): void {
  jest.advanceTimersByTime(ms);
}

test('a deadline set and not cleared expires once, when it passes', () => {
  const expired = jest.fn();
  const d = new Deadline(expired, now);
  d.set(100);
  expect(d.pending).toBe(true);
  pass(99);
  expect(expired).not.toHaveBeenCalled();
  pass(1);
  expect(expired).toHaveBeenCalledTimes(1);
  expect(d.pending).toBe(false);
  pass(1000);
  expect(expired).toHaveBeenCalledTimes(1);
});

test('a cleared deadline never expires; set again, the one timer serves it (no timer per deadline)', () => {
  const expired = jest.fn();
  const d = new Deadline(expired, now);
  d.set(100);
  expect(jest.getTimerCount()).toBe(1);
  for (let i = 0; i < 50; i++) {
    pass(10);
    d.clear();
    d.set(100);
  }
  expect(jest.getTimerCount()).toBe(1);
  // the timer fired meanwhile (at 100) and was armed for the time left of the deadline now set
  expect(expired).not.toHaveBeenCalled();
  d.clear();
  pass(1000);
  expect(expired).not.toHaveBeenCalled();
  expect(jest.getTimerCount()).toBe(0);
});

test('a deadline set later than the armed timer expires at its own time, not the first', () => {
  const expired = jest.fn();
  const d = new Deadline(expired, now);
  d.set(100);
  pass(50);
  d.set(200); // due at 250
  pass(150); // the timer fires at 100 and is armed again
  expect(expired).not.toHaveBeenCalled();
  pass(49);
  expect(expired).not.toHaveBeenCalled();
  pass(1);
  expect(expired).toHaveBeenCalledTimes(1);
});

test('a deadline earlier than the armed timer is not late: the timer is armed again for it', () => {
  const expired = jest.fn();
  const d = new Deadline(expired, now);
  d.set(10_000);
  d.clear();
  d.set(100);
  pass(100);
  expect(expired).toHaveBeenCalledTimes(1);
});

test('a timer that fires a little early (the event loop caches its clock) waits for the deadline', () => {
  const expired = jest.fn();
  const d = new Deadline(expired, now);
  d.set(100);
  skew = 0.5; // the clock reads half a millisecond behind the timers'
  pass(100);
  expect(expired).not.toHaveBeenCalled();
  pass(1);
  expect(expired).toHaveBeenCalledTimes(1);
});

test('its timer does not keep the process alive', () => {
  jest.useRealTimers();
  const d = new Deadline(() => undefined);
  d.set(60_000);
  const timer = (d as unknown as { timer: NodeJS.Timeout }).timer;
  expect(timer.hasRef()).toBe(false);
  d.clear();
});

test('the timer is armed only for a deadline earlier than it is due, and once again for the time left when it fires early', () => {
  const expired = jest.fn();
  const d = new Deadline(expired, now);
  const arms = jest.spyOn(global, 'setTimeout');
  d.set(100);
  d.clear();
  d.set(100); // due when the armed timer fires: no timer armed again
  expect(arms).toHaveBeenCalledTimes(1);
  pass(50);
  d.set(200); // due at 250: the timer armed at 0 fires at 100 and is armed once, for the 150 ms left
  pass(199);
  expect(expired).not.toHaveBeenCalled();
  pass(1);
  expect(expired).toHaveBeenCalledTimes(1);
  expect(arms).toHaveBeenCalledTimes(2);
  arms.mockRestore();
});
