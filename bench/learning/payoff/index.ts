/**
 * `npm run bench:learning -- payoff [flags]`: the payoff experiment of issue 26 — for each env
 * (Deal-or-No-Deal coop 0, Werewolf), three arms at equal samples over seeds, each arm's final
 * policy measured by exploitability and by a held-out panel; prints the tables (table.ts).
 *
 * Flags: --env=dond,werewolf --seeds=1,2,3 --dir=runs/payoff (one folder per env; rerun with the
 * same folder to resume a killed run) --jobs=N (steps in N child processes, one core each)
 * --rounds=N --episodes=N --every=N --equal=total|main --exploit-iterations=N
 * --exploit-episodes=N --exploit-eval=N --panel-episodes=N --example=FILE (arm c's league config
 * instead of examples/leagues/<env>-payoff.json, one env at a time: a variant of the recipe; the
 * other arms derive from it too). --quick: a plumbing check (tiny budgets, one seed). Internal: --step=KEY runs one step (what --jobs starts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '../../../app/catalog';
import { arg, num } from '../flags';
import { cpuSeconds, type TaskReport } from '../common';
import { exampleOf, runPayoff, runStep, type PayoffRun, type PayoffScale } from './experiment';
import { exploiterCurves, printExploiterCurves } from './exploiter-curve';
import { PAYOFF_SPECS } from './specs';
import { childStep } from './steps';
import { goalMet, printPayoff } from './table';


/**
 * Default scales (chosen to fit the time budget of issue 26 on two cores; measured in bench/learning/README.md).
 * DoND's exploiter trains 400 iterations: at 40 its training win rate was still rising and it beat
 * a self-play policy only 0.40–0.43 of the time (no best response: a copy of the policy gets ½);
 * at 400 its 50-iteration means move by at most 0.05 over the last 150 iterations (9 of 9 runs,
 * seeds 1–3). Werewolf's 40 is not measured that way.
 */
const DEFAULTS: Record<string, PayoffScale> = {
  dond: { rounds: 150, episodes: 128, every: 8, equal: 'total', exploit: { iterations: 400, episodes: 128, evalEpisodes: 400 }, panelEpisodes: 100 },
  werewolf: { rounds: 100, episodes: 48, every: 8, equal: 'total', exploit: { iterations: 40, episodes: 48, evalEpisodes: 400 }, panelEpisodes: 100 },
};
const QUICK: PayoffScale = { rounds: 2, episodes: 8, every: 2, equal: 'total', exploit: { iterations: 2, episodes: 8, evalEpisodes: 10 }, panelEpisodes: 4 };

/** The scale from the flags over the env's defaults. */
function scaleOf(key: string, quick: boolean): PayoffScale {
  const d = quick ? QUICK : DEFAULTS[key];
  const equal = arg('equal') ?? d.equal;
  if (equal !== 'total' && equal !== 'main') throw new Error(`--equal: expected total or main, got "${equal}"`);
  return {
    rounds: num('rounds', d.rounds),
    episodes: num('episodes', d.episodes),
    every: num('every', d.every),
    equal,
    exploit: { iterations: num('exploit-iterations', d.exploit.iterations), episodes: num('exploit-episodes', d.exploit.episodes), evalEpisodes: num('exploit-eval', d.exploit.evalEpisodes) },
    panelEpisodes: num('panel-episodes', d.panelEpisodes),
  };
}

/** The run folder of an env holds the scale (and `--example` file's text) it was started with; a rerun with others is refused (it would mix results). */
export function checkScale(dir: string, scale: PayoffScale, seeds: readonly number[], example?: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'scale.json');
  const text = JSON.stringify({ ...scale, seeds, ...(example ? { example: readFileSync(example, 'utf8') } : {}) });
  if (!existsSync(file)) return writeFileSync(file, text);
  if (readFileSync(file, 'utf8') !== text) throw new Error(`payoff: ${dir} holds a run of another scale or example (see ${file}); use another --dir, or the same flags to resume it`);
}

/** The `--example` file (absolute), checked: one env with it, and the file exists. */
export function exampleFlag(envs: readonly string[], value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (envs.length !== 1) throw new Error("--example: give one --env with it (the file is that env's league config)");
  const file = resolve(value);
  if (!existsSync(file)) throw new Error(`--example: no file ${file}`);
  return file;
}

export async function payoffTask(quick: boolean): Promise<TaskReport> {
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  const envs = (arg('env') ?? 'dond,werewolf').split(',');
  for (const e of envs) if (!PAYOFF_SPECS[e]) throw new Error(`--env: unknown "${e}" (known: ${Object.keys(PAYOFF_SPECS).join(', ')})`);
  const seeds = (arg('seeds') ?? (quick ? '1' : '1,2,3')).split(',').map(Number);
  const jobs = num('jobs', 1);
  const step = arg('step');
  const example = exampleFlag(envs, arg('example'));
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  const targets: TaskReport['targets'] = [];
  const registry = createRegistry();
  for (const key of envs) {
    const scale = scaleOf(key, quick);
    const dir = resolve(arg('dir') ?? join('runs', quick ? 'payoff-quick' : 'payoff'), key);
    const run: PayoffRun = { spec: example ? { ...PAYOFF_SPECS[key], example } : PAYOFF_SPECS[key], scale, seeds, dir, registry, signal: stop.signal, log: (l) => console.error(l) };
    if (step) {
      if (!step.startsWith(`${key}:`)) continue;
      const ok = await runStep(run, step.slice(key.length + 1));
      process.exit(ok ? 0 : 3);
    }
    checkScale(dir, scale, seeds, example);
    const results = await runPayoff(run, jobs, jobs > 1 ? (k) => childStep(`${key}:${k}`) : undefined);
    if (!results) {
      console.error(`payoff ${key}: stopped; rerun the same command to resume from ${dir}`);
      process.exit(130);
    }
    const load = loadavg().map((x) => x.toFixed(1)).join(' ');
    printPayoff(run.spec, scale, results, load);
    const league = (await exampleOf(run)).example;
    const learners = league.learners as { id: string; type?: string; sources?: { kind: string; of?: string }[] }[];
    const mains = new Set(learners.filter((l) => (l.type ?? 'main') === 'main').map((l) => l.id));
    const exploiters = learners.filter((l) => l.type === 'main-exploiter').map((l) => ({ id: l.id, targets: (l.sources ?? []).flatMap((s) => (s.kind === 'learner' && s.of && mains.has(s.of) ? [s.of] : [])) }));
    printExploiterCurves(exploiterCurves(dir, (seed) => `${league.name as string}-league-${seed}`, seeds, exploiters));
    const g = goalMet(results);
    targets.push({ name: `${key}: league arm less exploitable than both others (paired 95% excludes 0)`, value: g.exploit ? 1 : 0, goal: 'met', pass: g.exploit });
    targets.push({ name: `${key}: league arm not worse on the held-out panel`, value: g.panel ? 1 : 0, goal: 'met', pass: g.panel });
  }
  return {
    task: `Payoff: three arms at equal samples (${envs.join(', ')}; seeds ${seeds.join(', ')})`,
    targets,
    notes: ['CPU time is of this process and the steps it ran in it; with --jobs the children report theirs in the tables (CPU-s columns)'],
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: cpuSeconds() - cpu0,
    iterations: 0,
    curve: [],
  };
}
