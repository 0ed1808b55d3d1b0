/**
 * Countdown co-evolution through the league (issue 17), side by side with the fixed-problem-set
 * baseline in one run, over fixed seeds.
 *
 * 1. Warm-up (shared by every run): the solver alone on the generator's puzzles (GRPO, K = 8
 *    attempts a puzzle form a group), saved as a checkpoint. A solver that solves nothing gives
 *    the challenger nothing to aim at.
 * 2. Per seed, two leagues from examples/leagues/countdown-coevolution.json, both solvers
 *    starting from the warm-up checkpoint with the same episodes per round and the same rounds:
 *    - co-evolution: the example as it is (challenger and solver learners, each with its
 *      snapshot population; the solver's sources: the current challenger, PFSP over past
 *      challengers, the generator), plus a probe "frozen": the warm-up solver (a `neural`
 *      player that never trains) on the challenger's fresh puzzles;
 *    - baseline: the solver learner alone, its only source the generator.
 * 3. Both final solvers play 1,000 held-out solvable 4-number puzzles and 1,000 solvable
 *    5-number puzzles (one greedy attempt each; never dealt by these seeds' training, up to
 *    chance collisions of the generator).
 *
 * Targets (issue 17): (1) co-evolution beats the baseline on held-out puzzles by more than the
 * seed-to-seed spread; (2) the frozen warm-up solver's success on fresh challenger puzzles
 * falls from the first to the last quarter of the run in every seed; (3) the co-evolving
 * solver's success on the current challenger is within 30-70% for >= 80% of 10-round windows
 * in the second half.
 *
 * Scale flags (defaults: the issue's scale, about 15 CPU-minutes per league): --rounds=N
 * (training rounds per league), --warmup=N (warm-up iterations of 256 puzzles), --episodes=N
 * (episodes per round and learner), --seeds=a,b,c, --probe=N (probe episodes). --quick: a
 * plumbing check.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '../../app/catalog';
import type { Env } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import type { Params } from '../../src/core/params';
import { deriveSeed } from '../../src/core/rng';
import { Store } from '../../src/store/store';
import { loadCheckpoint } from '../../src/train/checkpoint';
import { policyAgent } from '../../src/train/policy-agents';
import { checkLayoutFor, PolicyModel } from '../../src/train/policy-model';
import { checkpointFile } from '../../src/train/run-state';
import { parseLeagueConfig } from '../../league/config';
import { runLeague } from '../../league/league-run';
import { cpuSeconds, playEpisodes, train, type TaskReport } from './common';

const ROOT = resolve(__dirname, '..', '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'leagues', 'countdown-coevolution.json');

interface Puzzle {
  numbers: number[] | null;
  target: number | null;
  verdict: { reachable: boolean; nodes: number } | null;
  solved: number;
}

/** `--name=value` of the command line, as a number, or the default. */
function flag(name: string, dflt: number): number {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.slice(name.length + 3)) : dflt;
}

/** The first `n` solvable puzzles the generator deals under `params` from seeds derived from `tag`. */
function solvable(env: Env, params: Params, n: number, tag: string): Params[] {
  const out: Params[] = [];
  for (let k = 0; out.length < n; k++) {
    const p = env.summary(env.init(params, deriveSeed(4242, tag, k))) as unknown as Puzzle;
    if (p.verdict?.reachable) out.push(env.resolveParams({ ...params, numbers: p.numbers, target: p.target }));
  }
  return out;
}

/** Solve rate of a checkpoint's greedy policy on `list` (one attempt each). */
async function heldOut(env: Env, file: string, list: Params[]): Promise<number> {
  const ckpt = loadCheckpoint(file);
  const agent = policyAgent('solver', new PolicyModel(ckpt.layout, checkLayoutFor(ckpt.layout, env), ckpt.weights), null);
  const r = await playEpisodes(env, list, () => [agent], 3);
  return r.summaries.reduce((s: number, x) => s + (x as unknown as Puzzle).solved, 0) / list.length;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
/** Sample standard deviation; NaN for fewer than 2 seeds (no spread to beat, so target 1 cannot pass on one seed). */
const sd = (xs: readonly number[]) => (xs.length > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1)) : NaN);
/** Two-sided 97.5% Student t quantiles for 1-9 degrees of freedom (95% intervals over seeds). */
const T975 = [NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262];
const interval = (xs: readonly number[]) => {
  const h = xs.length > 1 ? (T975[Math.min(xs.length - 1, 9)] * sd(xs)) / Math.sqrt(xs.length) : NaN;
  return `${mean(xs).toFixed(3)} ± ${Number.isFinite(h) ? h.toFixed(3) : 'n/a'}`;
};
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

type Row = { iteration: number; role: string; metrics: Record<string, unknown> };
const numberAt = (v: unknown, ...path: string[]): number | null => {
  let x: unknown = v;
  for (const k of path) x = x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined;
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
};

/** One seed's figures. */
interface SeedResult {
  seed: number;
  coevo4: number;
  base4: number;
  coevo5: number;
  base5: number;
  /** Share of the second half's 10-round windows with success on the current challenger in [0.3, 0.7]. */
  inBand: number;
  windows: number[];
  frozenFirst: number;
  frozenLast: number;
  greedyFirst: number;
  greedyLast: number;
  nodesFirst: number;
  nodesLast: number;
  solverEpisodes: { coevo: number; base: number };
  cpu: { coevo: number; base: number };
}

/** First- and last-quarter means of a probe's solve rate (or another envStats key). */
function quarters(rows: Row[], role: string, key: string): [number, number] {
  const xs = rows.filter((r) => r.role === role).map((r) => numberAt(r.metrics, 'envStats', key)).filter((x): x is number => x !== null);
  const k = Math.max(1, Math.floor(xs.length / 4));
  return [mean(xs.slice(0, k)), mean(xs.slice(-k))];
}

export async function countdownCoevolutionLeague(quick: boolean): Promise<TaskReport> {
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  const rounds = flag('rounds', quick ? 2 : 200);
  const warmIterations = flag('warmup', quick ? 1 : 250);
  const episodes = flag('episodes', quick ? 8 : 64);
  const probeEpisodes = flag('probe', quick ? 10 : 100);
  const seedsArg = process.argv.find((x) => x.startsWith('--seeds='));
  const seeds = seedsArg ? seedsArg.slice(8).split(',').map(Number) : quick ? [1] : [1, 2, 3];
  const registry = createRegistry();
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, any>;
  const solo = registry.make('countdown-v1', { rules: 'tinyzero', contract: { count: 4 } });
  const five = registry.make('countdown-v1', { rules: 'tinyzero', contract: { count: 5 } });
  const held4 = solvable(solo.env, solo.params, quick ? 50 : 1000, 'heldout');
  const held5 = solvable(five.env, five.params, quick ? 50 : 1000, 'heldout-5');
  const dir = mkdtempSync(join(tmpdir(), 'arena-coevo-bench-'));

  // 1. the warm-up solver (GRPO, 8 tries of each generator puzzle form a group)
  const solverOptions = example.learners.find((l: { id: string }) => l.id === 'solver').options as Record<string, unknown>;
  const warmDir = join(dir, 'warm');
  const warm = await train({
    env: solo.env,
    params: solo.params,
    registry,
    roles: [['solver']],
    iterations: warmIterations,
    cpuBudget: Infinity,
    outDir: warmDir,
    config: { ...(solverOptions as object), algorithm: 'grpo', seed: 4, groupSize: 8, episodesPerIteration: 256, lr: 5e-4, evalEvery: 0, checkpointEvery: 1_000_000 },
  });
  warm.trainer.saveCheckpoints();
  warm.trainer.dispose();
  const warmFile = checkpointFile(warmDir, 'solver', 'latest');
  const warm4 = await heldOut(solo.env, warmFile, held4);
  const warm5 = await heldOut(five.env, warmFile, held5);
  console.error(`warm-up: ${warmIterations} x 256 puzzles, held-out ${f3(warm4)} (4 numbers), ${f3(warm5)} (5 numbers)`);

  const results: SeedResult[] = [];
  const curves: Record<string, JsonValue>[] = [];
  for (const seed of seeds) {
    const every = example.training.every as number;
    const learners: Record<string, any>[] = (example.learners as Record<string, any>[]).map((l) => ({ ...l, init: l.id === 'solver' ? warmFile : undefined }));
    const common = {
      ...example,
      seed,
      training: { ...example.training, episodes },
      budget: { matches: rounds * every },
    };
    const coevoConfig = parseLeagueConfig({
      ...common,
      name: `coevo-${seed}`,
      players: [...example.players, { id: 'warm-solver', agent: `neural:${JSON.stringify({ checkpoint: warmFile })}`, roles: ['solver'], kind: 'snapshot', checkpoint: warmFile }],
      learners,
      probes: [
        ...(example.probes as Record<string, unknown>[]).map((p) => ({ ...p, episodes: probeEpisodes })),
        { id: 'frozen', every: 5, episodes: probeEpisodes, players: { challenger: 'challenger', solver: 'warm-solver' }, exclude: ['unsolvable'] },
      ],
    });
    const baseConfig = parseLeagueConfig({
      ...common,
      name: `baseline-${seed}`,
      learners: [{ ...learners.find((l) => l.id === 'solver'), sources: [{ kind: 'generator', weight: 1, params: { roles: 'solver' } }] }],
      probes: [],
    });
    const run = async (config: ReturnType<typeof parseLeagueConfig>) => {
      const c0 = cpuSeconds();
      const store = new Store(join(dir, `${config.name}.db`));
      const workDir = join(dir, config.name);
      await runLeague({
        config,
        store,
        registry,
        workDir,
        log: (line) => console.error(line),
        onMatch: (_m, done, total) => {
          if (done % (every * 25) === 0) console.error(`${config.name}: ${done}/${total} matches, ${(cpuSeconds() - c0).toFixed(0)} CPU-s`);
        },
      });
      const rows = store.trainingMetrics(config.name) as Row[];
      store.close();
      const file = checkpointFile(join(workDir, 'solver'), 'solver', 'latest');
      const episodesSeen = rows.filter((r) => r.role === 'solver').reduce((s, r) => s + (numberAt(r.metrics, 'episodes') ?? 0), 0);
      return { rows, file, cpu: cpuSeconds() - c0, episodes: episodesSeen };
    };
    const co = await run(coevoConfig);
    const base = await run(baseConfig);
    const success = co.rows.filter((r) => r.role === 'solver').map((r) => numberAt(r.metrics, 'sources', 'challenger', 'envStats', 'solveRate'));
    const windows: number[] = [];
    for (let i = Math.floor(success.length / 2); i < success.length; i += 10) {
      const w = success.slice(i, i + 10).filter((x): x is number => x !== null);
      if (w.length) windows.push(mean(w));
    }
    const [frozenFirst, frozenLast] = quarters(co.rows, 'probe:frozen', 'solveRate');
    const [greedyFirst, greedyLast] = quarters(co.rows, 'probe:greedy', 'solveRate');
    const [nodesFirst, nodesLast] = quarters(co.rows, 'probe:frozen', 'meanSolverNodes');
    const r: SeedResult = {
      seed,
      coevo4: await heldOut(solo.env, co.file, held4),
      base4: await heldOut(solo.env, base.file, held4),
      coevo5: await heldOut(five.env, co.file, held5),
      base5: await heldOut(five.env, base.file, held5),
      inBand: windows.length ? windows.filter((w) => w >= 0.3 && w <= 0.7).length / windows.length : NaN,
      windows,
      frozenFirst,
      frozenLast,
      greedyFirst,
      greedyLast,
      nodesFirst,
      nodesLast,
      solverEpisodes: { coevo: co.episodes, base: base.episodes },
      cpu: { coevo: co.cpu, base: base.cpu },
    };
    results.push(r);
    curves.push({ seed, successOnCurrentChallenger: success, frozen: co.rows.filter((x) => x.role === 'probe:frozen').map((x) => numberAt(x.metrics, 'envStats', 'solveRate')) });
    console.error(`seed ${seed}: held-out 4 ${f3(r.coevo4)} vs ${f3(r.base4)}, 5 ${f3(r.coevo5)} vs ${f3(r.base5)}; band ${f3(r.inBand)}; frozen ${f3(frozenFirst)} -> ${f3(frozenLast)}`);
  }

  printTables(results, { rounds, episodes, warmIterations, warm4, warm5, probeEpisodes });
  const d4 = results.map((r) => r.coevo4 - r.base4);
  const d5 = results.map((r) => r.coevo5 - r.base5);
  const spread4 = Math.max(sd(results.map((r) => r.coevo4)), sd(results.map((r) => r.base4)));
  const spread5 = Math.max(sd(results.map((r) => r.coevo5)), sd(results.map((r) => r.base5)));
  return {
    task: `Countdown co-evolution through the league vs the generator alone (${seeds.length} seeds, ${rounds} rounds x ${episodes} solver episodes)`,
    targets: [
      { name: 'held-out 4-number: co-evolved minus baseline (mean over seeds)', value: mean(d4), goal: `> seed spread ${f3(spread4)}`, pass: mean(d4) > spread4 },
      { name: 'held-out 5-number: co-evolved minus baseline (mean over seeds)', value: mean(d5), goal: `> seed spread ${f3(spread5)}`, pass: mean(d5) > spread5 },
      { name: 'seeds where the frozen warm-up solver does worse in the last quarter', value: results.filter((r) => r.frozenLast < r.frozenFirst).length, goal: `${seeds.length} of ${seeds.length}`, pass: results.every((r) => r.frozenLast < r.frozenFirst) },
      { name: 'lowest share of second-half 10-round windows in 30-70%', value: Math.min(...results.map((r) => r.inBand)), goal: '>= 0.80', pass: results.every((r) => r.inBand >= 0.8) },
    ],
    notes: [`scale: warm-up ${warmIterations} x 256 generator puzzles; each league ${rounds} rounds x ${episodes} episodes per learner (8 attempts a puzzle); probes ${probeEpisodes} episodes every 5 rounds`],
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: cpuSeconds() - cpu0,
    iterations: rounds,
    curve: curves,
  };
}

/** The side-by-side markdown tables. */
function printTables(results: SeedResult[], s: { rounds: number; episodes: number; warmIterations: number; warm4: number; warm5: number; probeEpisodes: number }): void {
  console.log(`\n### Countdown: co-evolution through the league vs the generator alone\n`);
  console.log(`Warm-up solver (both arms start from it): ${s.warmIterations} iterations x 256 generator puzzles; held-out ${f3(s.warm4)} (4 numbers), ${f3(s.warm5)} (5 numbers).`);
  console.log(`Each league: ${s.rounds} training rounds x ${s.episodes} solver episodes (8 attempts a puzzle), the same in both arms.\n`);
  console.log('| seed | co-evolved, 4 numbers | baseline, 4 numbers | co-evolved, 5 numbers | baseline, 5 numbers | solver episodes (co / base) | CPU-s (co / base) |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.seed} | ${f3(r.coevo4)} | ${f3(r.base4)} | ${f3(r.coevo5)} | ${f3(r.base5)} | ${r.solverEpisodes.coevo} / ${r.solverEpisodes.base} | ${r.cpu.coevo.toFixed(0)} / ${r.cpu.base.toFixed(0)} |`);
  const col = (f: (r: SeedResult) => number) => interval(results.map(f));
  console.log(`| mean ± 95% (t) | ${col((r) => r.coevo4)} | ${col((r) => r.base4)} | ${col((r) => r.coevo5)} | ${col((r) => r.base5)} | | |`);
  console.log(`\nPaired difference (co-evolved − baseline), mean ± 95%: 4 numbers ${col((r) => r.coevo4 - r.base4)}, 5 numbers ${col((r) => r.coevo5 - r.base5)}.\n`);
  console.log('| seed | frozen warm-up solver on fresh challenger puzzles, first → last quarter | greedy baseline, first → last quarter | exact solver search effort, first → last quarter | second-half windows in 30–70% | window means |');
  console.log('|---:|---|---|---|---:|---|');
  for (const r of results) {
    console.log(`| ${r.seed} | ${f3(r.frozenFirst)} → ${f3(r.frozenLast)} | ${f3(r.greedyFirst)} → ${f3(r.greedyLast)} | ${r.nodesFirst.toFixed(1)} → ${r.nodesLast.toFixed(1)} | ${f3(r.inBand)} | ${r.windows.map(f3).join(', ')} |`);
  }
}
