/**
 * SPRT benchmark: games until decision for greedy against random in Deal-or-No-Deal (paired
 * games, logistic Elo [0, 5], α = β = 0.05), over several seeds, with wall time; then the same
 * for greedy against itself (H0 expected; capped at --max games).
 * Usage: npm run bench:sprt [-- --seeds 10 --max 20000]
 */
import { Store } from '../src/store/store';
import { createRegistry } from '../app/catalog';
import { parseTournamentConfig } from '../league/tournament/config';
import { storedTournamentReport } from '../league/tournament/stored';
import { runTournament } from '../league/tournament/tournament-run';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : dflt;
}

async function run(a: string, b: string, seed: number, maxGames: number): Promise<{ games: number; decision: string; llr: number; elo: number; ms: number }> {
  const store = new Store(':memory:');
  const config = parseTournamentConfig({
    name: 'bench',
    format: 'sprt',
    env: 'deal-or-no-deal-v1',
    seed,
    players: [
      { id: 'a', agent: a },
      { id: 'b', agent: b },
    ],
    sprt: { elo0: 0, elo1: 5, maxGames },
  });
  const t0 = process.hrtime.bigint();
  await runTournament({ config, store, registry: createRegistry() });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const r = storedTournamentReport(store, 'bench')!;
  store.close();
  return { games: r.games, decision: r.sprt!.decision ?? 'none', llr: r.sprt!.llr, elo: r.sprt!.elo.elo, ms };
}

async function main(): Promise<void> {
  const seeds = arg('seeds', 10);
  const max = arg('max', 20_000);
  console.log(`| match-up | seed | games | decision | LLR | Elo (logistic) | wall ms |`);
  console.log(`|---|---:|---:|---|---:|---:|---:|`);
  const rows: { games: number; decision: string }[] = [];
  for (const [a, b] of [['greedy', 'random'], ['greedy', 'greedy']]) {
    for (let seed = 1; seed <= seeds; seed++) {
      const r = await run(a, b, seed, max);
      if (a !== b) rows.push(r);
      console.log(`| ${a} vs ${b} | ${seed} | ${r.games} | ${r.decision} | ${r.llr.toFixed(2)} | ${r.elo.toFixed(0)} | ${r.ms.toFixed(0)} |`);
    }
  }
  const games = rows.map((r) => r.games).sort((x, y) => x - y);
  console.log(`\ngreedy vs random: H1 in ${rows.filter((r) => r.decision === 'H1').length}/${rows.length} runs; games to decision median ${games[Math.floor(games.length / 2)]}, min ${games[0]}, max ${games[games.length - 1]}`);
}

void main();
