/**
 * Kernel-speedup learning task: the defender's network learns one-shot schedules over the
 * template action space of all ten tasks (`arena train kernel-speedup-v1 --roles defender` with
 * the params below). Training runs against the RECORDED TABLE of measured schedule timings
 * (timing "table": every legal schedule of every task measured once on its timing shapes by
 * `npm run kernels:table`), because timing each candidate in every episode would be far too slow.
 * Evaluation is on the held-out shapes (never in the table) with REAL measurements: the trained
 * policy's greedy schedule and the autotuner's best schedule (random search then hill-climbing,
 * measured in the lab) are both measured with the env's full protocol on each held-out shape.
 * Target: the policy's speedup ≥ 80% of the autotuner's (mean ratio over the held-out shapes).
 */
import { createRegistry } from '../../app/catalog';
import type { JsonValue } from '../../src/core/json';
import { createSandbox } from '../../src/sandbox';
import { autotune } from '../../envs/kernel-speedup/agents';
import { kernelTasks, measureKernel, scheduleAt, scheduleText, type KernelObservation } from '../../envs/kernel-speedup';
import { cpuSeconds, greedyFrom, train, type TaskReport } from './common';

const ENV = 'kernel-speedup-v1';

/** The training params: one schedule per episode, looked up in the recorded table. */
export const TRAIN_PARAMS = { timing: 'table', candidates: 'schedule', attacker: false, evaluator: false, revisions: 1, reward: 'log-speedup' };

export async function kernelSpeedupLearning(quick: boolean): Promise<TaskReport> {
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  const registry = createRegistry();
  const { env, params } = registry.make(ENV, TRAIN_PARAMS);
  const curve: Record<string, JsonValue>[] = [];
  const { trainer, metrics } = await train({
    env,
    params,
    registry,
    roles: [['defender']],
    iterations: quick ? 2 : 120,
    cpuBudget: cpu0 + 600,
    config: { seed: 1, algorithm: 'grpo', groupSize: 8, episodesPerIteration: 256, hidden: [64, 64], lr: 1e-3, entropyCoef: 0.005, evalEvery: 0 },
    onIteration: (m) => {
      const r = m.learners.defender.meanReturn.defender;
      if (m.iteration % 10 === 0) console.error(`iteration ${m.iteration}: mean log-speedup reward ${r.toFixed(3)}`);
      curve.push({ iteration: m.iteration, meanReward: r });
    },
  });
  const policy = greedyFrom(trainer, 'defender');
  // held-out evaluation with real measurements
  const sb = createSandbox({ concurrency: 1 });
  const rows: { task: string; shape: string; policy: number; auto: number; ratio: number; chosen: string; best: string }[] = [];
  try {
    for (const task of quick ? kernelTasks.slice(0, 1) : kernelTasks) {
      for (let si = 0; si < (quick ? 1 : task.heldOutShapes.length); si++) {
        const shape = task.heldOutShapes[si];
        const { env: liveEnv, params: p } = registry.make(ENV, { task: task.id, shapes: 'held-out', shape: si, candidates: 'schedule', attacker: false, evaluator: false, revisions: 1 });
        const obs = liveEnv.observe(liveEnv.init(p, 1), 0) as KernelObservation;
        const index = (await policy.act(obs, liveEnv.legalActions!(liveEnv.init(p, 1), 0), { seat: 0, role: 'defender' } as never)) as number;
        const tuned = await autotune(sb.lab, task, shape, { budget: quick ? 3 : 16, seed: 11 });
        const measure = async (i: number, seed: number) => (await measureKernel(sb.lab, task, task.template.render(scheduleAt(task, i)), { secret: `learning-${seed}`, shape })).timing?.speedup ?? 0;
        const mp = await measure(index, 21);
        const ma = index === tuned.best.index ? mp : await measure(tuned.best.index, 22);
        rows.push({ task: task.id, shape: Object.values(shape).join('×'), policy: mp, auto: ma, ratio: mp / ma, chosen: scheduleText(scheduleAt(task, index)), best: scheduleText(scheduleAt(task, tuned.best.index)) });
        console.error(`${task.id} ${Object.values(shape).join('×')}: policy ${mp.toFixed(2)}× vs autotuner ${ma.toFixed(2)}×`);
      }
    }
  } finally {
    await sb.close();
  }
  const mean = rows.reduce((a, r) => a + r.ratio, 0) / rows.length;
  const notes = [
    'trained on the recorded table of measured schedule timings (data/schedule-table.json), evaluated with real measurements on held-out shapes',
    '| task | held-out shape | policy schedule | policy × | autotuner best schedule | autotuner × | ratio |',
    '|---|---|---|---:|---|---:|---:|',
    ...rows.map((r) => `| ${r.task} | ${r.shape} | ${r.chosen} | ${r.policy.toFixed(2)} | ${r.best} | ${r.auto.toFixed(2)} | ${r.ratio.toFixed(2)} |`),
    `held-out shapes where the policy reaches ≥ 80% of the autotuner: ${rows.filter((r) => r.ratio >= 0.8).length}/${rows.length}`,
  ];
  return {
    task: 'kernel-speedup defender (schedules, one shot, held-out shapes)',
    targets: [{ name: 'policy speedup / autotuner best speedup (mean over held-out shapes)', value: mean, goal: '≥ 0.80', pass: mean >= 0.8 }],
    notes,
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: cpuSeconds() - cpu0,
    iterations: metrics.length,
    curve,
  };
}
