/**
 * Issue 15 items 4 and 5: user code that never returns or never answers. The CLI runs each
 * command in a worker thread and watches its heartbeat; a hang ends it with one line naming the
 * env or agent, member, seed and step (a failed check for `arena check`), exit 1, and the
 * database consistent. A promise that never settles without a deadline is named too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/store';
import { arena, jsonLines, ROOT } from './helpers';

const RPS = './examples/rock-paper-scissors.js';
const HANGS = './test/fixtures/hanging-env.js';
const STUCK = './test/fixtures/stuck-agents.js';
const WATCH = { ARENA_WATCHDOG_MS: '1500' };
const tmp = () => mkdtempSync(join(tmpdir(), 'arena-watchdog-'));

describe('watchdog: user code that never returns', () => {
  test('check reports a hung env member as a failed check with seed and step (text and --json)', () => {
    const r = arena(['check', HANGS, '--episodes', '5'], { env: WATCH });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^hanging-card-v1: FAIL \(a member hung\)\n  ✗ termination\n      member step\(\) did not return within 1500 ms at episode seed \d+ step 1 \(an endless loop\?\)/);
    const j = arena(['check', HANGS, '--episodes', '5', '--json'], { env: WATCH });
    expect(j.code).toBe(1);
    const report = jsonLines(j.stdout)[0] as { env: string; ok: boolean; checks: { name: string; ok: boolean; problems: string[] }[] };
    expect(report).toMatchObject({ env: 'hanging-card-v1', ok: false, checks: [{ name: 'termination', ok: false }] });
    expect(report.checks[0].problems[0]).toMatch(/member step\(\) .* seed \d+ step 1/);
  });

  test('play with a hanging env stops with one line naming env, member, seed and step (exit 1)', () => {
    const r = arena(['play', HANGS, '--agents', 'random', '--deadline', '100', '--seed', '3', '--episodes', '50'], { env: WATCH });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').filter((l) => l.startsWith('arena:'))).toEqual([
      expect.stringMatching(/^arena: env hanging-card-v1: member step\(\) did not return within 1500 ms at seed \d+ step 1 \(an endless loop\?\); stopped$/),
    ]);
  });

  test('a module that loops at load time is named', () => {
    const r = arena(['check', './test/fixtures/loops-at-load.js'], { env: WATCH });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/arena: module \S*loops-at-load\.js did not finish loading within 1500 ms/);
  });

  test('a synchronous busy agent with --deadline is stopped after its deadline plus a second, named with its seat', () => {
    const r = arena(['play', RPS, '--agents', `random,${STUCK}#busy-loop`, '--deadline', '200'], { env: { ARENA_WATCHDOG_MS: '600000' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/arena: agent "busy-loop" \(seat 1\) did not return from act\(\) within 1200 ms in rock-paper-scissors-v1 at seed 0 step 0/);
  });

  test('a league stopped by a hung agent names the player and leaves a consistent database', () => {
    const dir = tmp();
    const cfg = join(dir, 'l.json');
    const db = join(dir, 'l.db');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: 'hang',
        env: join(ROOT, RPS),
        seed: 2,
        players: [
          { id: 'random', agent: 'random' },
          { id: 'counter', agent: 'counter-last' },
          { id: 'busy', agent: `${join(ROOT, STUCK)}#busy-loop` },
        ],
        matchmaking: { mode: 'random' },
        budget: { matches: 500 },
        deadlineMs: 100,
      }),
    );
    const r = arena(['league', 'run', '--config', cfg, '--db', db, '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/arena: agent "busy-loop" \(seat \d, player busy\) did not return from act\(\) within 1100 ms in rock-paper-scissors-v1 at seed \d+ step 0 in match hang:\d+ \(an endless loop\?\); stopped/);
    const store = new Store(db);
    try {
      const matches = store.matches('hang');
      expect(matches.map((m) => m.idx)).toEqual(matches.map((_, i) => i));
      expect(matches.every((m) => !m.seats.some((s) => s.player === 'busy'))).toBe(true);
      expect(store.ratings('hang').length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});

describe('a promise that never settles', () => {
  test('--deadline none: a clear error naming agent and seat, exit 1 (not a silent exit 0)', () => {
    const r = arena(['play', RPS, '--agents', `random,${STUCK}#never-answers`, '--deadline', 'none']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/arena: agent "never-answers" \(seat 1\) never answered at step 0 of rock-paper-scissors-v1 match \S+: its promise never settled and no deadline was set/);
  });

  test('in a league (deadlineMs "none") too', () => {
    const dir = tmp();
    const cfg = join(dir, 'l.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: 'never',
        env: join(ROOT, RPS),
        players: [
          { id: 'random', agent: 'random' },
          { id: 'silent', agent: `${join(ROOT, STUCK)}#never-answers` },
        ],
        budget: { matches: 10 },
        deadlineMs: 'none',
      }),
    );
    const r = arena(['league', 'run', '--config', cfg, '--db', join(dir, 'l.db'), '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/arena: agent "never-answers" \(seat [01]\) never answered at step 0 of rock-paper-scissors-v1 match never:0/);
  });

  test('with a deadline it is a timeout fault, recorded; --deadline takes milliseconds or "none"', () => {
    const r = arena(['play', RPS, '--agents', `random,${STUCK}#never-answers`, '--deadline', '50', '--json']);
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ code: 'forfeit', faults: [{ seat: 1, kind: 'timeout', reason: 'no answer within 50 ms' }] });
    const bad = arena(['play', RPS, '--agents', 'random', '--deadline', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('arena: --deadline: expected milliseconds (a positive integer) or "none", got "0"\n');
  });
});
