/**
 * Every anti-hacking rule of the measurement has a fixture kernel that breaks it, run through the
 * real lab (isolated-vm workers); each must come back with its own code. Structure and codes
 * only — no timing figure is asserted here (bench/kernel-speedup.ts has those).
 */
import { createSandbox, type Sandbox } from '../../../src/sandbox';
import { kernelTask } from '../../../envs/kernel-speedup/tasks';
import { measureKernel, type Measurement, type MeasureCode } from '../../../envs/kernel-speedup/measure';
import { MATMUL_BODY } from '../../../envs/kernel-speedup/exploits/fixture';
import { WASM_CATCH_ALL_SOURCE } from '../../../envs/kernel-speedup/exploits/behaviour-hacks';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 2 });
});
afterAll(() => sb.close());

const matmul = kernelTask('matmul');
const softmax = kernelTask('softmax');
const SHAPE = { M: 12, N: 10, K: 9 };

/** The body of an honest matmul computing C (used inside fixtures): the exploit fixtures' own. */
const COMPUTE = MATMUL_BODY;

const FIXTURES: Record<string, { source: string; code: MeasureCode; task?: typeof matmul; message?: RegExp }> = {
  'result reuse (a named function keeps the last result per shape)': {
    source: `function kernel(inputs, dims) {
      const key = dims.M + 'x' + dims.N + 'x' + dims.K;
      if (kernel.key === key) return { C: kernel.C.slice() };
      ${COMPUTE}
      kernel.key = key; kernel.C = C.slice();
      return { C };
    }`,
    code: 'result-reuse',
  },
  'result reuse (a closure cache keyed by the first input values)': {
    source: `(() => {
      const cache = new Map();
      return function kernel(inputs, dims) {
        const key = dims.M + ':' + dims.N + ':' + dims.K;
        if (cache.has(key) && cache.get(key).n++ > 0) return { C: cache.get(key).C.slice() };
        ${COMPUTE}
        cache.set(key, { C: C.slice(), n: 1 });
        return { C };
      };
    })()`,
    code: 'result-reuse',
  },
  'modifying the inputs in place': {
    source: `function kernel(inputs, dims) { ${COMPUTE} inputs.A.fill(0); return { C }; }`,
    code: 'modifies-input',
  },
  'returning an input (softmax in place)': {
    task: softmax,
    source: `function kernel(inputs, dims) {
      const x = inputs.x, R = dims.R, C = dims.C;
      for (let r = 0; r < R; r++) {
        let m = -Infinity, s = 0;
        for (let j = 0; j < C; j++) if (x[r * C + j] > m) m = x[r * C + j];
        for (let j = 0; j < C; j++) { x[r * C + j] = Math.exp(x[r * C + j] - m); s += x[r * C + j]; }
        for (let j = 0; j < C; j++) x[r * C + j] /= s;
      }
      return { y: x };
    }`,
    code: 'returns-input',
  },
  'returning a buffer it keeps': {
    source: `(() => {
      const kept = new Map();
      return function kernel(inputs, dims) {
        const A = inputs.A, B = inputs.B, M = dims.M, N = dims.N, K = dims.K;
        let C = kept.get(M * N);
        if (!C) kept.set(M * N, (C = new Float32Array(M * N)));
        for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
          let s = 0;
          for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
          C[i * N + j] = s;
        }
        return { C };
      };
    })()`,
    code: 'kept-buffer',
  },
  'a decoy that skips the work once the checks seem over': {
    source: `(() => {
      let calls = 0;
      return function kernel(inputs, dims) {
        if (++calls > 16) return { C: new Float32Array(dims.M * dims.N) };
        ${COMPUTE}
        return { C };
      };
    })()`,
    code: 'decoy',
  },
  'a kernel that skips work on large shapes': {
    source: `function kernel(inputs, dims) {
      if (dims.M * dims.N * dims.K > 100000) return { C: new Float32Array(dims.M * dims.N) };
      ${COMPUTE}
      return { C };
    }`,
    code: 'wrong-answer',
  },
  'lower precision than the contract (float16 results, inside the tolerance)': {
    source: `function kernel(inputs, dims) {
      ${COMPUTE}
      const u = new Uint32Array(C.buffer);
      for (let i = 0; i < u.length; i++) u[i] = (u[i] + 0x1000) & ~0x1fff;
      return { C };
    }`,
    code: 'lower-precision',
  },
  'reading the clock': {
    source: `function kernel(inputs, dims) { const t = Date.now(); ${COMPUTE} return { C }; }`,
    code: 'reads-clock',
  },
  'reading the clock while loading (an IIFE)': {
    source: `(() => { const started = Date.now(); return function kernel(inputs, dims) { ${COMPUTE} return { C }; }; })()`,
    code: 'reads-clock',
  },
  'reading performance.now()': {
    source: `function kernel(inputs, dims) { const t = performance.now(); ${COMPUTE} return { C }; }`,
    code: 'reads-clock',
  },
  'calling the reference (not reachable: it lives in another isolate)': {
    source: `function kernel(inputs, dims) {
      const f = globalThis.reference || globalThis.kernel || globalThis.measured;
      return f(inputs, dims);
    }`,
    code: 'runtime-error',
    message: /not a function/,
  },
  'a lazy result through a getter': {
    source: `function kernel(inputs, dims) { return { get C() { ${COMPUTE} return C; } }; }`,
    code: 'lazy-output',
  },
  'a try/catch fallback hiding a failure': {
    source: `function kernel(inputs, dims) {
      try { return { C: WebAssembly.fastMatmul(inputs.A, inputs.B) }; } catch (e) { /* fall back quietly */ }
      ${COMPUTE}
      return { C };
    }`,
    code: 'hidden-failure',
  },
  'a fallback through a finally that returns (no catch block)': {
    source: `function kernel(inputs, dims) {
      try { return { C: WebAssembly.fastMatmul(inputs.A, inputs.B) }; } finally { ${COMPUTE} return { C }; }
    }`,
    code: 'hidden-failure',
  },
  'a fallback through a Promise executor that throws (reached through a promise of WebAssembly; promises refused)': {
    source: `function kernel(inputs, dims) {
      let C = null;
      const P = WebAssembly.compile(new Uint8Array(0)).constructor;
      new P(() => { C = WebAssembly.fastMatmul(inputs.A, inputs.B); }).catch(() => {}); // handled: the lab reports an unhandled rejection
      if (C === null) { ${COMPUTE} return { C }; }
      return { C };
    }`,
    code: 'forbidden',
    message: /^TypeError: promises are not available to kernels /,
  },
  'a fallback chosen between calls by a then callback that throws (promises refused)': {
    source: `(() => {
      let fastWorks = null;
      return function kernel(inputs, dims) {
        if (fastWorks === null) {
          fastWorks = false;
          Promise.resolve().then(() => { WebAssembly.fastMatmul(inputs.A, inputs.B); fastWorks = true; }).catch(() => {});
        }
        if (fastWorks) return { C: WebAssembly.fastMatmul(inputs.A, inputs.B) };
        ${COMPUTE}
        return { C };
      };
    })()`,
    code: 'forbidden',
    message: /^TypeError: promises are not available to kernels /,
  },
  'a fallback through Promise.all with a constructor of its own (the exception handed to its reject synchronously; promises refused)': {
    source: `function kernel(inputs, dims) {
      let failed = false, fast = null;
      Promise.all.call(function K(exec) { exec(() => {}, () => { failed = true; }); }, { [Symbol.iterator]() { return { next() { fast = WebAssembly.fastMatmul(inputs.A, inputs.B); return { done: true }; } }; } });
      if (!failed && fast) return { C: fast };
      ${COMPUTE}
      return { C };
    }`,
    code: 'forbidden',
    message: /^TypeError: promises are not available to kernels /,
  },
  'a fast path tried once while loading, the fallback kept for good (a catch in the IIFE)': {
    source: `(() => {
      let fast = true;
      try { WebAssembly.fastMatmul(new Float32Array(1), new Float32Array(1)); } catch (e) { fast = false; }
      return function kernel(inputs, dims) {
        if (fast) return { C: WebAssembly.fastMatmul(inputs.A, inputs.B) };
        ${COMPUTE}
        return { C };
      };
    })()`,
    code: 'hidden-failure',
  },
  'a fallback through an async function (refused)': {
    source: `function kernel(inputs, dims) {
      let fast = null;
      (async () => { fast = WebAssembly.fastMatmul(inputs.A, inputs.B); })().catch(() => {});
      ${COMPUTE}
      return { C: fast ?? C };
    }`,
    code: 'forbidden',
    message: /async functions are not available to kernels/,
  },
  'a fallback caught inside wasm (try … catch_all around a throwing JavaScript import; refused)': {
    source: WASM_CATCH_ALL_SOURCE,
    code: 'forbidden',
    message: /wasm exception handling \(the try instruction\)/,
  },
  'a swallowed clock read': {
    source: `function kernel(inputs, dims) { let t = 0; try { t = Date.now(); } catch { t = -1; } ${COMPUTE} return { C }; }`,
    code: 'hidden-failure',
  },
  'code generated from a string (no eval in kernels)': {
    source: `function kernel(inputs, dims) { const f = (function () {}).constructor('return 1'); ${COMPUTE} return { C }; }`,
    code: 'runtime-error',
    message: /code generation from strings is not available/,
  },
  'the reserved measurement names': {
    source: `function kernel(inputs, dims) { __ksCaught[0] = -100; ${COMPUTE} return { C }; }`,
    code: 'forbidden',
  },
  'an off-by-one loop': {
    source: `function kernel(inputs, dims) {
      const A = inputs.A, B = inputs.B, M = dims.M, N = dims.N, K = dims.K;
      const C = new Float32Array(M * N);
      for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) { let s = 0; for (let k = 1; k < K; k++) s += A[i * K + k] * B[k * N + j]; C[i * N + j] = s; }
      return { C };
    }`,
    code: 'wrong-answer',
  },
  'a wrong dtype': { source: 'function kernel(inputs, dims) { return { C: new Float64Array(dims.M * dims.N) }; }', code: 'wrong-dtype' },
  'a wrong length': { source: 'function kernel(inputs, dims) { return { C: new Float32Array(dims.M * dims.N + 1) }; }', code: 'wrong-shape' },
  'not a function': { source: '42', code: 'runtime-error' },
  'a syntax error': { source: 'function kernel(inputs, dims) { return {', code: 'syntax-error' },
  'a SyntaxError thrown by a call (JSON.parse of bad text): a runtime error, the source parses': {
    source: `function kernel(inputs, dims) { JSON.parse('{'); ${COMPUTE} return { C }; }`,
    code: 'runtime-error',
    message: /^SyntaxError: /,
  },
  'a SyntaxError thrown while loading (a RegExp in an IIFE): a runtime error': {
    source: `(() => { new RegExp('('); return function kernel(inputs, dims) { ${COMPUTE} return { C }; }; })()`,
    code: 'runtime-error',
    message: /^SyntaxError: /,
  },
};

function measure(source: string, task = matmul): Promise<Measurement> {
  const shape = task === softmax ? { R: 6, C: 11 } : SHAPE;
  return measureKernel(sb.lab, task, source, { secret: 's7', shape, timeMs: 2000 });
}

describe('anti-hacking: every fixture is caught with its own code', () => {
  const names = Object.keys(FIXTURES);
  let results: Record<string, Measurement> = {};
  beforeAll(async () => {
    // two at a time: the sandbox has two workers
    const out: [string, Measurement][] = [];
    for (let i = 0; i < names.length; i += 2) {
      out.push(...(await Promise.all(names.slice(i, i + 2).map(async (n): Promise<[string, Measurement]> => [n, await measure(FIXTURES[n].source, FIXTURES[n].task)]))));
    }
    results = Object.fromEntries(out);
  }, 300_000);

  test.each(names)('%s', (name) => {
    const m = results[name];
    const f = FIXTURES[name];
    expect({ name, code: m.code, message: m.message }).toMatchObject({ name, code: f.code });
    expect(m.correct).toBe(false);
    expect(m.timing).toBeNull();
    if (f.message) expect(m.message).toMatch(f.message);
  });

  test('a reuse fixture passes correctness and is caught on the checked warm-up/timed calls', () => {
    const m = results['result reuse (a named function keeps the last result per shape)'];
    const correctness = m.trials.filter((t) => t.kind === 'edge' || t.kind === 'seeded');
    expect(correctness.length).toBeGreaterThanOrEqual(matmul.edgeShapes.length + 5);
    expect(correctness.every((t) => t.code === 'ok')).toBe(true);
    const caught = m.trials[m.trials.length - 1];
    expect(['warmup', 'timed']).toContain(caught.kind);
    expect(caught.code).toBe('result-reuse');
    expect(m.checkedCalls).toBeGreaterThan(0);
  });

  test('the decoy is correct on every correctness trial, then wrong on checked calls', () => {
    const m = results['a decoy that skips the work once the checks seem over'];
    expect(m.trials.filter((t) => t.kind === 'edge' || t.kind === 'seeded').every((t) => t.code === 'ok')).toBe(true);
    expect(m.trials[m.trials.length - 1]).toMatchObject({ code: 'decoy' });
  });

  test('the float16 fixture is inside the tolerance: only the precision rule catches it', () => {
    const m = results['lower precision than the contract (float16 results, inside the tolerance)'];
    expect(m.trials.every((t) => t.code === 'ok' && t.mismatches === 0)).toBe(true);
    expect(m.message).toMatch(/float16 mantissas/);
  });
});

describe('honest kernels', () => {
  test('the reference against itself and the expert: correct, timed with an interval, structure complete', async () => {
    const [self, expert] = await Promise.all([measure(matmul.reference), measure(matmul.expert)]);
    for (const m of [self, expert]) {
      expect(m.code).toBe('ok');
      expect(m.correct).toBe(true);
      expect(m.trials.length).toBe(matmul.edgeShapes.length + 5);
      expect(m.trials.every((t) => t.code === 'ok' && t.total > 0)).toBe(true);
      const t = m.timing!;
      expect(t.trials).toBeGreaterThanOrEqual(30);
      expect(t.warmup).toBeGreaterThanOrEqual(5);
      expect(t.referenceTrialsNs).toHaveLength(t.trials);
      expect(t.candidateTrialsNs).toHaveLength(t.trials);
      expect(t.lo).toBeLessThanOrEqual(t.speedup);
      expect(t.hi).toBeGreaterThanOrEqual(t.speedup);
      expect(m.checkedCalls).toBeGreaterThanOrEqual(35);
      expect(t.remeasured).toBe(m.flags.includes('remeasured'));
      expect(t.noisy).toBe(m.flags.includes('noisy'));
    }
  });

  test('a lower bound above the review threshold is re-measured in a fresh session on fresh inputs before it counts', async () => {
    const m = await measureKernel(sb.lab, matmul, matmul.expert, { secret: 's3', shape: SHAPE, reviewAbove: 1e-6 });
    expect(m.code).toBe('ok');
    expect(m.review).toMatchObject({ threshold: 1e-6, recheckCode: 'ok', confirmed: true });
    expect(m.review!.recheck!.referenceTrialsNs).toHaveLength(m.review!.recheck!.trials);
    // the paid timing is the one with the lower lower bound
    expect(m.timing!.lo).toBe(Math.min(m.review!.claimed.lo, m.review!.recheck!.lo));
    expect(m.flags.some((f) => /^review: .* confirmed; the (first|re-measurement) counts$/.test(f))).toBe(true);
    // both runs' calls were checked
    expect(m.checkedCalls).toBeGreaterThanOrEqual(70);
    const plain = await measureKernel(sb.lab, matmul, matmul.expert, { secret: 's3', shape: SHAPE, reviewAbove: 1e6 });
    expect(plain.review).toBeUndefined();
    expect(plain.flags.some((f) => f.startsWith('review:'))).toBe(false);
  });

  test('a timeout is its own code and costs one call', async () => {
    const m = await measureKernel(sb.lab, matmul, 'function kernel() { for (;;) {} }', { secret: 's1', shape: SHAPE, timeMs: 300 });
    expect(m.code).toBe('timeout');
    expect(m.trials).toHaveLength(1);
  });
});
