/**
 * The payoff experiment (issue 26) for one env: per seed, the three arms (arms.ts) train as
 * leagues at equal samples; then each arm's final policy is measured by exploitability (a
 * fresh exploiter trained against it for a fixed budget, league/exploit) and by a held-out
 * panel (scripted variants no arm trained against, and the final policies of the other seeds'
 * runs, which no run of this seed met). Exploiters and panel episodes use the same seeds for
 * every arm of a seed, so arms pair episode by episode as well as seed by seed.
 *
 * Every step is resumable: the leagues resume from their databases, the exploiters from their
 * checkpoints, and finished steps are recorded in the run folder's ledger (ledger.ts), so a
 * killed run continues where it was when rerun with the same folder. Steps run in this process,
 * or `jobs` at a time in child processes (one core each).
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../../src/core/env';
import type { Params } from '../../../src/core/params';
import type { Registry } from '../../../src/core/registry';
import { Store } from '../../../src/store/store';
import type { TrainConfigInput } from '../../../src/train/config';
import { checkpointFile } from '../../../src/train/run-state';
import { learnerId } from '../../../src/train/role-groups';
import { parseLeagueConfig } from '../../../league/config';
import { runLeague } from '../../../league/league-run';
import { measureExploitability, type ExploitReport } from '../../../league/exploit/best-response';
import { scorePanel, type PanelReport } from '../../../league/exploit/panel';
import { poolFromRefs } from '../../../league/exploit/pool';
import { cpuSeconds } from '../common';
import { ARMS, armConfig, episodesPerRound, type Arm, type ArmScale, type ArmSpec, type RawConfig } from './arms';
import { Ledger } from './ledger';
import { runSteps, type Step } from './steps';

/** One env's experiment. */
export interface PayoffEnvSpec extends ArmSpec {
  key: string;
  title: string;
  /** Arm c's league config (examples/leagues/<env>-payoff.json). */
  example: string;
  /** The exploiters' training config (hidden, lr, actions, ...). */
  exploitOptions: TrainConfigInput;
  /** Held-out scripted opponents: each a pool of agent references. */
  panel: { name: string; refs: string[] }[];
}

/** The scale of a run. */
export interface PayoffScale extends ArmScale {
  exploit: { iterations: number; episodes: number; evalEpisodes: number };
  panelEpisodes: number;
}

/** What a run needs. */
export interface PayoffRun {
  spec: PayoffEnvSpec;
  scale: PayoffScale;
  seeds: readonly number[];
  /** The run folder (leagues, exploiters, ledger); rerun with the same one to resume. */
  dir: string;
  registry: Registry;
  backend?: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** A finished arm's training. */
export interface TrainRecord {
  /** Checkpoint files of its main learners' final policies (copied into `<dir>/policies`). */
  policies: string[];
  /** Training episodes over the run: of the main learners, of all learners. */
  episodes: { main: number; total: number };
  matches: number;
  cpu: number;
}

/** One arm of one seed, measured. */
export interface ArmResult {
  seed: number;
  arm: Arm;
  train: TrainRecord;
  exploit: ExploitReport & { cpu: number };
  panel: PanelReport & { cpu: number };
}

const trainKey = (arm: Arm, seed: number) => `train-${arm}-${seed}`;
const exploitKey = (arm: Arm, seed: number) => `exploit-${arm}-${seed}`;
const panelKey = (arm: Arm, seed: number) => `panel-${arm}-${seed}`;

/** The steps of a run, in an order that respects their dependencies. */
export function payoffSteps(seeds: readonly number[]): Step[] {
  const trains = seeds.flatMap((s) => ARMS.map((a) => trainKey(a, s)));
  return [
    ...trains.map((key) => ({ key, after: [] })),
    ...seeds.flatMap((s) => ARMS.map((a) => ({ key: exploitKey(a, s), after: [trainKey(a, s)] }))),
    ...seeds.flatMap((s) => ARMS.map((a) => ({ key: panelKey(a, s), after: trains }))),
  ];
}

/** The example config, the env and its params. */
export async function exampleOf(r: PayoffRun): Promise<{ example: RawConfig; env: Env; params: Params }> {
  const example = JSON.parse(readFileSync(r.spec.example, 'utf8')) as RawConfig;
  const env = await r.registry.resolveEnv(example.env as string);
  return { example, env, params: env.resolveParams(example.params) };
}

/** The neural agent reference of a policy file (sampling, as trained). */
export const policyRef = (file: string) => `neural:${JSON.stringify({ checkpoint: file, mode: 'sample' })}`;

/** Runs one step (skipped when the ledger holds it); false when the signal stopped it. */
export async function runStep(r: PayoffRun, key: string): Promise<boolean> {
  const ledger = new Ledger(r.dir);
  if (ledger.has(key)) return true;
  const parts = key.split('-');
  const kind = parts[0];
  const a = parts.slice(1, -1).join('-') as Arm;
  const seed = Number(parts[parts.length - 1]);
  if (!['train', 'exploit', 'panel'].includes(kind) || !ARMS.includes(a) || !Number.isInteger(seed)) throw new Error(`payoff: unknown step "${key}"`);
  const c0 = cpuSeconds();
  const value = kind === 'train' ? await trainArm(r, a, seed) : kind === 'exploit' ? await exploitArm(r, ledger, a, seed) : await panelArm(r, ledger, a, seed);
  const cpu = cpuSeconds() - c0;
  if (value === null) {
    ledger.addSpent(key, cpu);
    return false;
  }
  ledger.put(key, { ...value, cpu: cpu + (ledger.get<number>(`spent-${key}`) ?? 0) });
  return true;
}

/** Trains one arm of one seed as a league (resumed from its database). */
async function trainArm(r: PayoffRun, arm: Arm, seed: number): Promise<Omit<TrainRecord, 'cpu'> | null> {
  const { example } = await exampleOf(r);
  const raw = armConfig(example, r.spec, arm, seed, r.scale);
  const config = parseLeagueConfig(raw);
  const name = `${arm}-${seed}`;
  const workDir = join(r.dir, name);
  const store = new Store(join(r.dir, `${name}.db`));
  try {
    const every = Math.max(1, Math.floor(config.budget.matches / 10));
    const res = await runLeague({
      config,
      store,
      registry: r.registry,
      workDir,
      backend: r.backend,
      signal: r.signal,
      log: (line) => r.log?.(`${r.spec.key} ${name}: ${line}`),
      onMatch: (_m, done, total) => {
        if (done % every === 0) r.log?.(`${r.spec.key} ${name}: ${done}/${total} league matches, ${cpuSeconds().toFixed(0)} CPU-s in this process`);
      },
    });
    if (res.stopped || res.completed < config.budget.matches) return null;
  } finally {
    store.close();
  }
  mkdirSync(join(r.dir, 'policies'), { recursive: true });
  const policies = r.spec.mains.map((m) => {
    const l = config.learners.find((x) => x.id === m)!;
    const file = join(r.dir, 'policies', `${name}-${m}.json`);
    copyFileSync(checkpointFile(join(workDir, m), learnerId(l.roles), 'latest'), file);
    return file;
  });
  const per = episodesPerRound(raw, r.spec);
  return { policies, episodes: { main: per.main * r.scale.rounds, total: per.total * r.scale.rounds }, matches: config.budget.matches };
}

/** Exploitability of one arm's final policy: the same exploiter seed for every arm of a seed. */
async function exploitArm(r: PayoffRun, ledger: Ledger, arm: Arm, seed: number): Promise<ExploitReport | null> {
  const { env, params } = await exampleOf(r);
  const trained = ledger.get<TrainRecord>(trainKey(arm, seed))!;
  const seats = env.seats(env.init(params, 0)).length;
  const target = await poolFromRefs(r.registry, env, params, trained.policies.map(policyRef), seats, seed);
  const x = r.scale.exploit;
  return measureExploitability({
    env,
    params,
    registry: r.registry,
    target,
    iterations: x.iterations,
    config: { ...r.spec.exploitOptions, episodesPerIteration: x.episodes },
    seed: 1000 + seed,
    evalEpisodes: x.evalEpisodes,
    backend: r.backend,
    outDir: join(r.dir, 'exploit', `${arm}-${seed}`),
    signal: r.signal,
    onIteration: (m) => {
      if (m.iteration % 10 === 0) r.log?.(`${r.spec.key} exploit ${arm}-${seed}: iteration ${m.iteration}/${x.iterations}`);
    },
  });
}

/** The held-out panel of seed `seed`: the scripted variants and every arm's final policy of the other seeds. */
function panelOf(r: PayoffRun, ledger: Ledger, seed: number): { name: string; refs: string[] }[] {
  const others = r.seeds.filter((s) => s !== seed).flatMap((s) => ARMS.map((a) => ({ name: `${a}-seed${s}`, refs: ledger.get<TrainRecord>(trainKey(a, s))!.policies.map(policyRef) })));
  return [...r.spec.panel, ...others];
}

/** One arm's final policy against the held-out panel (the same episodes for every arm of a seed). */
async function panelArm(r: PayoffRun, ledger: Ledger, arm: Arm, seed: number): Promise<PanelReport | null> {
  const { env, params } = await exampleOf(r);
  const seats = env.seats(env.init(params, 0)).length;
  const trained = ledger.get<TrainRecord>(trainKey(arm, seed))!;
  const policy = await poolFromRefs(r.registry, env, params, trained.policies.map(policyRef), seats, seed);
  const members = [];
  for (const m of panelOf(r, ledger, seed)) members.push({ name: m.name, pool: await poolFromRefs(r.registry, env, params, m.refs, seats, 2000 + seed) });
  return scorePanel(env, params, policy, members, r.scale.panelEpisodes, 2000 + seed, r.signal);
}

/**
 * Runs every step not yet recorded, `jobs` at a time through `runOne` (default: in this
 * process, one at a time); resolves to the results, or null when the signal stopped the run.
 */
export async function runPayoff(r: PayoffRun, jobs = 1, runOne: (key: string) => Promise<boolean> = (key) => runStep(r, key)): Promise<ArmResult[] | null> {
  const ledger = new Ledger(r.dir);
  if (!(await runSteps(payoffSteps(r.seeds), (k) => ledger.has(k), jobs, runOne)) || r.signal?.aborted) return null;
  return r.seeds.flatMap((seed) =>
    ARMS.map((arm) => ({
      seed,
      arm,
      train: ledger.get<TrainRecord>(trainKey(arm, seed))!,
      exploit: ledger.get<ExploitReport & { cpu: number }>(exploitKey(arm, seed))!,
      panel: ledger.get<PanelReport & { cpu: number }>(panelKey(arm, seed))!,
    })),
  );
}
