/**
 * deal-or-no-deal-v1 benchmark: uniformly random self-play straight through the public env API
 * (make -> init, legal actions, step, isTerminal, returns), games/s and steps/s, with and without
 * building and encoding an observation for every decision. Prints a markdown table.
 *
 * Rows:
 *   legal ids        env.legalActions(state, seat) (OpenSpiel's LegalActions) -> pick -> step
 *   observe+sample   observe(state, seat) -> sampleAction(obs, rng) -> step (Env members only)
 *   observe+encode   observe(state, seat) -> encoder.encode(obs) -> pick from obs.legal -> step
 *
 * Usage: npm run bench:dond [-- --seconds 2 --runs 3]
 * Reference (issue 4): OpenSpiel's C++ bargaining plays ~310,000 random games/s (243,000 with
 * observation tensors) on the reference machine kind; the goal is at least half of each.
 */
import { make } from '../app/catalog';
import type { Env } from '../src/core/env';
import type { Params } from '../src/core/params';
import { Rng } from '../src/core/rng';
import type { DondObservation, DondState } from '../envs/deal-or-no-deal';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : dflt;
}

type Mode = 'legal ids' | 'observe+sample' | 'observe+encode';

interface Result {
  games: number;
  steps: number;
  /** Wall-clock seconds. */
  seconds: number;
  /** CPU seconds of this process (user + system), less sensitive to other load on the machine. */
  cpu: number;
  checksum: number;
}

/** Plays random games for about `seconds`; returns counts (checksum keeps the work observable). */
function run(env: Env<DondState, unknown, DondObservation>, params: Params, mode: Mode, seconds: number, seed0: number): Result {
  const rng = Rng.fromSeed(seed0);
  const enc = env.encoder!;
  const buf = new Float32Array(enc.size);
  const sample = env.sampleAction!;
  // One reusable action map per seat (step reads actions[seat] and keeps nothing of the map).
  const maps: Record<number, unknown>[] = [{}, {}];
  let games = 0;
  let steps = 0;
  let checksum = 0;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const limit = BigInt(Math.round(seconds * 1e9));
  let seed = seed0;
  for (;;) {
    for (let k = 0; k < 256; k++) {
      let s = env.init(params, seed++);
      while (!env.isTerminal(s)) {
        const seat = env.toAct(s)[0];
        let a: unknown;
        if (mode === 'legal ids') {
          const legal = env.legalActions!(s, seat)!;
          a = legal[rng.int(legal.length)];
        } else if (mode === 'observe+sample') {
          a = sample(env.observe(s, seat), rng);
        } else {
          const obs = env.observe(s, seat);
          buf.fill(0);
          enc.encode(obs, buf);
          checksum += buf[3];
          const legal = obs.protocol === 'openspiel' ? obs.legal : null;
          a = legal ? legal[rng.int(legal.length)] : sample(obs, rng);
        }
        const map = maps[seat];
        map[seat] = a;
        s = env.step(s, map).state;
        steps++;
      }
      checksum += env.returns(s)[0];
      games++;
    }
    if (process.hrtime.bigint() - t0 >= limit) break;
  }
  const cpu = process.cpuUsage(c0);
  return { games, steps, seconds: Number(process.hrtime.bigint() - t0) / 1e9, cpu: (cpu.user + cpu.system) / 1e6, checksum };
}

function fmt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

function main(): void {
  const seconds = arg('seconds', 2);
  const runs = arg('runs', 3);
  const configs: { label: string; params: Record<string, unknown>; modes: Mode[] }[] = [
    { label: 'openspiel (defaults)', params: {}, modes: ['legal ids', 'observe+sample', 'observe+encode'] },
    { label: 'openspiel prob_end 0.1, discount 0.9', params: { prob_end: 0.1, discount: 0.9 }, modes: ['legal ids', 'observe+encode'] },
    { label: 'dialogue (canonical random messages)', params: { protocol: 'dialogue' }, modes: ['observe+sample', 'observe+encode'] },
  ];
  const rows: string[] = [];
  for (const c of configs) {
    const { env, params } = make('deal-or-no-deal-v1', c.params);
    for (const mode of c.modes) {
      run(env, params, mode, Math.min(0.5, seconds), 1); // warm-up
      let best: Result | null = null;
      for (let r = 0; r < runs; r++) {
        const res = run(env, params, mode, seconds, 1000 + r * 7919);
        if (!best || res.games / res.seconds > best.games / best.seconds) best = res;
      }
      const b = best!;
      rows.push(
        `| ${c.label} | ${mode} | ${fmt(b.games / b.seconds)} | ${fmt(b.steps / b.seconds)} | ${fmt(b.games / b.cpu)} | ${(b.steps / b.games).toFixed(2)} |`,
      );
      process.stderr.write(`${c.label} / ${mode}: done (checksum ${b.checksum.toFixed(1)})\n`);
    }
  }
  const lines = [
    `deal-or-no-deal-v1 random self-play, Node ${process.version}, best of ${runs} runs x ${seconds} s`,
    '',
    '| params | per decision | games/s (wall) | steps/s (wall) | games per CPU-s | steps/game |',
    '|---|---|---:|---:|---:|---:|',
    ...rows,
    '',
    'Goal (issue 4): >= 155,000 games/s without and >= 121,500 games/s with observation encoding (half of OpenSpiel C++).',
    'Best run by wall-clock games/s; "games per CPU-s" divides by this process\'s CPU time (GC threads included).',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

main();
