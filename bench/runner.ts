/**
 * Runner throughput: decisions per second through `runMatch` with seeded random agents,
 * for a trivial sequential env, the example env and every registered env.
 * Usage: npm run bench:runner [-- --seconds 3]
 */
import { resolve } from 'node:path';
import { randomAgent } from '../agents/random';
import { createRegistry } from '../app/catalog';
import type { Env } from '../src/core/env';
import { runMatch } from '../src/match/runner';
import { countEnv } from './trivial-env';

async function measure(env: Env, seconds: number): Promise<{ decisions: number; games: number; secs: number }> {
  const params = env.resolveParams({});
  const seats = env.seats(env.init(params, 0)).length;
  const agents = Array.from({ length: seats }, (_, i) => randomAgent.create({ env, params, seed: i }));
  let decisions = 0;
  let games = 0;
  const warmEnd = Date.now() + 300;
  for (let seed = 0; Date.now() < warmEnd; seed++) await runMatch({ env, params, seed, agents, matchId: 'b' });
  const t0 = process.hrtime.bigint();
  const end = Date.now() + seconds * 1000;
  for (let seed = 0; ; seed++) {
    const r = await runMatch({ env, params, seed, agents, matchId: 'b' });
    decisions += r.decisions;
    games++;
    if ((games & 63) === 0 && Date.now() >= end) break;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  return { decisions, games, secs };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 3;
  const registry = createRegistry();
  registry.registerEnv(countEnv);
  await registry.loadModule(resolve(__dirname, '..', '..', 'examples', 'rock-paper-scissors.js'));
  const ids = ['count-to-n-v1', 'rock-paper-scissors-v1', ...registry.envIds().filter((id) => id !== 'count-to-n-v1' && id !== 'rock-paper-scissors-v1')];
  console.log(`runner throughput, random agents, ${seconds} s per env, node ${process.version}\n`);
  console.log('| env | decisions/s | games/s | decisions/game |');
  console.log('|---|---:|---:|---:|');
  for (const id of ids) {
    const m = await measure(registry.env(id), seconds);
    const f = (x: number) => Math.round(x).toLocaleString('en-US');
    console.log(`| ${id} | ${f(m.decisions / m.secs)} | ${f(m.games / m.secs)} | ${(m.decisions / m.games).toFixed(1)} |`);
  }
}

void main();
