import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '../../app/catalog';
import { parseLeagueConfig, LeagueConfigError } from '../../league/config';
import { leaderboard } from '../../league/leaderboard';
import { runLeague } from '../../league/league-run';
import { Store } from '../../src/store/store';
import { EventBus } from '../../src/bus/event-bus';
import { builtBin } from '../fixtures/built';

const ROOT = resolve(__dirname, '..', '..');
const BIN = builtBin(); // dist/, rebuilt first when any source is newer
const tmp = () => mkdtempSync(join(tmpdir(), 'arena-league-'));

function rpsConfig(name: string, budget: number, extra: Record<string, unknown> = {}) {
  return {
    name,
    env: join(ROOT, 'examples/rock-paper-scissors.js'),
    params: { rounds: 3 },
    seed: 7,
    players: [
      { id: 'random', agent: 'random' },
      { id: 'counter', agent: 'counter-last' },
      { id: 'first', agent: `${join(ROOT, 'test/fixtures/league-agents.js')}#first-legal` },
      { id: 'sleepy', agent: `${join(ROOT, 'test/fixtures/league-agents.js')}#sleepy-random` },
    ],
    matchmaking: { mode: 'pfsp' },
    budget: { matches: budget },
    ...extra,
  };
}

/** Everything a league's outcome consists of, minus wall-clock times. */
function snapshot(db: string, league: string) {
  const store = new Store(db);
  try {
    return {
      matches: store.matches(league).map(({ startedAt: _s, endedAt: _e, ...m }) => m),
      ratings: store.ratings(league),
      history: store.ratingHistory(league, 'elo').map(({ time: _t, ...h }) => h),
      events: store.matches(league).reduce((n, m) => n + store.events(m.id).length, 0),
    };
  } finally {
    store.close();
  }
}

function matchCount(db: string, league: string): number {
  try {
    const store = new Store(db);
    try {
      return store.matchCount(league);
    } finally {
      store.close();
    }
  } catch {
    return 0;
  }
}

describe('league run', () => {
  test('kill -9 mid-run, restart with the same command: exactly the ratings of an uninterrupted run', async () => {
    const dir = tmp();
    const cfg = join(dir, 'league.json');
    writeFileSync(cfg, JSON.stringify(rpsConfig('resume', 200)));
    const full = join(dir, 'full.db');
    const killed = join(dir, 'killed.db');
    const args = (db: string) => [BIN, 'league', 'run', '--config', cfg, '--db', db, '--quiet'];

    expect(spawnSync(process.execPath, args(full), { cwd: ROOT, encoding: 'utf8' }).status).toBe(0);

    const child = spawn(process.execPath, args(killed), { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise((r) => child.on('exit', r));
    const deadline = Date.now() + 30_000;
    while (matchCount(killed, 'resume') < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    const atKill = matchCount(killed, 'resume');
    expect(atKill).toBeGreaterThanOrEqual(20);
    expect(atKill).toBeLessThan(200);

    const resumed = spawnSync(process.execPath, args(killed), { cwd: ROOT, encoding: 'utf8' });
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`resuming league "resume" at match ${atKill}/200`));

    const a = snapshot(full, 'resume');
    const b = snapshot(killed, 'resume');
    expect(b.matches).toHaveLength(200);
    expect(b.matches.map((m) => m.idx)).toEqual(a.matches.map((m) => m.idx));
    expect(b.matches).toEqual(a.matches);
    expect(b.ratings).toEqual(a.ratings);
    expect(b.history).toEqual(a.history);
  });

  test('1,000 matches with 5% faulty agents (timeouts, throws, garbage) complete, every match recorded with a code', async () => {
    const dir = tmp();
    const store = new Store(join(dir, 'faults.db'));
    const config = parseLeagueConfig({
      ...rpsConfig('faults', 1000),
      players: [
        { id: 'random', agent: 'random' },
        { id: 'counter', agent: 'counter-last' },
        { id: 'flaky-a', agent: './test/fixtures/league-agents.js#flaky' },
        { id: 'flaky-b', agent: './test/fixtures/league-agents.js#flaky' },
      ],
      matchmaking: { mode: 'random' },
      deadlineMs: 60, // the flaky timeouts wait 200 ms; honest agents get slack for a loaded machine
    });
    const r = await runLeague({ config, store, registry: createRegistry() });
    expect(r).toMatchObject({ completed: 1000, played: 1000, stopped: false });
    const matches = store.matches('faults');
    expect(matches).toHaveLength(1000);
    const codes = new Map<string, number>();
    for (const m of matches) codes.set(m.code, (codes.get(m.code) ?? 0) + 1);
    expect([...codes.keys()].sort()).toEqual(['forfeit', 'ok']);
    const kinds = new Set(matches.flatMap((m) => m.faults.map((f) => f.kind)));
    expect([...kinds].sort()).toEqual(['error', 'illegal', 'timeout']);
    for (const m of matches.filter((x) => x.code === 'forfeit')) {
      expect(m.faults.length).toBeGreaterThan(0);
      expect(m.seats[m.faults[0].seat].player).toMatch(/^flaky/);
    }
    expect(codes.get('forfeit')).toBeGreaterThan(20);
    expect(store.events(matches[0].id)).toEqual([]); // no bus given: no event log, still a complete record
    store.close();
  });

  test('events and leaderboard: match events are stored with the match; ties and intervals in the table', async () => {
    const dir = tmp();
    const store = new Store(join(dir, 'ev.db'));
    await runLeague({ config: parseLeagueConfig(rpsConfig('ev', 60)), store, registry: createRegistry(), bus: new EventBus() });
    const m = store.matches('ev')[5];
    const events = store.events(m.id);
    expect(events[0].type).toBe('match.created');
    expect(events[events.length - 1]).toMatchObject({ type: 'match.ended', returns: m.returns, outcome: m.outcome });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const rows = leaderboard(store, 'ev', { resamples: 200 });
    expect(rows.map((r) => r.player).sort()).toEqual(['counter', 'first', 'random', 'sleepy']);
    for (const r of rows) {
      expect(r.lo).toBeLessThanOrEqual(r.bt);
      expect(r.hi).toBeGreaterThanOrEqual(r.bt);
      expect(Number.isFinite(r.elo)).toBe(true);
    }
    expect(rows[0].rank).toBe(1);
    store.close();
  });

  test('config errors name the field; evaluation-only and unknown agents are refused', async () => {
    expect(() => parseLeagueConfig({ name: 'x', env: 'e', players: [], budget: { matches: 0 } })).toThrow(LeagueConfigError);
    expect(() => parseLeagueConfig({ name: 'x', env: 'e', players: [{ id: 'a' }], budget: { matches: 1 } })).toThrow(/players\.0\.agent/);
    expect(() => parseLeagueConfig({ name: 'x', env: 'e', players: [{ id: 'a', agent: 'r' }], budget: { matches: 1 }, matchmaking: { mode: 'best' } })).toThrow(/matchmaking\.mode/);
    const store = new Store(join(tmp(), 'bad.db'));
    const registry = createRegistry();
    registry.registerAgent({ name: 'oracle', description: 'sees all', rated: false, create: () => ({ name: 'oracle', omniscient: true, act: () => 0 }) });
    const bad = parseLeagueConfig({ ...rpsConfig('bad', 5), players: [{ id: 'o', agent: 'oracle' }, { id: 'r', agent: 'random' }] });
    await expect(runLeague({ config: bad, store, registry })).rejects.toThrow(/player "o": agent "oracle" is evaluation-only/);
    const unknown = parseLeagueConfig({ ...rpsConfig('bad2', 5), players: [{ id: 'n', agent: 'nobody' }] });
    await expect(runLeague({ config: unknown, store, registry })).rejects.toThrow(/player "n": unknown agent "nobody"/);
    store.close();
  });
});
