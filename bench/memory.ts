/**
 * Memory over long runs (issue 15 item 6): a Deal-or-No-Deal league without learners (every
 * match recorded in a temporary SQLite store, events on a bus, ratings, head-to-head), and the
 * loop of `arena play` (runMatch + the running series summary). Prints RSS and live heap every
 * `--every` matches; both must plateau.
 * Usage: npm run bench:memory [-- --matches 200000 --every 20000 --mode league|play|both]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EventBus } from '../src/bus/event-bus';
import { createRegistry } from '../src/catalog';
import { EventLoopTurn } from '../src/core/event-loop';
import { runMatch } from '../src/match/runner';
import { SeriesTally } from '../src/match/summary';
import { Store } from '../src/store/store';
import { parseLeagueConfig } from '../league/config';
import { runLeague } from '../league/league-run';

type Sample = { matches: number; rss: number; heap: number };

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

/** RSS and live heap (after a full collection when --expose-gc is on) in MB. */
function sample(matches: number): Sample {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { matches, rss: m.rss / 1e6, heap: m.heapUsed / 1e6 };
}

async function league(matches: number, every: number): Promise<Sample[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-memory-'));
  const raw = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'examples', 'leagues', 'deal-or-no-deal.json'), 'utf8')) as Record<string, unknown>;
  const store = new Store(join(dir, 'bench.db'));
  const out: Sample[] = [];
  try {
    const config = parseLeagueConfig({ ...raw, name: 'memory', learners: [], budget: { matches } });
    await runLeague({ config, store, registry: createRegistry(), bus: new EventBus(), onMatch: (_m, done) => void (done % every === 0 && out.push(sample(done))) });
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

async function play(matches: number, every: number): Promise<Sample[]> {
  const registry = createRegistry();
  const env = registry.env('deal-or-no-deal-v1');
  const params = env.resolveParams({ protocol: 'openspiel' });
  const agents = [(await registry.createAgent('random', { env, params, seed: 1 })).agent, (await registry.createAgent('greedy', { env, params, seed: 2 })).agent];
  const tally = new SeriesTally(env);
  const turn = new EventLoopTurn();
  const out: Sample[] = [];
  for (let k = 1; k <= matches; k++) {
    await turn.maybe();
    tally.add(await runMatch({ env, params, seed: k, agents }));
    if (k % every === 0) out.push(sample(k));
  }
  return out;
}

async function main(): Promise<void> {
  const matches = Number(arg('matches', '200000'));
  const every = Number(arg('every', '20000'));
  const mode = arg('mode', 'both');
  const gc = typeof (globalThis as { gc?: unknown }).gc === 'function';
  console.log(`memory over ${matches.toLocaleString('en-US')} Deal-or-No-Deal matches (openspiel protocol), node ${process.version}; heap is live heap${gc ? ' after a full GC' : ' (run with --expose-gc for live heap)'}\n`);
  const l = mode === 'play' ? [] : await league(matches, every);
  const p = mode === 'league' ? [] : await play(matches, every);
  const rows = Math.max(l.length, p.length);
  const mb = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(1));
  console.log('| matches | league RSS MB | league heap MB | play RSS MB | play heap MB |');
  console.log('|---:|---:|---:|---:|---:|');
  for (let i = 0; i < rows; i++) {
    const n = (l[i] ?? p[i]).matches;
    console.log(`| ${n.toLocaleString('en-US')} | ${mb(l[i]?.rss)} | ${mb(l[i]?.heap)} | ${mb(p[i]?.rss)} | ${mb(p[i]?.heap)} |`);
  }
}

void main();
