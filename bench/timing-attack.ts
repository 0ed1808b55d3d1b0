/**
 * The Werewolf timing attack of issue 23 (bench/timing-attack/attack.ts): a slow agent (a fixed
 * delay per decision) and a fast scripted one, each holding one team, N games watched by a
 * spectator live (socket.io arrival times) and from the HTTP API over SQLite (`time` fields).
 * Prints the attacker's accuracy on wolf vs not-wolf per channel with its permutation p-value,
 * and, as the control, the omniscient view (entitled to exact times) of the same games.
 * Usage: node dist/bench/timing-attack.js [--games 10] [--slow-ms 150]
 */
import { loadavg } from 'node:os';
import { attack, accuracy, permutationP, playObserved, score } from './timing-attack/attack';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const games = arg('--games', 10);
  const slowMs = arg('--slow-ms', 150);
  const t0 = performance.now();
  const run = await playObserved({ games, slowMs, control: true });
  const secs = (performance.now() - t0) / 1000;
  const s = score(run);
  const truth = run.games.map((g) => g.wolves);
  const control = run.games.map((g) => attack(g.control, run.slowName, run.wolvesPerGame));
  const c = { ...accuracy(control, truth), p: permutationP(control, truth, 2000, 3) };
  const row = (name: string, x: { right: number; total: number; p: number }) =>
    `| ${name} | ${x.right}/${x.total} | ${(x.right / x.total).toFixed(2)} | ${x.p.toFixed(4)} |`;
  console.log(`${games} werewolf-v1 games (arena), slow agent ${slowMs} ms per decision, ${secs.toFixed(1)} s; load ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
  console.log('| channel | right | accuracy | permutation p |');
  console.log('|---|---|---|---|');
  console.log(row('public, live (socket arrival times)', s.live));
  console.log(row('public, HTTP API from SQLite (time fields)', s.api));
  console.log(row('control: omniscient view, HTTP API (exact times)', c));
}

void main();
