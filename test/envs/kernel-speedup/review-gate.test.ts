/**
 * When a measurement is re-checked (measure.ts; what the re-check decides is review.ts's): only a
 * timed measurement whose lower bound is strictly above `reviewAbove` opens a second session; one
 * exactly at it, one that failed (no timing), one measured for correctness only, and one without
 * `reviewAbove` are answered by the first session alone. Against a scripted lab (no sandbox: a
 * steady 10× unless the test says otherwise).
 */
import type { KernelArray, KernelCallResult, KernelLab, KernelOutputSpec } from '../../../src/core/sandbox';
import { PROBE_OUTPUT, kernelTask, measureKernel, type MeasureOptions } from '../../../envs/kernel-speedup';

/** A lab whose reference takes 1 ms and the candidate 0.1 ms; the candidate answers ones (wrong) where `wrong`. */
function scriptedLab(wrong = false) {
  let sessions = 0;
  const opened: Record<string, string>[] = [];
  const lab: KernelLab = {
    async open(kernels) {
      sessions++;
      opened.push(kernels);
      return {
        status: { reference: { code: 'ok' }, candidate: { code: 'ok' } },
        async call(name: string, _inputs: Record<string, KernelArray>, _dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult> {
          const out: Record<string, KernelArray> = {};
          for (const s of outputs) out[s.name] = s.name === PROBE_OUTPUT ? new Int32Array(s.length) : new Float32Array(s.length).fill(wrong && name === 'candidate' ? 1 : 0);
          return { code: 'ok', ns: name === 'reference' ? 1e6 : 1e5, outputs: out, flags: [], modified: [] };
        },
        async close() {},
      };
    },
  };
  return { lab, sessions: () => sessions, opened };
}

const sort = kernelTask('sort');
const base: MeasureOptions = { shape: { N: 777 }, secret: 'gate' };

/** The measurement with `o`, and how many sessions it opened. */
async function measured(o: Partial<MeasureOptions>, wrong = false) {
  const l = scriptedLab(wrong);
  const m = await measureKernel(l.lab, sort, sort.reference, { ...base, ...o });
  return { m, sessions: l.sessions(), opened: l.opened };
}

test('a lower bound above the threshold is re-checked; one exactly at it is not', async () => {
  const plain = await measured({});
  expect(plain.sessions).toBe(1);
  const lo = plain.m.timing!.lo;
  expect(lo).toBeCloseTo(10 / 1.02, 9);
  const at = await measured({ reviewAbove: lo });
  expect(at.sessions).toBe(1);
  expect(at.m.review).toBeUndefined();
  expect(at.m).toEqual(plain.m);
  const below = await measured({ reviewAbove: lo - 1e-9 });
  expect(below.sessions).toBe(2);
  expect(below.m.review).toMatchObject({ threshold: lo - 1e-9, confirmed: true });
  // the re-check runs the same two kernels (prepared the same way) in its fresh session
  expect(below.opened[1]).toEqual(below.opened[0]);
  expect(Object.keys(below.opened[1])).toEqual(['reference', 'candidate']);
});

test('a failed measurement has nothing to re-check, whatever the threshold', async () => {
  const { m, sessions } = await measured({ reviewAbove: 0 }, true);
  expect(m).toMatchObject({ code: 'wrong-answer', timing: null });
  expect(m.review).toBeUndefined();
  expect(sessions).toBe(1);
});

test('a correctness-only measurement is not re-checked', async () => {
  const { m, sessions } = await measured({ reviewAbove: 0, time: false });
  expect(m).toMatchObject({ code: 'ok', timing: null });
  expect(sessions).toBe(1);
});
