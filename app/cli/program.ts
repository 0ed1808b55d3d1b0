/**
 * The `arena` command line's definition: every command with its options and help. Nothing here
 * loads a command's code: each action requires its module (app/cli/commands/) and the catalog of
 * built-in envs and agents (app/catalog.ts) when that command runs, so `arena --version` or
 * `arena envs` never load the server, the store, the trainer or Redis (bench/startup.ts).
 */
import { Command } from 'commander';
import type { Registry } from '../../src/core/registry';
import { packageRoot, packageVersion } from '../../src/package-root';
import { parseDeadlineOption, parseIntOption, parseNumberOption, UsageError } from './options';
import { LOBBY_PLAY_DEFAULTS } from './lobby-play-options';
import { DEFAULT_DB } from './defaults';
import { registerTrainCommand } from './train-options';
import { DEFAULT_TOURNAMENT_IN_FLIGHT } from '../../league/tournament/defaults';
import { EXPLOIT_DEFAULTS } from '../../league/exploit/defaults';

/** The help of `--batch`, the same for every scheduled command that takes --redis. */
const BATCH_HELP = 'with --redis: plans per job, folded in one transaction (default: half of --in-flight, at most 16; 1 for slow matches spread over many workers)';

/* eslint-disable @typescript-eslint/no-require-imports */
/** The command modules, each loaded when its command runs. */
const cmd = {
  check: () => require('./commands/check') as typeof import('./commands/check'),
  demo: () => require('./commands/demo') as typeof import('./commands/demo'),
  envServe: () => require('./commands/env-serve') as typeof import('./commands/env-serve'),
  envs: () => require('./commands/envs') as typeof import('./commands/envs'),
  exploit: () => require('./commands/exploit') as typeof import('./commands/exploit'),
  golden: () => require('./commands/golden') as typeof import('./commands/golden'),
  league: () => require('./commands/league') as typeof import('./commands/league'),
  leagueStatus: () => require('./commands/league-status') as typeof import('./commands/league-status'),
  play: () => require('./commands/play') as typeof import('./commands/play'),
  replay: () => require('./commands/replay') as typeof import('./commands/replay'),
  rollouts: () => require('./commands/rollouts') as typeof import('./commands/rollouts'),
  serve: () => require('./commands/serve') as typeof import('./commands/serve'),
  sprt: () => require('./commands/sprt') as typeof import('./commands/sprt'),
  tasks: () => require('./commands/tasks') as typeof import('./commands/tasks'),
  tournament: () => require('./commands/tournament') as typeof import('./commands/tournament'),
  train: () => require('./commands/train') as typeof import('./commands/train'),
  worker: () => require('./commands/worker') as typeof import('./commands/worker'),
};

/** Builds the `arena` command; `exit` receives the exit code. */
export function buildProgram(exit: (code: number) => void): Command {
  // The catalog loads every built-in env and agent: only the commands that use it load it.
  const registry = (): Registry => (require('../catalog') as typeof import('../catalog')).defaultRegistry;
  const program = new Command('arena')
    .description('selfplay-arena: environments, role-based agents, leagues and self-play training')
    .version(packageVersion(), '-V, --version', 'print the package version')
    .showHelpAfterError();
  const seedOpt = (v: string) => parseIntOption('--seed', v, 0);
  const countOpt = (name: string) => (v: string) => parseIntOption(name, v, 0);

  program
    .command('envs')
    .description('list environments (built-in and loaded)')
    .option('--json', 'machine-readable')
    .action((o: { json?: boolean }) => cmd.envs().envsCommand(registry(), !!o.json));

  program
    .command('check <env>')
    .description('run the conformance kit on an env id or a path to a JS module; exit 0 only when every check passes')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--episodes <n>', 'random playouts', countOpt('--episodes'), 20)
    .option('--seed <n>', 'base seed', seedOpt, 1)
    .option('--golden <file...>', 'golden playthrough files (JSONL) to replay')
    .option('--json', 'print the report as JSON')
    .option('--no-exploits', "skip the env's exploit fixtures (they run programs in the sandbox)")
    .action(async (ref: string, o) => exit(await cmd.check().checkCommand(registry(), ref, o)));

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
    .option('--port <n>', 'with human or remote seats: port of the page and /play sockets (0 = any free one)', (v: string) => parseIntOption('--port', v, 0), 0)
    .option('--host <host>', 'with human or remote seats: interface to listen on', '127.0.0.1')
    .option('--tokens <file>', 'with human or remote seats: write the seat tokens to this file (mode 0600) instead of printing them')
    .action(async (ref: string, o) => exit(await cmd.play().playCommand(registry(), ref, o)));

  program
    .command('rollouts <env>')
    .description('play episodes and write one JSON line per decision for LLM RL trainers: messages, completion, reward, GRPO group and advantages (docs/rollouts.md)')
    .requiredOption('--agents <list>', 'comma-separated agent names, name:{json options} (e.g. llm:{...}), or module paths')
    .requiredOption('--out <file>', 'JSONL file to write ("-" for stdout)')
    .option('--episodes <n>', 'number of episodes (a multiple of --group-size)', countOpt('--episodes'), 1)
    .option('--group-size <n>', 'episodes per group sharing one start state (seed), for GRPO / RLOO', countOpt('--group-size'), 1)
    .option('--roles <list>', 'record only these roles (default: all)')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--seed <n>', 'seed of the first group (group g uses seed+g)', seedOpt, 0)
    .option('--deadline <ms>', 'per-decision time limit', countOpt('--deadline'))
    .option('--faults <policy>', 'fault policy: retry:N and forfeit|default (default forfeit)')
    .option('--format <name>', "jsonl, or verl: a Parquet file in verl's schema (data_source, prompt, ability, reward_model, extra_info)", 'jsonl')
    .action(async (ref: string, o) => exit(await cmd.rollouts().rolloutsCommand(registry(), ref, o)));

  program
    .command('replay <env>')
    .description('step through given actions, reporting legality, events, returns and outcome')
    .requiredOption('--actions <json|file>', 'list of steps, each {seat: action}, e.g. [{"0":17},{"1":120}], or a golden playthrough file (its params and seed are used)')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--seed <n>', 'episode seed', seedOpt, 0)
    .option('--json', 'one JSON line per step')
    .option('--rerun', 're-perform recorded effects (run the programs again) and report any difference; exit 1 if one differs')
    .action(async (ref: string, o) => exit(await cmd.replay().replayCommand(registry(), ref, o)));

  program
    .command('golden <env>')
    .description('record one episode as a golden playthrough (JSONL) for `arena check --golden`')
    .option('--agents <list>', 'agents playing the episode', 'random')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--seed <n>', 'episode seed', seedOpt, 0)
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (ref: string, o) => exit(await cmd.golden().goldenCommand(registry(), ref, o)));

  program
    .command('tasks')
    .description('code tasks: `arena tasks check FILE.jsonl [--format humaneval]`')
    .command('check <file>')
    .description("run every task's reference against its own tests in the sandbox (and its buggy variants against the hidden tests); exit 1 if any fails")
    .option('--format <format>', 'arena (the project\'s JSONL) or humaneval', 'arena')
    .option('--concurrency <n>', 'tasks checked at once', countOpt('--concurrency'), 4)
    .action(async (file: string, o) => exit(await cmd.tasks().tasksCheckCommand(registry(), file, o)));

  program
    .command('demo')
    .description('the demo: Countdown, Deal-or-No-Deal and Werewolf leagues with live spectating (what `npm start` runs)')
    .option('--port <n>', 'HTTP + socket.io port', countOpt('--port'), 8080)
    .option('--host <address>', 'interface to bind', '127.0.0.1')
    .option('--db <file>', 'SQLite database', 'arena-demo.db')
    .option('--pace <ms>', 'minimum time per decision, so games can be watched', countOpt('--pace'), 300)
    .option('--no-learners', 'baselines only (no training)')
    .option('--allow-play', 'let visitors start games with a human seat from the lobby (POST /api/play)')
    .option('--play-limit <n>', `with --allow-play: games at once (default ${LOBBY_PLAY_DEFAULTS.limit})`, countOpt('--play-limit'))
    .option('--play-idle <seconds>', `with --allow-play: how long a decision may wait before the seat forfeits (default ${LOBBY_PLAY_DEFAULTS.idleSeconds})`, countOpt('--play-idle'))
    .action(async (o) => exit(await cmd.demo().demoCommand(registry(), packageRoot(), o)));

  const league = program.command('league').description('league tournaments: run (resumable), ratings table, matches, export');
  league
    .command('run')
    .description('run or resume a league from a JSON config; Ctrl-C stops cleanly; rerun the same command to resume')
    .requiredOption('--config <file>', 'league config (JSON)')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--quiet', 'no progress display')
    .option('--backend <name>', 'training backend for learners: tfjs-node-gpu, tfjs-node, wasm, cpu (default: the best available)')
    .option('--port <n>', 'with remote or human players: port of the page and /play sockets (0 = any free one)', (v: string) => parseIntOption('--port', v, 0), 0)
    .option('--host <host>', 'with remote or human players: interface to listen on', '127.0.0.1')
    .option('--tokens <file>', 'with remote or human players: write their seat tokens to this file (mode 0600) instead of printing them')
    .option('--redis <url>', 'schedule the matches on `arena worker` processes through this Redis (redis://HOST:PORT; the config needs a "window"; docs/scale-out.md)')
    .option('--in-flight <n>', 'with --redis: most match jobs queued or playing at once (default: the config\'s window)', countOpt('--in-flight'))
    .option('--attempts <n>', 'with --redis: tries of a job that fails with an error before it is recorded as a failed match (default 3)', countOpt('--attempts'))
    .option('--batch <n>', BATCH_HELP, countOpt('--batch'))
    .action(async (o) => exit(await cmd.league().leagueRunCommand(registry(), o)));
  league
    .command('status')
    .description('scale-out status from Redis: leagues\' progress and throughput, queue depth per env, workers seen, failed jobs')
    .requiredOption('--redis <url>', 'Redis URL (redis://HOST:PORT)')
    .option('--league <name>', 'only this league (its queue, progress and failed jobs)')
    .option('--json', 'machine-readable')
    .action(async (o) => exit(await cmd.leagueStatus().leagueStatusCommand(o)));
  league
    .command('table')
    .description('ratings per role: Bradley–Terry with bootstrap intervals (tied ranks marked =), Elo, OpenSkill')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--league <name>', 'league name (default: the latest)')
    .option('--resamples <n>', 'bootstrap resamples', countOpt('--resamples'))
    .option('--json', 'machine-readable')
    .action((o) => exit(cmd.league().leagueTableCommand(o)));
  league
    .command('matches')
    .description('the newest matches with players, returns and outcome codes')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--league <name>', 'league name (default: the latest)')
    .option('--limit <n>', 'how many', countOpt('--limit'), 20)
    .option('--json', 'one JSON line per match')
    .action((o) => exit(cmd.league().leagueMatchesCommand(o)));
  league
    .command('export')
    .description('all matches and their events as JSONL')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--league <name>', 'league name (default: the latest)')
    .option('--out <file>', 'write to a file instead of stdout')
    .action((o) => exit(cmd.league().leagueExportCommand(o)));

  const tournament = program.command('tournament').description('tournaments: round-robin, gauntlet, swiss (and sprt) with crosstables; resumable');
  tournament
    .command('run')
    .description('run or resume a tournament from a JSON config, then print standings and crosstable; Ctrl-C stops cleanly; rerun to resume')
    .requiredOption('--config <file>', 'tournament config (JSON; see examples/tournaments/)')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--port <n>', 'also serve the web page on this port while it runs (games live; 0 = any free port)', countOpt('--port'))
    .option('--host <address>', 'interface for --port', '127.0.0.1')
    .option('--quiet', 'no progress display')
    .option('--json', 'print the report (crosstable, standings, rounds) as JSON')
    .option('--redis <url>', 'play the games on `arena worker` processes through this Redis (redis://HOST:PORT; docs/scale-out.md)')
    .option('--in-flight <n>', `with --redis: most game jobs queued or playing at once (default ${DEFAULT_TOURNAMENT_IN_FLIGHT})`, countOpt('--in-flight'))
    .option('--attempts <n>', 'with --redis: tries of a job that fails with an error before it is recorded as a failed game (default 3)', countOpt('--attempts'))
    .option('--batch <n>', BATCH_HELP, countOpt('--batch'))
    .action(async (o) => exit(await cmd.tournament().tournamentRunCommand(registry(), o)));
  tournament
    .command('show')
    .description('standings, crosstable, pairs (pentanomial, Elo, LOS) and rounds of a stored tournament')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--tournament <name>', 'tournament name (default: the latest)')
    .option('--json', 'machine-readable')
    .action((o) => exit(cmd.tournament().tournamentShowCommand(o)));
  tournament
    .command('list')
    .description('the tournaments in a database')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--json', 'machine-readable')
    .action((o) => exit(cmd.tournament().tournamentListCommand(o)));

  const num = (name: string) => (v: string) => parseNumberOption(name, v);
  program
    .command('sprt')
    .description('sequential probability ratio test: is A stronger than B by elo1 rather than elo0? Game pairs (seats swapped, one seed) until H0 or H1; exit 0 = H1, 1 = H0, 3 = undecided')
    .requiredOption('--a <spec>', 'the new agent (name, name:{json options} or module path)')
    .requiredOption('--b <spec>', 'the baseline agent')
    .requiredOption('--env <env>', 'env id or module path (two sides)')
    .requiredOption('--elo0 <elo>', 'H0: A is at most this much stronger', num('--elo0'))
    .requiredOption('--elo1 <elo>', 'H1: A is at least this much stronger', num('--elo1'))
    .option('--alpha <p>', 'false-positive rate', num('--alpha'), 0.05)
    .option('--beta <p>', 'false-negative rate', num('--beta'), 0.05)
    .option('--model <m>', 'Elo model of elo0/elo1: logistic or normalized (fishtest)', 'logistic')
    .option('--max-games <n>', 'stop undecided after this many games', countOpt('--max-games'), 20_000)
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--seed <n>', 'base seed', seedOpt, 1)
    .option('--unpaired', 'single games with fresh seeds (trinomial GSPRT) instead of game pairs')
    .option('--deadline <ms>', 'per-decision time limit', countOpt('--deadline'))
    .option('--faults <policy>', 'fault policy: retry:N and forfeit|default (default forfeit)')
    .option('--db <file>', 'record the games in this database (resumable, shown in the page); default: in memory')
    .option('--name <name>', 'name of the test in the database', 'sprt')
    .option('--every <n>', 'print a status line every n games (default: at most one a second)', countOpt('--every'))
    .option('--port <n>', 'serve the web page on this port while it runs (games live)', countOpt('--port'))
    .option('--host <address>', 'interface for --port', '127.0.0.1')
    .option('--json', 'print the final result as JSON')
    .option('--redis <url>', 'play the games on `arena worker` processes through this Redis (games past the decision may be played, never counted)')
    .option('--in-flight <n>', `with --redis: most game jobs queued or playing at once (default ${DEFAULT_TOURNAMENT_IN_FLIGHT})`, countOpt('--in-flight'))
    .option('--attempts <n>', 'with --redis: tries of a job that fails with an error before it is recorded as a failed game (default 3)', countOpt('--attempts'))
    .option('--batch <n>', BATCH_HELP, countOpt('--batch'))
    .action(async (o) => exit(await cmd.sprt().sprtCommand(registry(), o)));

  const atLeast = (name: string, min: number) => (v: string) => {
    const n = parseIntOption(name, v, min);
    if (n < min) throw new UsageError(`${name}: expected an integer >= ${min}, got "${v}"`);
    return n;
  };
  program
    .command('exploit <env>')
    .description('exploitability of a frozen policy: train a fresh best response against it, report its win rate with a bootstrap interval (and the policy against a held-out panel)')
    .requiredOption('--target <refs>', 'the frozen policy: agent references, comma-separated, each playing its roles (e.g. neural:{"checkpoint":"villagers.json","mode":"sample"},neural:{"checkpoint":"wolves.json"})')
    .option('--roles <list>', "the exploiter's learners, as in `arena train --roles` (default: every side whose opponents the target plays)")
    .option('--iterations <n>', 'training iterations of the exploiter', atLeast('--iterations', 1), EXPLOIT_DEFAULTS.iterations)
    .option('--episodes <n>', 'training episodes per iteration', atLeast('--episodes', 1), EXPLOIT_DEFAULTS.episodes)
    .option('--eval <n>', 'evaluation episodes of the trained exploiter against the target', atLeast('--eval', 1), EXPLOIT_DEFAULTS.evalEpisodes)
    .option('--panel <refs>', 'held-out opponents the target plays afterwards (comma-separated agent references)')
    .option('--panel-episodes <n>', 'episodes against each panel member', atLeast('--panel-episodes', 1), EXPLOIT_DEFAULTS.panelEpisodes)
    .option('--mode <m>', 'the exploiter in evaluation: sample (its policy) or greedy', 'sample')
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--config <json>', `exploiter training config (JSON or a file; default hidden ${JSON.stringify(EXPLOIT_DEFAULTS.hidden)}, lr ${EXPLOIT_DEFAULTS.lr})`)
    .option('--seed <n>', 'seed of the exploiter and of the evaluation episodes', seedOpt, 1)
    .option('--backend <name>', 'training backend: tfjs-node-gpu, webgpu, tfjs-node, wasm, cpu (default: the first that loads)')
    .option('--out <dir>', "the exploiter's run folder (checkpoints; rerunning the command resumes it)")
    .option('--json', 'print the report as one JSON object')
    .option('--quiet', 'no progress lines')
    .action(async (ref: string, o) => exit(await cmd.exploit().exploitCommand(registry(), ref, o)));

  // `arena train`: its options in app/cli/train-options.ts, the command in app/cli/commands/train.ts.
  registerTrainCommand(program, (ref, o) => cmd.train().trainCommand(registry(), ref, o), exit);

  program
    .command('env-serve <env>')
    .description('serve an env to trainers outside the process with the OpenEnv interface (HTTP reset/step/state + WebSocket /ws; docs/env-server.md)')
    .option('--agents <list>', 'agents in the other seats: one for all or one per seat (clients may name these too)', 'random')
    .option('--client-agents <list>', 'more agent references clients may choose in a reset (exact text; default: only those of --agents)')
    .option('--role <role>', "the trainer's role (its first seat)")
    .option('--seat <n>', "the trainer's seat (default 0)", (v: string) => parseIntOption('--seat', v, 0))
    .option('--params <json>', 'env params (JSON or a file); a reset may give its own')
    .option('--port <n>', 'port (0 = any free one)', (v: string) => parseIntOption('--port', v, 8000), 8000)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--max-sessions <n>', 'sessions open at once', countOpt('--max-sessions'), 64)
    .option('--idle-timeout <s>', 'close HTTP sessions idle for this many seconds', countOpt('--idle-timeout'), 300)
    .option('--ws-idle-timeout <s>', 'close WebSocket sessions idle for this many seconds (default: never; they end with their connection)', countOpt('--ws-idle-timeout'))
    .option('--seed <n>', 'base seed of the sessions\' episodes (a reset may give its own)', seedOpt, 0)
    .option('--deadline <ms>', 'per-decision time limit of the other seats', countOpt('--deadline'))
    .option('--faults <policy>', 'fault policy of the other seats: retry:N and forfeit|default')
    .action(async (ref: string, o) => exit(await cmd.envServe().envServeCommand(registry(), ref, o)));

  program
    .command('serve')
    .description('serve the web page (live matches, replays, leaderboard, plots) and the spectator sockets over a store')
    .option('--db <file>', 'SQLite database', DEFAULT_DB)
    .option('--port <n>', 'port (0 = any free one)', (v: string) => parseIntOption('--port', v, 8080), 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--allow-omniscient', 'allow omniscient and per-seat views of live matches')
    .option('--allow-play', 'let visitors start games with a human seat from the lobby (POST /api/play)')
    .option('--play-limit <n>', `with --allow-play: games at once (default ${LOBBY_PLAY_DEFAULTS.limit})`, countOpt('--play-limit'))
    .option('--play-idle <seconds>', `with --allow-play: how long a decision may wait before the seat forfeits (default ${LOBBY_PLAY_DEFAULTS.idleSeconds})`, countOpt('--play-idle'))
    .option('--redis <url>', 'also show the live matches of every worker and scheduler publishing to this Redis (any number of servers may follow one Redis)')
    .action(async (o) => exit(await cmd.serve().serveCommand(o, { registry: registry() })));

  program
    .command('worker')
    .description('play match jobs from Redis (BullMQ) until SIGTERM / Ctrl-C, for `arena league run --redis`, `arena tournament run --redis` and `arena sprt --redis` on any machine (docs/scale-out.md)')
    .requiredOption('--redis <url>', 'Redis URL (redis://HOST:PORT)')
    .option('--concurrency <n>', 'matches played at once per env', countOpt('--concurrency'), 1)
    .option('--envs <list>', 'comma-separated env ids to play (an id without -vN matches every version; default: every env a league announces)')
    .option('--cache <dir>', 'folder of files fetched by content (checkpoints, task data; default: a folder in the temp dir)')
    .option('--name <name>', 'name shown in `league status` (default: host-pid)')
    .option('--lock-ms <ms>', 'job lock: a dead worker\'s match is retried by another worker at most this long after it died', countOpt('--lock-ms'), 30_000)
    .option('--attempts <n>', 'starts of a job whose worker died before it is a recorded failure', countOpt('--attempts'), 3)
    .option('--no-live', 'do not publish match events for spectators')
    .action(async (o) => exit(await cmd.worker().workerCommand(registry(), o)));

  return program;
}
/* eslint-enable @typescript-eslint/no-require-imports */
