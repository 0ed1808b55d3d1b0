/**
 * The precision rule's place in a measurement (measure.ts; the rule itself is compare.ts's): it
 * counts the float32 outputs of the correct correctness calls only — integer outputs say nothing
 * about float precision — and it judges only a kernel that is otherwise correct (a wrong answer
 * stays a wrong answer). Against a scripted lab: the candidate's float outputs carry float16
 * mantissas (1.5), the reference's full float32 ones (1 + 2^-20), within a loose tolerance.
 */
import type { KernelArray, KernelCallResult, KernelLab, KernelOutputSpec } from '../../../src/core/sandbox';
import { PROBE_OUTPUT, kernelTask, measureKernel, type KernelTask } from '../../../envs/kernel-speedup';

const sort = kernelTask('sort');
/** sort with an integer output beside its float one, and a tolerance that lets 1.5 pass for 1 + 2^-20. */
const mixed: KernelTask = { ...sort, outputs: [...sort.outputs, { name: 'n', dtype: 'i32', shape: ['N'] }], tolerance: { atol: 1, rtol: 0 } };
const options = { shape: { N: 777 }, secret: 'precision', time: false };

/** The scripted lab; the candidate's first call answers floats of 100 (a wrong answer) where `firstWrong`. */
function scriptedLab(firstWrong = false): KernelLab {
  return {
    async open() {
      let candidateCalls = 0;
      return {
        status: { reference: { code: 'ok' }, candidate: { code: 'ok' } },
        async call(name: string, _inputs: Record<string, KernelArray>, _dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult> {
          const wrong = name === 'candidate' && candidateCalls++ === 0 && firstWrong;
          const out: Record<string, KernelArray> = {};
          for (const s of outputs) {
            if (s.name === PROBE_OUTPUT) out[s.name] = new Int32Array(s.length);
            else if (s.dtype === 'i32') out[s.name] = new Int32Array(s.length).fill(1);
            else out[s.name] = new Float32Array(s.length).fill(wrong ? 100 : name === 'candidate' ? 1.5 : 1 + 2 ** -20);
          }
          return { code: 'ok', ns: 1000, outputs: out, flags: [], modified: [] };
        },
        async close() {},
      };
    },
  };
}

test('integer outputs are left out of the count: float16 floats beside exact integers are lower-precision', async () => {
  const m = await measureKernel(scriptedLab(), mixed, sort.reference, options);
  expect(m.code).toBe('lower-precision');
  // every counted value is a float: as many for the candidate as for the reference
  const [, short, values, refShort, refValues] = /^(\d+) of (\d+) float32 outputs have float16 mantissas \(the reference: (\d+) of (\d+)\)$/.exec(m.message ?? '') ?? [];
  expect(short).toBe(values);
  expect(refShort).toBe('0');
  expect(refValues).toBe(values);
});

test('a wrong answer stays a wrong answer, whatever the precision of the correct calls', async () => {
  const m = await measureKernel(scriptedLab(true), mixed, sort.reference, options);
  expect(m.code).toBe('wrong-answer');
  expect(m.trials.filter((t) => t.code === 'wrong-answer')).toHaveLength(1);
});

/**
 * A lab whose candidate answers float16-like floats (1.5, in 100 ns) on the calls `late` picks — by
 * the candidate's call number counted from the end of correctness, so warm-up calls come first,
 * then the timed ones — and full-precision ones (1 + 2^-20, in 1000 ns, as the reference) on the others.
 */
function countingLab(late: (k: number) => boolean): KernelLab {
  const correctnessCalls = sort.edgeShapes.length + 5;
  return {
    async open() {
      let candidateCalls = 0;
      return {
        status: { reference: { code: 'ok' }, candidate: { code: 'ok' } },
        async call(name: string, _inputs: Record<string, KernelArray>, _dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult> {
          const k = name === 'candidate' ? candidateCalls++ - correctnessCalls : -1;
          const short = k >= 0 && late(k);
          const out: Record<string, KernelArray> = {};
          for (const s of outputs) out[s.name] = s.name === PROBE_OUTPUT ? new Int32Array(s.length) : new Float32Array(s.length).fill(short ? 1.5 : 1 + 2 ** -20);
          return { code: 'ok', ns: short ? 100 : 1000, outputs: out, flags: [], modified: [] };
        },
        async close() {},
      };
    },
  };
}
const loose: KernelTask = { ...sort, tolerance: { atol: 1, rtol: 0 } };

test('a kernel that drops to float16 once correctness is over (it counts its calls) is lower-precision too: warm-up and timed calls are counted', async () => {
  const m = await measureKernel(countingLab(() => true), loose, sort.reference, { ...options, time: true });
  expect(m).toMatchObject({ code: 'lower-precision', correct: false, timing: null, checkedCalls: 35 });
  expect(m.message).toMatch(/^(\d+) of \1 float32 outputs have float16 mantissas \(the reference: 0 of (\d+)\) in the warm-up calls$/);
  // the correctness calls alone were full precision: every trial passed
  expect(m.trials.every((t) => t.code === 'ok')).toBe(true);
});

test('float16 in the timed calls only: the full-precision warm-up calls do not dilute them (5 of 35 calls would leave 86%, under the 90% of the rule)', async () => {
  const m = await measureKernel(countingLab((k) => k >= 5), loose, sort.reference, { ...options, time: true });
  expect(m).toMatchObject({ code: 'lower-precision', correct: false, timing: null, checkedCalls: 35 });
  expect(m.message).toMatch(/^(\d+) of \1 float32 outputs have float16 mantissas \(the reference: 0 of \1\) in the timed calls$/);
});

test('float16 on most timed calls but not 90% of them (they set the median): each call is judged on its own', async () => {
  // warm-up calls 0–4 full precision; of the 30 timed calls, 3 in every 5 answer float16 in 100 ns
  const m = await measureKernel(countingLab((k) => k >= 5 && (k - 5) % 5 < 3), loose, sort.reference, { ...options, time: true });
  expect(m).toMatchObject({ code: 'lower-precision', correct: false, timing: null, checkedCalls: 35 });
  expect(m.message).toBe("18 of 35 warm-up and timed calls have float16 mantissas in their float32 outputs (the reference's do not)");
  // float16 on a warm-up call alone is judged the same way
  const warm = await measureKernel(countingLab((k) => k === 1), loose, sort.reference, { ...options, time: true });
  expect(warm.message).toBe("1 of 35 warm-up and timed calls have float16 mantissas in their float32 outputs (the reference's do not)");
});

test('calls too small to be judged on their own (10 values, the rule needs 64) are judged as a phase: the timed calls, the warm-up calls', async () => {
  const small = { ...options, shape: { N: 10 }, time: true };
  const timed = await measureKernel(countingLab((k) => k >= 5), loose, sort.reference, small);
  expect(timed).toMatchObject({ code: 'lower-precision', checkedCalls: 35 });
  expect(timed.message).toBe('300 of 300 float32 outputs have float16 mantissas (the reference: 0 of 300) in the timed calls');
  // 10 warm-up calls in float16, then full precision: 100 values of the warm-up against 20 of the timed calls
  const warm = await measureKernel(countingLab((k) => k < 10), loose, sort.reference, { ...small, warmup: 10, trials: 2 });
  expect(warm).toMatchObject({ code: 'lower-precision', checkedCalls: 12 });
  expect(warm.message).toBe('100 of 100 float32 outputs have float16 mantissas (the reference: 0 of 100) in the warm-up calls');
  // and a kernel in full precision throughout is measured
  const fine = await measureKernel(countingLab(() => false), loose, sort.reference, small);
  expect(fine).toMatchObject({ code: 'ok', correct: true, checkedCalls: 35 });
});
