import type { Registry } from '../../../src/core/registry';
import { Store } from '../../../src/store/store';
import { parseTournamentConfig } from '../../../league/tournament/config';
import { reportJson, tournamentReport } from '../../../league/tournament/report';
import { parseJsonOption, UsageError } from '../options';
import { formatSprt } from '../tournament-format';
import { runTournamentCommand, type LiveServeArgs } from './tournament';
import { jsonText } from '../json-output';
import type { SchedulerRedisArgs } from '../redis-options';

export interface SprtArgs extends LiveServeArgs, SchedulerRedisArgs {
  a: string;
  b: string;
  env: string;
  params?: string;
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  model: string;
  maxGames: number;
  seed: number;
  unpaired?: boolean;
  deadline?: number;
  faults?: string;
  /** Record the games in this database (resumable, shown in the page); default: in memory only. */
  db?: string;
  name: string;
  /** Print a status line every this many games (default: every game pair, at most one line a second). */
  every?: number;
  json?: boolean;
}

/**
 * `arena sprt --a SPEC --b SPEC --env ENV --elo0 E0 --elo1 E1`: plays A against B in game pairs
 * (seats swapped on one seed) and runs fishtest's GSPRT on the pentanomial results (trinomial
 * with --unpaired) until H0 or H1 is accepted or the game limit is reached, printing the LLR and
 * its bounds as it goes. Exit code 0 for H1, 1 for H0, 3 when undecided.
 */
export async function sprtCommand(registry: Registry, args: SprtArgs): Promise<number> {
  if (args.model !== 'logistic' && args.model !== 'normalized') throw new UsageError(`--model: expected logistic or normalized, got "${args.model}"`);
  const config = parseTournamentConfig({
    name: args.name,
    format: 'sprt',
    env: args.env,
    params: parseJsonOption('--params', args.params) ?? {},
    seed: args.seed,
    players: [
      { id: 'A', agent: args.a },
      { id: 'B', agent: args.b },
    ],
    paired: !args.unpaired,
    sprt: { elo0: args.elo0, elo1: args.elo1, alpha: args.alpha, beta: args.beta, model: args.model, maxGames: args.maxGames },
    ...(args.deadline !== undefined ? { deadlineMs: args.deadline } : {}),
    ...(args.faults ? { faults: args.faults } : {}),
  });
  const store = new Store(args.db ?? ':memory:');
  try {
    const matches = () => store.matches(config.name);
    const rounds = () => store.rounds(config.name);
    let last = 0;
    let lastGames = 0;
    const status = () => formatSprt(tournamentReport(config, matches(), rounds()));
    await runTournamentCommand(registry, config, store, args, {
      onGame: (g) => {
        if (args.json) return;
        const pairDone = !config.paired || g.done % 2 === 0;
        const due = args.every !== undefined ? g.done - lastGames >= args.every : pairDone && Date.now() - last >= 1000;
        if (!due) return;
        last = Date.now();
        lastGames = g.done;
        process.stderr.write(`${status()}\n`);
      },
    });
    const report = tournamentReport(config, matches(), rounds());
    process.stdout.write((args.json ? jsonText({ ...(reportJson(report) as { sprt: object }).sprt, games: report.games, a: args.a, b: args.b, env: args.env }) : formatSprt(report)) + '\n');
    return report.sprt?.decision === 'H1' ? 0 : report.sprt?.decision === 'H0' ? 1 : 3;
  } finally {
    store.close();
  }
}
