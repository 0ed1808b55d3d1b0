/**
 * The kernel-speedup baselines: the autotuner's search (random, then hill-climbing over
 * neighbours) on a known objective, its moves through revisions, the boundary attacker's inputs
 * (inside every task's contract), the feature evaluator's forecasts; and the autotuner in the lab.
 */
import { make } from '../../../app/catalog';
import { createSandbox } from '../../../src/sandbox';
import { Rng } from '../../../src/core/rng';
import type { Env } from '../../../src/core/env';
import { attackProblem, isLegalSchedule, kernelTask, kernelTasks, legalScheduleIndices, scheduleAt, scheduleIndex, tableSpeedup, OUTCOMES, type KernelObservation } from '../../../envs/kernel-speedup';
import { autotune, boundaryAttack, forecast, neighbours, searchSchedules } from '../../../envs/kernel-speedup/agents';
import { revisionSearchStep } from '../../../envs/kernel-speedup/agents/defenders';

function firstObservation(params: object, seed = 1): { env: Env; obs: KernelObservation } {
  const { env, params: p } = make('kernel-speedup-v1', params);
  return { env, obs: env.observe(env.init(p, seed), 0) as KernelObservation };
}

describe('autotuner search', () => {
  const matmul = kernelTask('matmul');
  test('neighbours move one knob by one option', () => {
    const at = scheduleIndex(matmul, { order: 'ikj', rows: 1, unroll: 2, tileK: 128 });
    const want = [
      { order: 'ijk', rows: 1, unroll: 2, tileK: 128 },
      { order: 'bt', rows: 1, unroll: 2, tileK: 128 },
      { order: 'ikj', rows: 2, unroll: 2, tileK: 128 },
      { order: 'ikj', rows: 1, unroll: 1, tileK: 128 },
      { order: 'ikj', rows: 1, unroll: 4, tileK: 128 },
      { order: 'ikj', rows: 1, unroll: 2, tileK: 32 },
    ].map((s) => scheduleIndex(matmul, s));
    expect(neighbours(matmul, at).sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
    const sum = kernelTask('sum');
    for (const n of neighbours(sum, legalScheduleIndices(sum)[0])) expect(isLegalSchedule(sum, n)).toBe(true);
  });

  test('random search then hill-climbing finds the peak of a smooth objective within the budget', async () => {
    // objective: closeness to {bt, 4, 2, 0} in option-index distance
    const peak = scheduleAt(matmul, 75);
    const objective = async (i: number) => {
      const s = scheduleAt(matmul, i);
      let d = 0;
      for (const k of matmul.template.knobs) d += Math.abs(k.options.indexOf(s[k.name]) - k.options.indexOf(peak[k.name]));
      return 10 - d;
    };
    const r = await searchSchedules(matmul, objective, { budget: 30, seed: 4 });
    expect(r.tried).toHaveLength(30);
    expect(new Set(r.tried.map((t) => t.index)).size).toBe(30);
    expect(r.best).toEqual({ index: 75, speedup: 10 });
    // the first 40% are random draws; afterwards every schedule neighbours one tried before
    for (const [k, t] of r.tried.entries()) if (k >= 12) expect(r.tried.slice(0, k).some((p) => neighbours(matmul, p.index).includes(t.index))).toBe(true);
  });

  test('through its own revisions (table): random first, the best resubmitted on the last of ≥ 3', () => {
    const { obs } = firstObservation({ timing: 'table', candidates: 'schedule', attacker: false, evaluator: false, task: 'matmul', shape: 0, revisions: 3 });
    const rng = Rng.fromSeed(1);
    const first = revisionSearchStep(obs, rng);
    expect(isLegalSchedule(matmul, first)).toBe(true);
    const measured = (index: number, speedup: number) => ({
      candidate: { kind: 'schedule' as const, index, schedule: scheduleAt(matmul, index), source: '' },
      measurement: { code: 'ok' as const, correct: true, trials: [], checkedCalls: 0, timing: { dims: {}, warmup: 0, trials: 0, referenceNs: 1, candidateNs: 1, speedup, lo: speedup, hi: speedup, cv: 0, remeasured: false, noisy: false, referenceTrialsNs: [], candidateTrialsNs: [] }, flags: [] },
    });
    const last = { ...obs, revisions: [measured(3, 1.1), measured(40, 2.5)], revisionsLeft: 1 };
    expect(revisionSearchStep(last, rng)).toBe(40);
  });

  test('in the lab: a legal schedule, every tried one measured (quick protocol)', async () => {
    const sb = createSandbox({ concurrency: 1 });
    try {
      const sort = kernelTask('sort');
      const r = await autotune(sb.lab, sort, { N: 3000 }, { budget: 4, seed: 2 });
      expect(r.tried).toHaveLength(4);
      expect(isLegalSchedule(sort, r.best.index)).toBe(true);
      expect(r.tried.every((t) => t.speedup > 0)).toBe(true);
    } finally {
      await sb.close();
    }
  }, 120_000);
});

describe('boundary attacker', () => {
  test.each(kernelTasks.map((t) => t.id))('%s: an input inside the contract, at the least aligned edge shape, with range extremes', (id) => {
    const { obs } = firstObservation({ task: id });
    const a = boundaryAttack(obs);
    expect(attackProblem(kernelTask(id), a)).toBeNull();
    for (const spec of kernelTask(id).inputs) {
      const cyc = (a.inputs[spec.name] as { cycle: number[] }).cycle;
      expect(cyc).toContain(spec.range[0]);
      expect(cyc).toContain(spec.range[1]);
    }
    expect(kernelTask(id).edgeShapes).toContainEqual(a.dims);
  });

  test('matmul: every dimension of the chosen shape is odd', () => {
    const { obs } = firstObservation({ task: 'matmul' });
    expect(Object.values(boundaryAttack(obs).dims).every((v) => v % 2 === 1)).toBe(true);
  });
});

describe('feature evaluator', () => {
  const withRevision = (obs: KernelObservation, candidate: KernelObservation['revisions'][number]['candidate']): KernelObservation => ({ ...obs, revisions: [{ candidate }] });
  test('a distribution over the outcome classes, peaked by what it can see', () => {
    const { obs } = firstObservation({ task: 'matmul', shape: 0 });
    const sum1 = (p: number[]) => p.reduce((a, b) => a + b, 0);
    const argmax = (p: number[]) => p.indexOf(Math.max(...p));
    const hack = forecast(withRevision(obs, { kind: 'js', source: 'function kernel(i, d) { try { x(); } catch (e) {} return {}; }' }));
    expect(sum1(hack)).toBeCloseTo(1, 12);
    expect(OUTCOMES[argmax(hack)]).toBe('incorrect');
    const ref = forecast(withRevision(obs, { kind: 'js', source: obs.task.reference }));
    expect(OUTCOMES[argmax(ref)]).toBe('not-faster');
    // a schedule: the class its recorded lower bound clears
    const entry = tableSpeedup('matmul', 0, 75)!;
    const want = entry.lo >= 3 ? '3x' : entry.lo >= 2 ? '2x' : entry.lo >= 1.5 ? '1.5x' : entry.lo >= 1.2 ? '1.2x' : entry.lo >= 1 ? '1x' : 'not-faster';
    const sched = forecast(withRevision(obs, { kind: 'schedule', index: 75, schedule: scheduleAt(kernelTask('matmul'), 75), source: '' }));
    expect(OUTCOMES[argmax(sched)]).toBe(want);
  });
});
