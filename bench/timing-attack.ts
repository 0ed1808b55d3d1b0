/**
 * The Werewolf timing attack of issue 23 (bench/timing-attack/games.ts, attackers.ts): a slow agent (a fixed
 * delay per decision) and a fast scripted one, each holding one team, N games watched by a
 * spectator live (socket.io arrival times) and from the HTTP API over SQLite (`time` fields).
 * Prints, per attacker (the issue's per-seat decision times; the phase-duration fit) and channel,
 * the accuracy on wolf vs not-wolf with its permutation p-value; the control is the same games'
 * public events with the exact times of the log (the public stream without the release clock).
 * Usage: node dist/bench/timing-attack.js [--games 10] [--slow-ms 150]
 */
import { loadavg } from 'node:os';
import { accuracy, attack, permutationP, phaseAttack, type Guess, type Seen } from './timing-attack/attackers';
import { playObserved, type AttackRun } from './timing-attack/games';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const games = arg('--games', 10);
  const slowMs = arg('--slow-ms', 150);
  const load = loadavg()[0];
  const t0 = performance.now();
  const run = await playObserved({ games, slowMs, control: true });
  const secs = (performance.now() - t0) / 1000;
  const truth = run.games.map((g) => g.wolves);
  const row = (attacker: string, channel: string, pick: (g: AttackRun['games'][0]) => Seen[], f: (s: Seen[]) => Guess, seed: number) => {
    const guesses = run.games.map((g) => f(pick(g)));
    const a = accuracy(guesses, truth);
    return `| ${attacker} | ${channel} | ${a.right}/${a.total} | ${(a.right / a.total).toFixed(2)} | ${permutationP(guesses, truth, 2000, seed).toFixed(4)} |`;
  };
  const stated = (s: Seen[]) => attack(s, run.slowName, run.wolvesPerGame);
  const phases = (s: Seen[]) => phaseAttack(s, run.wolvesPerGame, run.games[0]?.wolves.length ?? 8);
  console.log(`${games} werewolf-v1 games (arena), slow agent ${slowMs} ms per decision, ${secs.toFixed(1)} s; load ${load.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after\n`);
  console.log('| attacker | channel | right | accuracy | permutation p |');
  console.log('|---|---|---|---|---|');
  console.log(row('per-seat decision time', 'public, live (socket arrival)', (g) => g.live, stated, 1));
  console.log(row('per-seat decision time', 'public, HTTP API over SQLite', (g) => g.api, stated, 2));
  console.log(row('per-seat decision time', 'control: exact times', (g) => g.control, stated, 3));
  console.log(row('phase durations', 'public, live (socket arrival)', (g) => g.live, phases, 4));
  console.log(row('phase durations', 'public, HTTP API over SQLite', (g) => g.api, phases, 5));
  console.log(row('phase durations', 'control: exact times', (g) => g.control, phases, 6));
}

void main();
