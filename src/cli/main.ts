import { Command, CommanderError } from 'commander';
import { defaultRegistry } from '../catalog';
import { ParamError } from '../core/params';
import { RegistryError } from '../core/registry';
import { EnvDefinitionError } from '../core/normalize-env';
import { checkCommand } from './commands/check';
import { envsCommand } from './commands/envs';
import { goldenCommand } from './commands/golden';
import { playCommand } from './commands/play';
import { replayCommand } from './commands/replay';
import { DEFAULT_DB, leagueExportCommand, leagueMatchesCommand, leagueRunCommand, leagueTableCommand } from './commands/league';
import { LeagueConfigError } from '../../league/config';
import { LeagueLockedError } from '../../league/league-lock';
import { StoreConflictError, StoreError } from '../store/store';
import { FaultPolicyError } from '../match/fault-policy';
import { MatchFailureError } from '../match/match-failure';
import { demoCommand } from './commands/demo';
import { CheckpointError } from '../train/checkpoint';
import { PolicyLayoutError } from '../train/policy-model';
import { RunStateError } from '../train/run-state';
import { ConfigError } from '../train/config';
import { packageRoot } from '../package-root';
import { join } from 'node:path';
import { unsettledDecisions } from '../match/runner';
import { FailureError, oneLine, parseDeadlineOption, parseIntOption, UsageError } from './options';

/** Errors that are the user's input, printed as one line (exit 2) instead of a stack trace. */
function isUserError(e: unknown): e is Error {
  return (
    e instanceof UsageError ||
    e instanceof LeagueConfigError ||
    e instanceof StoreConflictError ||
    e instanceof ParamError ||
    e instanceof RegistryError ||
    e instanceof EnvDefinitionError ||
    e instanceof CheckpointError ||
    e instanceof PolicyLayoutError ||
    e instanceof RunStateError ||
    e instanceof StoreError ||
    e instanceof FaultPolicyError ||
    e instanceof ConfigError ||
    e instanceof LeagueLockedError
  );
}

/** Builds the `arena` command; `exit` receives the exit code. */
export function buildProgram(exit: (code: number) => void): Command {
  const registry = defaultRegistry;
  const program = new Command('arena')
    .description('selfplay-arena: environments, role-based agents, leagues and self-play training')
    .showHelpAfterError();
  const seedOpt = (v: string) => parseIntOption('--seed', v, 0);
  const countOpt = (name: string) => (v: string) => parseIntOption(name, v, 0);

  program
    .command('envs')
    .description('list environments (built-in and loaded)')
    .option('--json', 'machine-readable')
    .action((o: { json?: boolean }) => envsCommand(registry, !!o.json));

  program
    .command('check <env>')
    .description('run the conformance kit on an env id or a path to a JS module; exit 0 only when every check passes')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--episodes <n>', 'random playouts', countOpt('--episodes'), 20)
    .option('--seed <n>', 'base seed', seedOpt, 1)
    .option('--golden <file...>', 'golden playthrough files (JSONL) to replay')
    .option('--json', 'print the report as JSON')
    .action(async (ref: string, o) => exit(await checkCommand(registry, ref, o)));

  program
    .command('play <env>')
    .description('play episodes with the given agents (one name for all seats, or one per seat)')
    .requiredOption('--agents <list>', 'comma-separated agent names, name:{json options}, or module paths')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--seed <n>', 'seed of the first episode (episode k uses seed+k)', seedOpt, 0)
    .option('--episodes <n>', 'number of episodes', countOpt('--episodes'), 1)
    .option('--deadline <ms>', 'per-decision time limit in ms, or "none" (default: none for synchronous answers, 10 minutes for promises)', parseDeadlineOption)
    .option('--faults <policy>', 'fault policy: retry:N and forfeit|default (default forfeit)')
    .option('--watch <viewer>', 'print events as they happen for a viewer: public, omniscient or a seat')
    .option('--json', 'one JSON line per episode, then a summary line')
    .action(async (ref: string, o) => exit(await playCommand(registry, ref, o)));

  program
    .command('replay <env>')
    .description('step through given actions, reporting legality, events, returns and outcome')
    .requiredOption('--actions <json|file>', 'list of steps, each {seat: action}, e.g. [{"0":17},{"1":120}]')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--seed <n>', 'episode seed', seedOpt, 0)
    .option('--json', 'one JSON line per step')
    .action(async (ref: string, o) => exit(await replayCommand(registry, ref, o)));

  program
    .command('golden <env>')
    .description('record one episode as a golden playthrough (JSONL) for `arena check --golden`')
    .option('--agents <list>', 'agents playing the episode', 'random')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--seed <n>', 'episode seed', seedOpt, 0)
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (ref: string, o) => exit(await goldenCommand(registry, ref, o)));

  program
    .command('demo')
    .description('the demo: Countdown, Deal-or-No-Deal and Werewolf leagues with live spectating (what `npm start` runs)')
    .option('--port <n>', 'HTTP + socket.io port', countOpt('--port'), 8080)
    .option('--host <address>', 'interface to bind', '127.0.0.1')
    .option('--db <file>', 'SQLite database', 'arena-demo.db')
    .option('--pace <ms>', 'minimum time per decision, so games can be watched', countOpt('--pace'), 300)
    .option('--no-learners', 'baselines only (no training)')
    .action(async (o) => exit(await demoCommand(registry, packageRoot(), o)));

  const league = program.command('league').description('league tournaments: run (resumable), ratings table, matches, export');
  league
    .command('run')
    .description('run or resume a league from a JSON config; Ctrl-C stops cleanly; rerun the same command to resume')
    .requiredOption('--config <file>', 'league config (JSON)')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--quiet', 'no progress display')
    .option('--backend <name>', 'training backend for learners: tfjs-node-gpu, tfjs-node, wasm, cpu (default: the best available)')
    .action(async (o) => exit(await leagueRunCommand(registry, o)));
  league
    .command('table')
    .description('ratings per role: Bradley–Terry with bootstrap intervals (tied ranks marked =), Elo, OpenSkill')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--league <name>', 'league name (default: the latest)')
    .option('--resamples <n>', 'bootstrap resamples', countOpt('--resamples'))
    .option('--json', 'machine-readable')
    .action((o) => exit(leagueTableCommand(o)));
  league
    .command('matches')
    .description('the newest matches with players, returns and outcome codes')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--league <name>', 'league name (default: the latest)')
    .option('--limit <n>', 'how many', countOpt('--limit'), 20)
    .option('--json', 'one JSON line per match')
    .action((o) => exit(leagueMatchesCommand(o)));
  league
    .command('export')
    .description('all matches and their events as JSONL')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--league <name>', 'league name (default: the latest)')
    .option('--out <file>', 'write to a file instead of stdout')
    .action((o) => exit(leagueExportCommand(o)));

  // `arena train` (src/cli/commands/train.ts); required here so tfjs-related code loads only with it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./commands/train') as typeof import('./commands/train')).registerTrainCommand(program, registry, exit);

  program
    .command('serve')
    .description('serve the web page (live matches, replays, leaderboard, plots) and the spectator sockets over a store')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--port <n>', 'port (0 = any free one)', (v: string) => parseIntOption('--port', v, 8080), 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--allow-omniscient', 'allow omniscient and per-seat views of live matches')
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    .action(async (o) => exit(await (require('./commands/serve') as typeof import('./commands/serve')).serveCommand(o)));

  return program;
}

/**
 * Runs the `arena` command line in this thread; resolves to the exit code. A decision whose
 * promise never settles, with no deadline to end it, would let the event loop empty and the
 * process exit silently: it is reported by agent and seat, with exit code 1.
 */
export async function runCli(argv: string[]): Promise<number> {
  let settled = false;
  const onBeforeExit = () => {
    if (settled) return;
    const stuck = unsettledDecisions();
    if (!stuck.length) return;
    settled = true;
    for (const d of stuck) {
      process.stderr.write(
        `arena: agent "${d.agent}" (seat ${d.seat}) never answered at step ${d.step} of ${d.env} match ${d.matchId}: its promise never settled and no deadline was set (--deadline none); give a deadline (--deadline MS) to make it a timeout\n`,
      );
    }
    process.exitCode = 1;
  };
  process.on('beforeExit', onBeforeExit);
  let code = 0;
  const program = buildProgram((c) => (code = c));
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      code = e.exitCode;
    } else if (isUserError(e)) {
      process.stderr.write(`arena: ${oneLine(e.message)}\n`);
      code = 2;
    } else if (e instanceof FailureError || e instanceof MatchFailureError) {
      process.stderr.write(`arena: ${oneLine(e.message)}\n`);
      code = 1;
    } else {
      process.stderr.write(`arena: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      code = 1;
    }
  }
  settled = true;
  process.off('beforeExit', onBeforeExit);
  return code;
}

/**
 * Entry point of the `arena` bin: the command runs in a worker thread watched by this one
 * (src/cli/supervisor.ts), so that Ctrl-C always works and user code that never returns is
 * stopped with a message naming it. `ARENA_WORKER=0` runs it in this thread instead (no watchdog;
 * for debuggers and profilers).
 */
export async function main(argv: string[]): Promise<void> {
  if (process.env.ARENA_WORKER === '0') {
    process.exitCode = await runCli(argv);
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { superviseInWorker } = require('./supervisor') as typeof import('./supervisor');
  process.exitCode = await superviseInWorker(argv, join(__dirname, 'worker-entry.js'));
}
