/**
 * The `arena` bin's entry (bin/arena.js): runs the command line (app/cli/program.ts) in a
 * supervised worker thread. This file and the program's definition load only commander and the
 * option parsers; a command's modules load when it runs (bench/startup.ts measures the startup).
 */
import { CommanderError } from 'commander';
import { join } from 'node:path';
import { exitQuietlyOnClosedPipe } from './closed-pipe';
import { installSelfResolve } from './self-resolve';
import { oneLine } from './options';
import { buildProgram } from './program';

/* eslint-disable @typescript-eslint/no-require-imports */
/** The error classification, loaded when an error reaches the command line (app/cli/user-errors.ts). */
const errors = () => require('./user-errors') as typeof import('./user-errors');

export { buildProgram };

/**
 * Runs the `arena` command line in this thread; resolves to the exit code. A decision whose
 * promise never settles, with no deadline to end it, would let the event loop empty and the
 * process exit silently: it is reported by agent and seat, with exit code 1.
 */
export async function runCli(argv: string[]): Promise<number> {
  let settled = false;
  const onBeforeExit = () => {
    if (settled) return;
    // the runner's registry of decisions under way (none when no match ran: nothing to load)
    const stuck = (require('../../src/match/runner') as typeof import('../../src/match/runner')).unsettledDecisions();
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
    } else if (errors().isUserError(e)) {
      process.stderr.write(`arena: ${oneLine(e.message)}\n`);
      code = 2;
    } else if (errors().isReportedFailure(e)) {
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
 * Whether a command line runs no code of the user's (no env, agent or config module to load,
 * nothing that can hang or needs a clean stop): the version, the help and `arena envs` (the
 * built-in list). These run in this thread: the supervisor's worker thread costs about as much
 * as starting Node again.
 */
export function runsNoUserCode(argv: readonly string[]): boolean {
  const args = argv.slice(2);
  if (args.length === 0) return true;
  if (args.length === 1 && ['--version', '-V', '--help', '-h', 'help'].includes(args[0])) return true;
  return args[0] === 'envs';
}

/**
 * Entry point of the `arena` bin: the command runs in a worker thread watched by this one
 * (app/cli/supervisor.ts), so that Ctrl-C always works and user code that never returns is
 * stopped with a message naming it. `ARENA_WORKER=0` runs it in this thread instead (no watchdog;
 * for debuggers and profilers), as do the command lines that run no user code ({@link runsNoUserCode}). A closed stdout (`| head`) ends the process quietly; modules it
 * loads resolve `selfplay-arena` to this package.
 */
export async function main(argv: string[]): Promise<void> {
  exitQuietlyOnClosedPipe(process.stdout);
  exitQuietlyOnClosedPipe(process.stderr);
  if (runsNoUserCode(argv)) {
    process.exitCode = await runCli(argv);
    return;
  }
  if (process.env.ARENA_WORKER === '0') {
    installSelfResolve();
    process.exitCode = await runCli(argv);
    return;
  }
  const { superviseInWorker } = require('./supervisor') as typeof import('./supervisor');
  process.exitCode = await superviseInWorker(argv, join(__dirname, 'worker-entry.js'));
}
