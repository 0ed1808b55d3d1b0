import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Store } from '../../../src/store/store';
import { asConfigFile, matchCount, outcome, rpsLeague, inOneProcess } from './helpers';

const ROOT = resolve(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'arena.js');
const tmp = () => mkdtempSync(join(tmpdir(), 'arena-planned-'));


describe('a league with a pairing window (matches paired ahead of play)', () => {
  test('window 1 plays exactly the classic serial league: same matches, ratings, history and event logs', async () => {
    const dir = tmp();
    await inOneProcess(join(dir, 'classic.db'), rpsLeague('w', 120));
    await inOneProcess(join(dir, 'w1.db'), rpsLeague('w', 120, { window: 1 }));
    const a = outcome(join(dir, 'classic.db'), 'w');
    const b = outcome(join(dir, 'w1.db'), 'w');
    expect(b.matches).toHaveLength(120);
    expect(b).toEqual(a);
  });

  test('window 8 pairs match k from the state after match k - 8: other pairings than the serial league, and a plan per match in flight', async () => {
    const dir = tmp();
    await inOneProcess(join(dir, 'classic.db'), rpsLeague('w', 120));
    await inOneProcess(join(dir, 'w8.db'), rpsLeague('w', 120, { window: 8 }));
    const a = outcome(join(dir, 'classic.db'), 'w');
    const b = outcome(join(dir, 'w8.db'), 'w');
    expect(b.matches).toHaveLength(120);
    // the first 8 matches are all paired from the initial state, as the serial league's first one
    expect(b.matches.map((m) => m.seed)).toEqual(a.matches.map((m) => m.seed));
    expect(b.matches.map((m) => m.seats)).not.toEqual(a.matches.map((m) => m.seats));
    const store = new Store(join(dir, 'w8.db'), { readonly: true });
    try {
      // the plans paired by matches 112...119 for indices 120...126 (127's pairing point, after match 119, is a later run's)
      expect(store.plans('w').map((p) => p.idx)).toEqual([120, 121, 122, 123, 124, 125, 126]);
    } finally {
      store.close();
    }
  });

  test('a larger budget later continues exactly as one uninterrupted run', async () => {
    const dir = tmp();
    await inOneProcess(join(dir, 'once.db'), rpsLeague('w', 90, { window: 5 }));
    await inOneProcess(join(dir, 'twice.db'), rpsLeague('w', 40, { window: 5 }));
    await inOneProcess(join(dir, 'twice.db'), rpsLeague('w', 90, { window: 5 }));
    expect(outcome(join(dir, 'twice.db'), 'w')).toEqual(outcome(join(dir, 'once.db'), 'w'));
  });

  test('kill -9 mid-run, rerun the same command: exactly the uninterrupted run', async () => {
    const dir = tmp();
    const cfg = join(dir, 'league.json');
    writeFileSync(cfg, asConfigFile(rpsLeague('resume', 200, { window: 6 })));
    const args = (db: string) => [BIN, 'league', 'run', '--config', cfg, '--db', db, '--quiet'];
    const full = join(dir, 'full.db');
    const killed = join(dir, 'killed.db');
    expect(spawnSync(process.execPath, args(full), { cwd: ROOT, encoding: 'utf8' }).status).toBe(0);
    const child = spawn(process.execPath, args(killed), { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise((r) => child.on('exit', r));
    const deadline = Date.now() + 60_000;
    while (matchCount(killed, 'resume') < 25 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    const atKill = matchCount(killed, 'resume');
    expect(atKill).toBeGreaterThanOrEqual(25);
    expect(atKill).toBeLessThan(200);
    const resumed = spawnSync(process.execPath, args(killed), { cwd: ROOT, encoding: 'utf8' });
    expect(resumed.status).toBe(0);
    expect(outcome(killed, 'resume')).toEqual(outcome(full, 'resume'));
  });
});
