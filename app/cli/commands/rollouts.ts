import type { Registry } from '../../../src/core/registry';
import { parseFaultPolicy } from '../../../src/match/fault-policy';
import { collectRollouts } from '../../../src/rollouts/collect';
import { groupSizeProblem, RolloutGroupError } from '../../../src/rollouts/groups';
import { agentsForSeats, envAndParams, splitAgentList, UsageError } from '../options';
import { createProgress } from '../progress';
import { openRolloutSink } from '../rollouts-sink';
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
  /** `jsonl` (default) or `verl` (Parquet in verl's schema). */
  format?: string;
}

/**
 * `arena rollouts <env> --agents ... --episodes N --out FILE.jsonl [--group-size G] [--roles r,...] [--format verl]`:
 * one JSON line per decision of the chosen roles (messages, completion, reward, group id, GRPO /
 * RLOO advantages; docs/rollouts.md), or one Parquet row in verl's schema. Each group is
 * written as soon as it is complete, so a stopped run leaves a valid file of whole groups.
 */
export async function rolloutsCommand(registry: Registry, ref: string, args: RolloutsArgs): Promise<number> {
  const { env, params } = await envAndParams(registry, ref, args.params);
  if (args.groupSize < 1) throw new UsageError('--group-size: must be at least 1');
  if (args.episodes < 1) throw new UsageError('--episodes: must be at least 1');
  if (args.episodes % args.groupSize !== 0) throw new UsageError(`--episodes: ${args.episodes} is not a multiple of --group-size ${args.groupSize}`);
  const single = groupSizeProblem(env, args.groupSize);
  if (single) throw new UsageError(single);
  const seatInfo = env.seats(env.init(params, args.seed));
  const roles = args.roles?.split(',').map((r) => r.trim()).filter(Boolean);
  for (const r of roles ?? []) {
    if (!seatInfo.some((s) => s.role === r)) throw new UsageError(`--roles: "${r}" is not a role of any seat of ${env.meta.id} with these params (seats: ${seatInfo.map((s) => s.role).join(', ')})`);
  }
  const agents = await agentsForSeats(registry, env, params, splitAgentList(args.agents), seatInfo.length, args.seed);
  const faultPolicy = args.faults ? parseFaultPolicy(args.faults) : undefined;
  const toStdout = args.out === '-';
  const out = await openRolloutSink(args.format ?? 'jsonl', args.out, env.meta.id, JSON.stringify(params));
  const groups = args.episodes / args.groupSize;
  const stop = stopOnSignals('stopping after the current group');
  const progress = createProgress('rollouts', groups);
  const sums = new Map<string, { n: number; reward: number }>();
  let written = 0;
  let grpoGroups = 0;
  let trajectories = 0;
  const singletons: string[] = [];
  let flat = 0;
  let failed = 0;
  let firstFailure = '';
  let refused = false;
  try {
    written = await collectRollouts(
      { env, params, agents, groups, groupSize: args.groupSize, seed: args.seed, roles, deadlineMs: args.deadline, faultPolicy, signal: stop.signal, effects: registry.effects() },
      async (records, _group, stats) => {
        grpoGroups += stats.grpoGroups;
        trajectories += stats.trajectories;
        singletons.push(...stats.singletons);
        flat += stats.flat.length;
        for (const e of stats.episodes) {
          if (e.code === 'ok') continue;
          failed++;
          firstFailure ||= `${e.code}${e.fault ? `, ${e.fault}` : ''}`;
        }
        await out.write(records);
        for (const r of records) {
          const s = sums.get(r.role) ?? { n: 0, reward: 0 };
          s.n++;
          s.reward += r.reward;
          sums.set(r.role, s);
        }
        progress.tick();
      },
    );
  } catch (e) {
    if (!(e instanceof RolloutGroupError)) throw e;
    refused = true;
    throw new UsageError(e.message);
  } finally {
    progress.stop();
    stop.dispose();
    // A refused request wrote nothing: leave no empty file behind.
    await out.close(refused);
  }
  const means = [...sums].map(([role, s]) => `${role} ${(s.reward / s.n).toFixed(3)}`).join(', ');
  const per = grpoGroups ? (trajectories / grpoGroups).toFixed(1).replace(/\.0$/, '') : '0';
  process.stderr.write(
    `rollouts: ${written} decisions from ${args.episodes} episodes in ${groups} groups of ${args.groupSize} (seeds ${args.seed}..${args.seed + groups - 1}); ` +
      `${trajectories} trajectories in ${grpoGroups} GRPO groups (${per} per group)${toStdout ? '' : ` -> ${args.out}`}${means ? `; mean reward per decision: ${means}` : ''}\n`,
  );
  if (failed) process.stderr.write(`rollouts: ${failed} of ${args.episodes} episodes did not end normally (first: ${firstFailure})\n`);
  if (!written && !stop.signal.aborted) {
    process.stderr.write(`arena: rollouts: no decision was recorded${failed ? ' (see the line above for why)' : ` (the roles recorded made no decision)`}\n`);
    return 1;
  }
  if (grpoGroups && flat) process.stderr.write(`rollouts: ${flat} of ${grpoGroups} GRPO groups have equal rewards throughout (advantage 0: nothing to learn from them)\n`);
  if (singletons.length) {
    const shown = singletons.slice(0, 5).join(', ');
    process.stderr.write(`rollouts: warning: ${singletons.length} GRPO groups held one trajectory (advantage 0): ${shown}${singletons.length > 5 ? ', ...' : ''}\n`);
  }
  return 0;
}
