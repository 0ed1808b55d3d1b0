/**
 * The long-league part of `npm run bench:memory` (issue 28): the README's Deal-or-No-Deal league
 * with its PPO learner (training every 20 matches, a snapshot player every 5 rounds) run for a
 * fixed time instead of a match budget, sampling RSS, live heap (after a full GC with
 * --expose-gc) and ArrayBuffer memory at a fixed interval. A league that leaks shows a rising
 * curve; what remains should grow only with its population (players and the pairs that met).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EventBus } from '../src/bus/event-bus';
import { createRegistry } from '../app/catalog';
import { Store } from '../src/store/store';
import { parseLeagueConfig } from '../league/config';
import { runLeague } from '../league/league-run';

/** One point of the curve. */
export interface LongLeagueSample {
  seconds: number;
  matches: number;
  /** Players in the league (the snapshots the learner added included). */
  players: number;
  rss: number;
  heap: number;
  arrayBuffers: number;
}

/** Runs the league for `minutes`, sampling every `sampleSeconds`; `onSample` sees each point as it comes. */
export async function longLeague(minutes: number, sampleSeconds: number, onSample: (s: LongLeagueSample) => void): Promise<LongLeagueSample[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-long-league-'));
  const raw = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'examples', 'leagues', 'deal-or-no-deal.json'), 'utf8')) as Record<string, unknown>;
  const store = new Store(join(dir, 'bench.db'));
  const stop = new AbortController();
  const out: LongLeagueSample[] = [];
  const t0 = Date.now();
  let matches = 0;
  const take = () => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    const s = { seconds: Math.round((Date.now() - t0) / 1000), matches, players: store.players('memory-long').length, rss: m.rss / 1e6, heap: m.heapUsed / 1e6, arrayBuffers: m.arrayBuffers / 1e6 };
    out.push(s);
    onSample(s);
  };
  const timer = setInterval(take, sampleSeconds * 1000);
  const end = setTimeout(() => stop.abort(), minutes * 60_000);
  try {
    const config = parseLeagueConfig({ ...raw, name: 'memory-long', budget: { matches: 10_000_000 } });
    await runLeague({ config, store, registry: createRegistry(), bus: new EventBus(), signal: stop.signal, workDir: join(dir, 'learners'), onMatch: (_m, done) => void (matches = done) });
    take();
  } finally {
    clearInterval(timer);
    clearTimeout(end);
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
