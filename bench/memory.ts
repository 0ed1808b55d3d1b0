/**
 * Memory over long runs (issue 15 item 6): a Deal-or-No-Deal league without learners (every
 * match recorded in a temporary SQLite store, events on a bus, ratings, head-to-head), and the
 * loop of `arena play` (runMatch + the running series summary). Prints RSS and live heap every
 * `--every` matches; both must plateau. Then (issue 28) a league with a learner for `--minutes`
 * (default 10), its RSS curve sampled every `--sample` seconds (memory-long-league.ts).
 * Usage: npm run bench:memory [-- --matches 200000 --every 20000 --mode league|play|both|long|all --minutes 10 --sample 60]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg as osLoad, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EventBus } from '../src/bus/event-bus';
import { createRegistry } from '../app/catalog';
import { EventLoopTurn } from '../src/core/event-loop';
import { runMatch } from '../src/match/runner';
import { SeriesTally } from '../src/match/summary';
import { Store } from '../src/store/store';
import { parseLeagueConfig } from '../league/config';
import { runLeague } from '../league/league-run';
import { longLeague, type LongLeagueSample } from './memory-long-league';

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
  const mode = arg('mode', 'all');
  if (!['league', 'play', 'both', 'long', 'all'].includes(mode)) throw new Error(`--mode: "${mode}" is not one of league, play, both, long, all`);
  const gc = typeof (globalThis as { gc?: unknown }).gc === 'function';
  const heapNote = `heap is live heap${gc ? ' after a full GC' : ' (run with --expose-gc for live heap)'}`;
  if (mode !== 'long') await fixedMatches(mode, matches, every, heapNote);
  if (mode === 'long' || mode === 'all') await long(Number(arg('minutes', '10')), Number(arg('sample', '60')), heapNote);
}

async function long(minutes: number, sampleSeconds: number, heapNote: string): Promise<void> {
  console.log(`\na Deal-or-No-Deal league with a PPO learner (examples/leagues/deal-or-no-deal.json, no match budget) for ${minutes} minutes; ${heapNote}; load average at start ${loadavg()}\n`);
  const row = (s: LongLeagueSample) =>
    `| ${(s.seconds / 60).toFixed(1)} | ${s.matches.toLocaleString('en-US')} | ${s.players} | ${s.rss.toFixed(1)} | ${s.heap.toFixed(1)} | ${s.arrayBuffers.toFixed(1)} | ${loadavg()} |`;
  console.log('| minutes | matches | players | RSS MB | heap MB | ArrayBuffers MB | load |');
  console.log('|---:|---:|---:|---:|---:|---:|---|');
  const samples = await longLeague(minutes, sampleSeconds, (s) => console.log(row(s)));
  // Growth per 1,000 matches: the least-squares slope over the samples after the first minute (warm-up).
  const fit = samples.slice(1).filter((s) => s.matches > 0);
  if (fit.length >= 3) {
    const slope = (y: (s: LongLeagueSample) => number) => {
      const mx = fit.reduce((a, s) => a + s.matches, 0) / fit.length;
      const my = fit.reduce((a, s) => a + y(s), 0) / fit.length;
      const num = fit.reduce((a, s) => a + (s.matches - mx) * (y(s) - my), 0);
      const den = fit.reduce((a, s) => a + (s.matches - mx) ** 2, 0);
      return den ? ((num / den) * 1000).toFixed(2) : '-';
    };
    console.log(
      `\ngrowth per 1,000 matches (least squares over ${fit[0].matches.toLocaleString('en-US')}..${fit[fit.length - 1].matches.toLocaleString('en-US')}): ` +
        `RSS ${slope((s) => s.rss)} MB, heap ${slope((s) => s.heap)} MB, ArrayBuffers ${slope((s) => s.arrayBuffers)} MB; ` +
        `${(fit[fit.length - 1].matches / (fit[fit.length - 1].seconds / 60)).toFixed(0)} matches/minute`,
    );
  }
}

function loadavg(): string {
  return osLoad().map((x) => x.toFixed(1)).join(' ');
}

async function fixedMatches(mode: string, matches: number, every: number, heapNote: string): Promise<void> {
  console.log(`memory over ${matches.toLocaleString('en-US')} Deal-or-No-Deal matches (openspiel protocol), node ${process.version}; ${heapNote}\n`);
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
