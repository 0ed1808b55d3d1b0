/**
 * The options of `arena train` (its help and parsing), apart from the command itself
 * (app/cli/commands/train.ts) so that defining the command line loads no training code.
 */
import type { Command } from 'commander';
import { BACKEND_ORDER } from '../../src/train/backend';
import { MAX_ENVS_PER_BATCH } from '../../src/train/limits';
import { parseIntOption, UsageError } from './options';

/** The parsed options of `arena train`. */
export interface TrainArgs {
  roles?: string;
  opponents: string;
  iterations: number;
  params?: string;
  config?: string;
  algo?: string;
  backend?: string;
  out?: string;
  resume?: boolean;
  schedule?: string;
  seed?: number;
  envsPerBatch?: number;
  sync?: boolean;
  overlap?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** Registers `arena train` on the program (called from app/cli/program.ts); `run` runs the command (app/cli/commands/train.ts). */
export function registerTrainCommand(program: Command, run: (ref: string, args: TrainArgs) => Promise<number>, exit: (code: number) => void): void {
  program
    .command('train <env>')
    .description('train neural policies by self-play (PPO with GAE, or REINFORCE with GRPO / RLOO baselines) on TensorFlow.js')
    .option('--roles <list>', 'learners: roles or team names, comma-separated; "a+b" shares one network (default: every role)')
    .option('--opponents <list>', 'self | baselines | checkpoints, or a comma-separated mix', 'self')
    .option('--iterations <n>', 'total training iterations', (v: string) => parseIntOption('--iterations', v, 0), 100)
    .option('--params <json>', 'env params (JSON or a file)')
    .option('--config <json>', 'training config (JSON or a file): algorithm, lr, hidden, episodesPerIteration, baselines, ...')
    .option('--algo <name>', 'ppo | grpo | rloo (sets config.algorithm)')
    .option('--backend <name>', `${BACKEND_ORDER.join(' | ')}, or "list" to probe them (default: the first that loads)`)
    .option('--out <dir>', 'output folder: checkpoints, metrics.jsonl, metrics.csv, state.json')
    .option('--resume', 'continue the run saved in --out')
    .option('--schedule <s>', 'simultaneous | alternate:K (learners take turns every K iterations)')
    .option('--seed <n>', 'run seed (sets config.seed)', (v: string) => parseIntOption('--seed', v, 0))
    .option('--envs-per-batch <n>', `episodes played in lockstep, their decisions batched (sets config.envsPerBatch; default 16, at most ${MAX_ENVS_PER_BATCH}; speed only)`, (v: string) => {
      const n = parseIntOption('--envs-per-batch', v, 1);
      if (n < 1 || n > MAX_ENVS_PER_BATCH) throw new UsageError(`--envs-per-batch: expected an integer from 1 to ${MAX_ENVS_PER_BATCH}, got "${v}"`);
      return n;
    })
    .option('--sync', 'rollouts, then the update, on one thread: bit for bit reproducible (sets config.overlap false)')
    .option('--overlap', 'the update in a worker thread while the next iteration plays with the previous weights (sets config.overlap true)')
    .option('--json', 'print each iteration\'s metrics as one JSON line on stdout')
    .option('--quiet', 'no progress output')
    .action(async (ref: string, o: TrainArgs) => exit(await run(ref, o)));
}
