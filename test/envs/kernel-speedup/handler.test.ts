/**
 * The `kernel-measure` effect handler (handler.ts) turns the env's request into a measurement
 * (issue 23, "Safety code under mutation"): the protocol's floors hold whatever the request says,
 * the request's limits, CV threshold and abort signal reach the lab, and an attack request runs
 * the attacker's input (the review threshold from the task's expert is secret-inputs.test.ts's).
 * Against a recording lab (no sandbox: outputs and "times" are what the test says).
 */
import type { KernelArray, KernelCallResult, KernelLab, KernelOutputSpec } from '../../../src/core/sandbox';
import { KERNEL_MEASURE_EFFECT, PROBE_OUTPUT, kernelMeasureHandler, kernelTask, performKernelRequest, type AttackRequest, type MeasureRequest } from '../../../envs/kernel-speedup';

interface Opened {
  options: unknown;
  signal: AbortSignal | undefined;
}

/**
 * A lab answering zeros (the reference and the candidate agree); a reference call takes 1000 ns,
 * the candidate's i-th call of a session `candidateNs(i)` ns. Records each session's options and
 * signal, and each call's name and inputs.
 */
function recordingLab(candidateNs: (i: number) => number = () => 1000) {
  const opened: Opened[] = [];
  const calls: { session: number; name: string; inputs: Record<string, KernelArray> }[] = [];
  const lab: KernelLab = {
    async open(_kernels, options, signal) {
      const session = opened.push({ options, signal }) - 1;
      let candidateCalls = 0;
      return {
        status: { reference: { code: 'ok' }, candidate: { code: 'ok' } },
        async call(name: string, inputs: Record<string, KernelArray>, _dims: Record<string, number>, outputs: KernelOutputSpec[]): Promise<KernelCallResult> {
          calls.push({ session, name, inputs });
          const out: Record<string, KernelArray> = {};
          for (const s of outputs) out[s.name] = s.name === PROBE_OUTPUT ? new Int32Array(s.length) : new Float32Array(s.length);
          return { code: 'ok', ns: name === 'candidate' ? candidateNs(candidateCalls++) : 1000, outputs: out, flags: [], modified: [] };
        },
        async close() {},
      };
    },
  };
  return { lab, opened, calls };
}

// sort: small inputs over its edge and drawn shapes (fast measurements)
const sort = kernelTask('sort');
const shape = { N: 777 };
const measure = (over: Partial<MeasureRequest> = {}): MeasureRequest => ({
  op: 'measure',
  task: 'sort',
  candidate: { kind: 'js', source: sort.reference },
  shape,
  seededTrials: 5,
  warmup: 5,
  trials: 30,
  cvThreshold: 0.1,
  expertCeiling: null,
  timeMs: 1000,
  memoryMb: 64,
  ...over,
});

/** The measurement of a measure request's result. */
async function measured(lab: KernelLab, req: MeasureRequest, signal?: AbortSignal) {
  const r = await performKernelRequest(lab, req, signal);
  if (r.op !== 'measure') throw new Error(`expected a measurement, got ${r.op}`);
  return r.measurement;
}

describe('the measure request', () => {
  test('below the floors the floors hold: 5 seeded shapes, 5 warm-up calls, 30 timed trials', async () => {
    const m = await measured(recordingLab().lab, measure({ seededTrials: 0, warmup: 0, trials: 2 }));
    expect(m.code).toBe('ok');
    expect(m.trials.filter((t) => t.kind === 'seeded')).toHaveLength(5);
    expect(m.timing).toMatchObject({ warmup: 5, trials: 30 });
    expect(m.checkedCalls).toBe(35);
  });

  test('above the floors the request counts: 6 seeded shapes, 7 warm-up calls, 31 timed trials', async () => {
    const m = await measured(recordingLab().lab, measure({ seededTrials: 6, warmup: 7, trials: 31 }));
    expect(m.trials.filter((t) => t.kind === 'seeded')).toHaveLength(6);
    expect(m.timing).toMatchObject({ warmup: 7, trials: 31 });
    expect(m.checkedCalls).toBe(38);
  });

  test("the request's time and memory limits and the abort signal reach the lab", async () => {
    const r = recordingLab();
    const signal = new AbortController().signal;
    await measured(r.lab, measure({ timeMs: 321, memoryMb: 48 }), signal);
    expect(r.opened).toEqual([{ options: { timeMs: 321, memoryMb: 48 }, signal }]);
  });

  test("the request's CV threshold decides whether a batch is re-measured", async () => {
    // candidate times alternate 900 / 1100 ns: a robust CV of about 0.15
    const alternating = (i: number) => (i % 2 ? 1100 : 900);
    const calm = await measured(recordingLab(alternating).lab, measure({ cvThreshold: 1 }));
    expect(calm.timing).toMatchObject({ remeasured: false, noisy: false });
    const strict = await measured(recordingLab(alternating).lab, measure({ cvThreshold: 0.01 }));
    expect(strict.timing).toMatchObject({ remeasured: true, noisy: true });
    expect(strict.flags).toEqual(['remeasured', 'noisy']);
  });
});

const attack: AttackRequest = { op: 'attack', task: 'sort', candidate: { kind: 'js', source: sort.reference }, input: { dims: { N: 3 }, inputs: { x: { fill: 2 } } }, timeMs: 222, memoryMb: 33 };

describe('the attack request', () => {
  test("the candidate and the reference run on the attacker's input with the request's limits; the result is the attack's", async () => {
    const r = recordingLab();
    const signal = new AbortController().signal;
    const out = await performKernelRequest(r.lab, attack, signal);
    expect(out).toEqual({ op: 'attack', attack: { code: 'ok', referenceFinite: true, referenceCode: 'ok', check: expect.objectContaining({ kind: 'attack', code: 'ok' }) } });
    expect(r.opened).toEqual([{ options: { timeMs: 222, memoryMb: 33 }, signal }]);
    expect(r.calls.map((c) => [c.name, Array.from(c.inputs.x as Float32Array)])).toEqual([
      ['reference', [2, 2, 2]],
      ['candidate', [2, 2, 2]],
    ]);
  });
});

describe('the effect handler', () => {
  test("its kind is 'kernel-measure' (recorded in every match log: another name would not replay old logs)", () => {
    expect(KERNEL_MEASURE_EFFECT).toBe('kernel-measure');
  });

  test('performs the request with the context’s abort signal; its result is plain JSON', async () => {
    const r = recordingLab();
    const signal = new AbortController().signal;
    const out = await kernelMeasureHandler(r.lab)(attack as never, { signal } as never);
    expect(r.opened[0].signal).toBe(signal);
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
    expect(out).toMatchObject({ op: 'attack', attack: { code: 'ok' } });
  });
});
