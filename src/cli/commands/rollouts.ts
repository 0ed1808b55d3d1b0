import { createWriteStream, type WriteStream } from 'node:fs';
import type { Registry } from '../../core/registry';
import { parseFaultPolicy } from '../../match/fault-policy';
import { collectRollouts } from '../../rollouts/collect';
import { agentsForSeats, envAndParams, splitAgentList, UsageError } from '../options';
import { createProgress } from '../progress';
import { stopOnSignals } from '../stop-signal';

export interface RolloutsArgs {
  agents: string;
  out: string;
  params?: string;
  seed: number;
  episodes: number;
  groupSize: number;
  roles?: string;
  deadline?: number;
  faults?: string;
}

function write(stream: WriteStream | NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (e) => (e ? reject(e) : resolve()));
  });
}

/**
 * `arena rollouts <env> --agents ... --episodes N --out FILE.jsonl [--group-size G] [--roles r,...]`:
 * one JSON line per decision of the chosen roles (messages, completion, reward, group id, GRPO /
 * RLOO advantages; docs/rollouts.md). Each group is written as soon as it is complete, so a
 * stopped run leaves a valid file of whole groups.
 */
export async function rolloutsCommand(registry: Registry, ref: string, args: RolloutsArgs): Promise<number> {
  const { env, params } = await envAndParams(registry, ref, args.params);
  if (args.groupSize < 1) throw new UsageError('--group-size: must be at least 1');
  if (args.episodes < 1) throw new UsageError('--episodes: must be at least 1');
  if (args.episodes % args.groupSize !== 0) throw new UsageError(`--episodes: ${args.episodes} is not a multiple of --group-size ${args.groupSize}`);
  const seatInfo = env.seats(env.init(params, args.seed));
  const roles = args.roles?.split(',').map((r) => r.trim()).filter(Boolean);
  for (const r of roles ?? []) {
    if (!seatInfo.some((s) => s.role === r)) throw new UsageError(`--roles: "${r}" is not a role of any seat of ${env.meta.id} with these params (seats: ${seatInfo.map((s) => s.role).join(', ')})`);
  }
  const agents = await agentsForSeats(registry, env, params, splitAgentList(args.agents), seatInfo.length, args.seed);
  const faultPolicy = args.faults ? parseFaultPolicy(args.faults) : undefined;
  const toStdout = args.out === '-';
  const out = toStdout ? process.stdout : createWriteStream(args.out);
  if (!toStdout) {
    await new Promise<void>((resolve, reject) => {
      (out as WriteStream).once('open', () => resolve());
      (out as WriteStream).once('error', (e) => reject(new UsageError(`--out: cannot write ${args.out} (${(e as NodeJS.ErrnoException).code ?? e.message})`)));
    });
  }
  const groups = args.episodes / args.groupSize;
  const stop = stopOnSignals('stopping after the current group');
  const progress = createProgress('rollouts', groups);
  const sums = new Map<string, { n: number; reward: number }>();
  let written = 0;
  try {
    written = await collectRollouts(
      { env, params, agents, groups, groupSize: args.groupSize, seed: args.seed, roles, deadlineMs: args.deadline, faultPolicy, signal: stop.signal, effects: registry.effects() },
      async (records) => {
        if (records.length) await write(out, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
        for (const r of records) {
          const s = sums.get(r.role) ?? { n: 0, reward: 0 };
          s.n++;
          s.reward += r.reward;
          sums.set(r.role, s);
        }
        progress.tick();
      },
    );
  } finally {
    progress.stop();
    stop.dispose();
    if (!toStdout) await new Promise<void>((resolve) => (out as WriteStream).end(resolve));
  }
  const means = [...sums].map(([role, s]) => `${role} ${(s.reward / s.n).toFixed(3)}`).join(', ');
  process.stderr.write(`rollouts: ${written} decisions from ${args.episodes} episodes in ${groups} groups${toStdout ? '' : ` -> ${args.out}`}${means ? `; mean reward per decision: ${means}` : ''}\n`);
  return 0;
}
