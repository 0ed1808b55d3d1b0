/**
 * werewolf-v1 throughput: random self-play through the public env API (init, toAct, observe for
 * every decision, legalActions, step), per preset; plus the same games through `runMatch` with
 * the generic `random` agent. Prints a markdown table; best of --repeat runs per row.
 * Usage: npm run bench:werewolf [-- --seconds 2 --repeat 3]
 */
import { cpus, loadavg } from 'node:os';
import { randomAgent } from '../agents/random';
import { make } from '../app/catalog';
import type { Env } from '../src/core/env';
import type { Params } from '../src/core/params';
import { Rng } from '../src/core/rng';
import { runMatch } from '../src/match/runner';

interface Measure {
  games: number;
  decisions: number;
  steps: number;
  /** Wall-clock seconds, and CPU seconds of this process (user + system). */
  secs: number;
  cpu: number;
}

const cpuSecs = (since: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1e6;
};

/** Random games straight through the env API for about `seconds`. */
function envApi(env: Env, params: Params, seconds: number): Measure {
  const rng = Rng.fromSeed('bench');
  const n = env.seats(env.init(params, 0)).length;
  let games = 0;
  let decisions = 0;
  let steps = 0;
  let sink = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const end = Date.now() + seconds * 1000;
  // One reusable action map: an array is a valid ActionMap (seat -> action), much cheaper to
  // fill than `{}` in V8, and `step` only reads the seats it asked for (it keeps no reference).
  const actions: unknown[] = new Array(n).fill(0);
  for (let seed = 0; ; seed++) {
    let s = env.init(params, seed);
    while (!env.isTerminal(s)) {
      const toAct = env.toAct(s);
      for (let i = 0; i < toAct.length; i++) {
        const seat = toAct[i];
        const obs = env.observe(s, seat) as { ask: unknown };
        if (obs.ask === null) sink++;
        const legal = env.legalActions!(s, seat)!;
        actions[seat] = legal[rng.int(legal.length)];
        decisions++;
      }
      s = env.step(s, actions).state;
      steps++;
    }
    games++;
    if ((games & 255) === 0 && Date.now() >= end) break;
  }
  if (sink < 0) console.log(sink);
  return { games, decisions, steps, secs: Number(process.hrtime.bigint() - t0) / 1e9, cpu: cpuSecs(c0) };
}

/** The same games through the match runner with the generic random agent. */
async function runner(env: Env, params: Params, seconds: number): Promise<Measure> {
  const seats = env.seats(env.init(params, 0)).length;
  const agents = Array.from({ length: seats }, (_, i) => randomAgent.create({ env, params, seed: i }));
  let games = 0;
  let decisions = 0;
  let steps = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const end = Date.now() + seconds * 1000;
  for (let seed = 0; ; seed++) {
    const r = await runMatch({ env, params, seed, agents, matchId: 'bench' });
    games++;
    decisions += r.decisions;
    steps += r.length;
    if ((games & 63) === 0 && Date.now() >= end) break;
  }
  return { games, decisions, steps, secs: Number(process.hrtime.bigint() - t0) / 1e9, cpu: cpuSecs(c0) };
}

function best(ms: Measure[], by: 'secs' | 'cpu'): Measure {
  return ms.reduce((a, b) => (b.decisions / b[by] > a.decisions / a[by] ? b : a));
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) || fallback : fallback;
  };
  const seconds = arg('--seconds', 2);
  const repeat = arg('--repeat', 3);
  const configs: [string, Record<string, unknown>][] = [
    ['arena, debateTurns 0', { preset: 'arena', debateTurns: 0 }],
    ['arena (8 debate turns)', { preset: 'arena' }],
    ['lspo', { preset: 'lspo' }],
    ['witch-guard', { preset: 'witch-guard' }],
  ];
  console.log(
    `werewolf-v1 random self-play, ${seconds} s per run, best of ${repeat}, node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
  );
  console.log('API: init/toAct/observe (every decision)/legalActions/step; wall = wall-clock rate, cpu = per CPU-second of this process (less sensitive to other load).\n');
  console.log('| preset | API games/s wall | API decisions/s wall | API games/s cpu | API decisions/s cpu | decisions/game | steps/game | runner games/s wall | runner decisions/s wall |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const f = (x: number) => Math.round(x).toLocaleString('en-US');
  for (const [name, raw] of configs) {
    const { env, params } = make('werewolf-v1', raw);
    envApi(env, params, 0.3);
    const apis = Array.from({ length: repeat }, () => envApi(env, params, seconds));
    const wall = best(apis, 'secs');
    const cpu = best(apis, 'cpu');
    await runner(env, params, 0.3);
    const runs: Measure[] = [];
    for (let k = 0; k < repeat; k++) runs.push(await runner(env, params, seconds));
    const run = best(runs, 'secs');
    console.log(
      `| ${name} | ${f(wall.games / wall.secs)} | ${f(wall.decisions / wall.secs)} | ${f(cpu.games / cpu.cpu)} | ${f(cpu.decisions / cpu.cpu)} | ${(wall.decisions / wall.games).toFixed(1)} | ${(wall.steps / wall.games).toFixed(1)} | ${f(run.games / run.secs)} | ${f(run.decisions / run.secs)} |`,
    );
  }
}

void main();
