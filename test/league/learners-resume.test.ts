import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Store } from '../../src/store/store';
import { builtBin } from '../fixtures/built';

const ROOT = resolve(__dirname, '..', '..');
const BIN = builtBin(); // dist/, rebuilt first when any source is newer
const EVERY = 4;
const BUDGET = 24;

const config = {
  name: 'durable',
  env: 'deal-or-no-deal-v1',
  params: { protocol: 'openspiel' },
  seed: 5,
  players: [
    { id: 'random', agent: 'random' },
    { id: 'greedy', agent: 'greedy' },
  ],
  learners: [{ id: 'neural', roles: ['negotiator'], options: { hidden: [16], epochs: 2 } }],
  // rounds long enough (episodes) that a poll every few ms catches the league inside one
  training: { every: EVERY, episodes: 96, snapshotEvery: 2 },
  matchmaking: { mode: 'random' },
  budget: { matches: BUDGET },
};

const TIMING = new Set(['seconds', 'rolloutSeconds', 'updateSeconds', 'episodesPerSec', 'samplesPerSec', 'updateSamplesPerSec']);

/** Everything a league with learners leaves, minus wall-clock times. */
function outcome(db: string) {
  const store = new Store(db);
  try {
    return {
      matches: store.matches('durable').map(({ startedAt: _s, endedAt: _e, ...m }) => m),
      ratings: store.ratings('durable'),
      players: store.players('durable').map(({ createdAt: _c, ...p }) => JSON.parse(JSON.stringify(p).split(`${db}.learners`).join('WORK')) as unknown),
      training: store.trainingMetrics('durable').map((t) => ({
        iteration: t.iteration,
        role: t.role,
        metrics: JSON.parse(JSON.stringify(t.metrics, (k, v) => (TIMING.has(k) ? undefined : v))) as unknown,
      })),
    };
  } finally {
    store.close();
  }
}

/** Matches recorded and training iterations recorded, read while the league runs (0s before the db exists). */
function progress(db: string): { matches: number; iterations: number } {
  try {
    const store = new Store(db);
    try {
      return { matches: store.matchCount('durable'), iterations: store.trainedIterations('durable').get('neural') ?? 0 };
    } finally {
      store.close();
    }
  } catch {
    return { matches: 0, iterations: 0 };
  }
}

describe('league learners: durable training rounds', () => {
  test('kill -9 inside training rounds, rerun after each: the same matches, ratings, players and training record as an uninterrupted run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-durable-'));
    const cfg = join(dir, 'league.json');
    writeFileSync(cfg, JSON.stringify(config));
    const args = (db: string) => [BIN, 'league', 'run', '--config', cfg, '--db', db, '--quiet', '--backend', 'cpu'];
    const full = join(dir, 'full.db');
    const whole = spawnSync(process.execPath, args(full), { cwd: ROOT, encoding: 'utf8' });
    expect(whole.stderr).not.toMatch(/Error/);
    expect(whole.status).toBe(0);

    const killed = join(dir, 'killed.db');
    let kills = 0;
    for (let attempt = 0; attempt < 4 && kills < 3; attempt++) {
      const child = spawn(process.execPath, args(killed), { cwd: ROOT, stdio: 'ignore' });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      let done = false;
      void exited.then(() => (done = true));
      // Inside a training round: the round's last match is recorded but not the round.
      let p = progress(killed);
      while (!done && !(p.matches > 0 && p.matches % EVERY === 0 && p.iterations < p.matches / EVERY)) {
        await new Promise((r) => setTimeout(r, 3));
        p = progress(killed);
      }
      if (done) break;
      child.kill('SIGKILL');
      await exited;
      const after = progress(killed);
      if (after.matches % EVERY === 0 && after.iterations < after.matches / EVERY) kills++; // the kill landed inside the round
    }
    expect(kills).toBeGreaterThanOrEqual(1);
    const last = spawnSync(process.execPath, args(killed), { cwd: ROOT, encoding: 'utf8' });
    expect(last.status).toBe(0);

    const a = outcome(full);
    const b = outcome(killed);
    expect(a.matches).toHaveLength(BUDGET);
    expect(a.training.map((t) => t.iteration)).toEqual(Array.from({ length: BUDGET / EVERY }, (_, i) => i + 1));
    expect(b.training).toEqual(a.training);
    expect(b.players).toEqual(a.players);
    expect(b.matches).toEqual(a.matches);
    expect(b.ratings).toEqual(a.ratings);
  }, 240_000);
});
