/**
 * AssemblyScript candidates: compiled in a sandbox worker, run through the glue in the lab,
 * measured like any kernel; compile errors and forbidden imports are result codes.
 */
import { createSandbox, type Sandbox } from '../../../src/sandbox';
import { kernelTask } from '../../../envs/kernel-speedup/tasks';
import { assemblyScriptSignature, candidateSource, performKernelRequest, type MeasureRequest } from '../../../envs/kernel-speedup/measure';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 1 });
});
afterAll(() => sb.close());

const matmul = kernelTask('matmul');

const NAIVE = `
export function kernel(A: usize, B: usize, C: usize, M: i32, N: i32, K: i32): void {
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s: f32 = 0;
      for (let k = 0; k < K; k++) s += load<f32>(A + (<usize>(i * K + k) << 2)) * load<f32>(B + (<usize>(k * N + j) << 2));
      store<f32>(C + (<usize>(i * N + j) << 2), s);
    }
  }
}`;

/** A SIMD matmul: four columns of C per v128, B read row-wise. */
const SIMD = `
export function kernel(A: usize, B: usize, C: usize, M: i32, N: i32, K: i32): void {
  const n4 = N & ~3;
  for (let i = 0; i < M; i++) {
    const c = C + (<usize>(i * N) << 2);
    for (let j = 0; j < n4; j += 4) {
      let acc = f32x4.splat(0);
      for (let k = 0; k < K; k++) {
        const a = f32x4.splat(load<f32>(A + (<usize>(i * K + k) << 2)));
        acc = f32x4.add(acc, f32x4.mul(a, v128.load(B + (<usize>(k * N + j) << 2))));
      }
      v128.store(c + (<usize>j << 2), acc);
    }
    for (let j = n4; j < N; j++) {
      let s: f32 = 0;
      for (let k = 0; k < K; k++) s += load<f32>(A + (<usize>(i * K + k) << 2)) * load<f32>(B + (<usize>(k * N + j) << 2));
      store<f32>(c + (<usize>j << 2), s);
    }
  }
}`;

function request(source: string): MeasureRequest {
  return {
    op: 'measure',
    task: 'matmul',
    candidate: { kind: 'assemblyscript', source },
    shape: { M: 16, N: 12, K: 8 },
    seededTrials: 5,
    warmup: 5,
    trials: 30,
    cvThreshold: 0.1,
    expertCeiling: 100,
    timeMs: 3000,
    memoryMb: 128,
  };
}

describe('AssemblyScript kernels', () => {
  test('the signature the convention asks for', () => {
    expect(assemblyScriptSignature(matmul)).toBe('export function kernel(A: usize, B: usize, C: usize, M: i32, N: i32, K: i32): void');
  });

  test('a naive and a SIMD matmul compile in the sandbox and pass every check', async () => {
    for (const src of [NAIVE, SIMD]) {
      const r = await performKernelRequest(sb.lab, request(src));
      if (r.op !== 'measure') throw new Error('expected a measurement');
      expect({ code: r.measurement.code, message: r.measurement.message }).toEqual({ code: 'ok' });
      expect(r.measurement.timing?.trials).toBeGreaterThanOrEqual(30);
    }
  }, 120_000);

  test('a compile error is a result code with the diagnostics', async () => {
    const r = await performKernelRequest(sb.lab, request('export function kernel(: i32 {'));
    if (r.op !== 'measure') throw new Error('expected a measurement');
    expect(r.measurement.code).toBe('compile-error');
    expect(r.measurement.message).toMatch(/TS1003|error/);
  }, 60_000);

  test('a wrong kernel is a wrong answer; a module without kernel does not load', async () => {
    const wrong = NAIVE.replace('s +=', 's -=');
    const r = await performKernelRequest(sb.lab, request(wrong));
    expect(r.op === 'measure' && r.measurement.code).toBe('wrong-answer');
    const none = await performKernelRequest(sb.lab, request('export function other(): void {}'));
    expect(none.op === 'measure' && none.measurement).toMatchObject({ code: 'runtime-error', message: expect.stringMatching(/exports no function "kernel"/) });
  }, 60_000);

  test('a module may not import anything but abort (no clock from the host)', async () => {
    const clock = `${NAIVE}\nexport function now(): i64 { return Date.now(); }`;
    const r = await performKernelRequest(sb.lab, request(clock));
    expect(r.op === 'measure' && r.measurement).toMatchObject({ code: 'runtime-error', message: expect.stringMatching(/imports .*Date/) });
  }, 60_000);

  test('compiled glue is cached per lab and source', async () => {
    const a = await candidateSource(sb.lab, matmul, { kind: 'assemblyscript', source: NAIVE });
    const b = await candidateSource(sb.lab, matmul, { kind: 'assemblyscript', source: NAIVE });
    expect(a.ok && b.ok).toBe(true);
    expect(b).toBe(a);
  });
});
