import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EventBus } from '../../../src/bus/event-bus';
import { createRegistry } from '../../../app/catalog';
import { Store, StoreConflictError } from '../../../src/store/store';
import { parseTournamentConfig } from '../../../league/tournament/config';
import { storedTournamentReport } from '../../../league/tournament/stored';
import { runTournament } from '../../../league/tournament/tournament-run';
import { builtBin } from '../../fixtures/built';

const ROOT = resolve(__dirname, '..', '..', '..');
const BIN = builtBin(); // dist/, rebuilt first when any source is newer
const tmp = () => mkdtempSync(join(tmpdir(), 'arena-tournament-'));

/** A Swiss on rock-paper-scissors with slow (async, 2 ms) agents: long enough to kill mid-run. */
function swissConfig(name: string) {
  return {
    name,
    format: 'swiss',
    env: './examples/rock-paper-scissors.js',
    params: { rounds: 9 },
    seed: 11,
    players: [
      { id: 'counter', agent: 'counter-last' },
      { id: 'first', agent: './test/fixtures/league-agents.js#first-legal' },
      ...[1, 2, 3, 4, 5].map((k) => ({ id: `sleepy-${k}`, agent: './test/fixtures/league-agents.js#sleepy-random' })),
    ],
    rounds: 4,
    games: 6,
  };
}

/** Everything a tournament's outcome consists of, minus wall-clock times. */
function snapshot(db: string, name: string) {
  const store = new Store(db);
  try {
    return {
      rounds: store.rounds(name),
      matches: store.matches(name).map(({ startedAt: _s, endedAt: _e, ...m }) => m),
      ratings: store.ratings(name),
      history: store.ratingHistory(name, 'elo').map(({ time: _t, ...h }) => h),
      events: store.matches(name).reduce((n, m) => n + store.events(m.id).length, 0),
    };
  } finally {
    store.close();
  }
}

function gameCount(db: string, name: string): number {
  try {
    const store = new Store(db);
    try {
      return store.matchCount(name);
    } finally {
      store.close();
    }
  } catch {
    return 0;
  }
}

describe('tournament run', () => {
  test('kill -9 mid-run, rerun the same command: the same pairings, results and ratings as an uninterrupted run', async () => {
    const dir = tmp();
    // the config's module paths are read from its own folder: give it the repo's examples/ and test/ there
    for (const sub of ['examples', 'test']) symlinkSync(join(ROOT, sub), join(dir, sub));
    const cfg = join(dir, 'swiss.json');
    writeFileSync(cfg, JSON.stringify(swissConfig('resume')));
    const full = join(dir, 'full.db');
    const killed = join(dir, 'killed.db');
    const args = (db: string) => [BIN, 'tournament', 'run', '--config', cfg, '--db', db, '--quiet'];

    const whole = spawnSync(process.execPath, args(full), { cwd: ROOT, encoding: 'utf8' });
    expect(whole.status).toBe(0);
    expect(whole.stdout).toMatch(/tournament resume \(swiss, \.\/examples\/rock-paper-scissors\.js\): 72\/72 games, finished/);

    const child = spawn(process.execPath, args(killed), { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise((r) => child.on('exit', r));
    const deadline = Date.now() + 60_000;
    while (gameCount(killed, 'resume') < 22 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    const atKill = gameCount(killed, 'resume');
    expect(atKill).toBeGreaterThanOrEqual(22); // into round 2, whose pairing depends on round 1's results
    expect(atKill).toBeLessThan(72);

    const resumed = spawnSync(process.execPath, args(killed), { cwd: ROOT, encoding: 'utf8' });
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`resuming tournament "resume" at game ${atKill}`));
    const a = snapshot(full, 'resume');
    const b = snapshot(killed, 'resume');
    expect(b.rounds).toHaveLength(4);
    expect(b.rounds).toEqual(a.rounds);
    expect(b.matches).toHaveLength(72);
    expect(b.matches).toEqual(a.matches);
    expect(b.ratings).toEqual(a.ratings);
    expect(b.history).toEqual(a.history);
    expect(resumed.stdout.split('\nrounds\n')[1]).toEqual(whole.stdout.split('\nrounds\n')[1]);
  });

  test('Werewolf: each player plays each team equally (paired games swap the teams); events and ratings stored', async () => {
    const store = new Store(join(tmp(), 'ww.db'));
    const config = parseTournamentConfig({
      name: 'ww',
      format: 'round-robin',
      env: 'werewolf-v1',
      params: { preset: 'arena', debateTurns: 2 },
      players: [
        { id: 'rule-based', agent: 'rule-based' },
        { id: 'random', agent: 'random' },
      ],
      games: 6,
    });
    const r = await runTournament({ config, store, registry: createRegistry(), bus: new EventBus() });
    expect(r).toEqual({ played: 6, completed: 6, finished: true, stopped: false });
    const report = storedTournamentReport(store, 'ww')!;
    const cell = report.crosstable.cells.find((c) => c.player === 'rule-based')!;
    expect(Object.fromEntries(Object.entries(cell.bySide).map(([side, w]) => [side, w.games]))).toEqual({ werewolves: 3, villagers: 3 });
    const m = store.matches('ww');
    for (let k = 0; k < 6; k += 2) {
      expect(m[k].seed).toBe(m[k + 1].seed); // one deal per pair ...
      const wolves = (x: (typeof m)[number]) => x.seats.find((s) => s.team === 'werewolves')!.player;
      expect(wolves(m[k])).not.toBe(wolves(m[k + 1])); // ... with the teams swapped
      expect(new Set(m[k].seats.filter((s) => s.team === 'werewolves').map((s) => s.player)).size).toBe(1);
    }
    expect(store.events(m[0].id)[0].type).toBe('match.created');
    expect(store.ratings('ww', 'elo').map((x) => x.player).sort()).toEqual(['random', 'random', 'rule-based', 'rule-based']);
    store.close();
  });

  test('SPRT on real agents: greedy vs random in Deal-or-No-Deal ends in H1', async () => {
    const store = new Store(join(tmp(), 'sprt.db'));
    const config = parseTournamentConfig({
      name: 'dond-sprt',
      format: 'sprt',
      env: 'deal-or-no-deal-v1',
      players: [
        { id: 'greedy', agent: 'greedy' },
        { id: 'random', agent: 'random' },
      ],
      sprt: { elo0: 0, elo1: 5 },
    });
    const r = await runTournament({ config, store, registry: createRegistry() });
    expect(r.finished).toBe(true);
    const report = storedTournamentReport(store, 'dond-sprt')!;
    expect(report.sprt!.decision).toBe('H1');
    expect(report.sprt!.llr).toBeGreaterThanOrEqual(report.sprt!.upper);
    expect(report.games).toBeLessThan(2000);
    expect(report.games % 2).toBe(0);
    expect(report.sprt!.elo.elo).toBeGreaterThan(100);
    store.close();
  });

  test('stop and resume in process; name clashes and changed configs are refused', async () => {
    const dir = tmp();
    const store = new Store(join(dir, 'x.db'));
    const registry = createRegistry();
    const raw = { name: 'rr', format: 'round-robin', env: './examples/rock-paper-scissors.js', players: [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'counter-last' }, { id: 'c', agent: 'random' }], games: 4 };
    const config = parseTournamentConfig(raw);
    expect(await runTournament({ config, store, registry, maxGames: 5 })).toEqual({ played: 5, completed: 5, finished: false, stopped: true });
    const ac = new AbortController();
    ac.abort();
    expect(await runTournament({ config, store, registry, signal: ac.signal })).toMatchObject({ played: 0, completed: 5, stopped: true });
    expect(await runTournament({ config, store, registry })).toEqual({ played: 7, completed: 12, finished: true, stopped: false });
    const other = new Store(join(dir, 'y.db'));
    await runTournament({ config, store: other, registry });
    expect(storedTournamentReport(store, 'rr')).toEqual(storedTournamentReport(other, 'rr'));
    other.close();
    await expect(runTournament({ config: parseTournamentConfig({ ...raw, games: 6 }), store, registry })).rejects.toThrow(StoreConflictError);
    expect(await runTournament({ config: parseTournamentConfig({ ...raw, paceMs: 1 }), store, registry })).toMatchObject({ played: 0, finished: true });
    store.ensureLeague('lg', {});
    await expect(runTournament({ config: parseTournamentConfig({ ...raw, name: 'lg' }), store, registry })).rejects.toThrow(/"lg" is a league in this database/);
    expect(() => store.ensureLeague('rr', {})).toThrow(/"rr" is a tournament in this database/);
    store.close();
  });

  test('bad env or agents: one clear error naming the field', async () => {
    const store = new Store(join(tmp(), 'bad.db'));
    const registry = createRegistry();
    registry.registerAgent({ name: 'oracle', description: 'sees all', rated: false, create: () => ({ name: 'oracle', omniscient: true, act: () => 0 }) });
    const two = [{ id: 'a', agent: 'random' }, { id: 'b', agent: 'random' }];
    const run = (extra: Record<string, unknown>) => runTournament({ config: parseTournamentConfig({ name: 'bad', format: 'round-robin', env: './examples/rock-paper-scissors.js', players: two, ...extra }), store, registry });
    await expect(run({ env: 'countdown-v1' })).rejects.toThrow(/env: countdown-v1: tournaments pair two players, one per side; this env has 1 seat on one team/);
    await expect(run({ players: [{ id: 'a', agent: 'nobody' }, two[1]] })).rejects.toThrow(/player "a": unknown agent "nobody"/);
    await expect(run({ players: [{ id: 'o', agent: 'oracle' }, two[1]] })).rejects.toThrow(/player "o": agent "oracle" is evaluation-only/);
    await expect(run({ faults: 'sometimes' })).rejects.toThrow(/tournament config: faults:/);
    store.close();
  });
});
