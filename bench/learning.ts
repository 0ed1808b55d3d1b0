/**
 * Learning that must be shown (issue 6): each task trains from scratch with fixed seeds on the
 * CPU (the default backend here: wasm) within 15 minutes of one core's CPU time, then measures
 * held-out performance against the target and prints a table.
 *
 * Usage: npm run bench:learning -- <task> [--quick]
 * Tasks: dond-coop, dond-compete, countdown-solver, countdown-coevolution, werewolf, werewolf-coevolution, kernel-speedup, payoff, countdown-curriculum, all.
 * --quick runs a few iterations only (a smoke test of the plumbing, not of learning).
 * countdown-coevolution takes scale flags: --rounds=N --warmup=N --episodes=N --probe=N --seeds=a,b,c;
 * werewolf-coevolution: --rounds=N --episodes=N --probe=N --seed=N; payoff: see bench/learning/payoff/index.ts;
 * countdown-curriculum: see bench/learning/curriculum/index.ts; results of both in bench/learning/README.md.
 */
import { dondCompete, dondCoop } from './learning/deal-or-no-deal';
import { printReport, type TaskReport } from './learning/common';
import { werewolfTask } from './learning/werewolf';
import { countdownSolver } from './learning/countdown';
import { countdownCoevolutionLeague } from './learning/countdown-coevolution';
import { werewolfCoevolution } from './learning/werewolf-coevolution';
import { kernelSpeedupLearning } from './learning/kernel-speedup';
import { payoffTask } from './learning/payoff';
import { countdownCurriculum } from './learning/curriculum';

const TASKS: Record<string, (quick: boolean) => Promise<TaskReport>> = {
  'dond-coop': dondCoop,
  'dond-compete': dondCompete,
  'countdown-solver': countdownSolver,
  'countdown-coevolution': countdownCoevolutionLeague,
  werewolf: werewolfTask,
  'werewolf-coevolution': werewolfCoevolution,
  'kernel-speedup': kernelSpeedupLearning,
  payoff: payoffTask,
  'countdown-curriculum': countdownCurriculum,
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const names = args.filter((a) => !a.startsWith('--'));
  const chosen = names.length === 0 || names.includes('all') ? Object.keys(TASKS) : names;
  for (const n of chosen) if (!TASKS[n]) throw new Error(`unknown task "${n}" (known: ${Object.keys(TASKS).join(', ')}, all)`);
  let failed = 0;
  for (const n of chosen) {
    const r = await TASKS[n](quick);
    printReport(r);
    if (r.targets.some((t) => !t.pass)) failed++;
  }
  process.exitCode = failed && !quick ? 1 : 0;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(2);
});
