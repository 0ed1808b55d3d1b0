import { createSandbox, type Sandbox } from '../../src/sandbox';

let sb: Sandbox;
beforeAll(() => {
  sb = createSandbox({ concurrency: 2 });
});
afterAll(() => sb.close());

const scale = 'function kernel(inp, d) { const out = new Float32Array(d.n); for (let i = 0; i < d.n; i++) out[i] = inp.x[i] * 2; return { y: out }; }';
const spec = (n: number) => [{ name: 'y', dtype: 'f32' as const, length: n }];

describe('the kernel lab', () => {
  test('separate isolates, copies in and out, host-side timing', async () => {
    const lab = await sb.lab.open({ a: scale, bad: 'function (', notfn: '42' });
    try {
      expect(lab.status.a.code).toBe('ok');
      expect(lab.status.bad.code).toBe('syntax-error');
      expect(lab.status.notfn.code).toBe('runtime-error');
      const x = new Float32Array([1, 2, 3]);
      const r = await lab.call('a', { x }, { n: 3 }, spec(3));
      expect(r.code).toBe('ok');
      expect(Array.from(r.outputs!.y as Float32Array)).toEqual([2, 4, 6]);
      expect(Object.prototype.toString.call(r.outputs!.y)).toBe('[object Float32Array]'); // (jest's realm differs from the IPC one)
      expect(r.ns).toBeGreaterThan(0);
      expect(r.flags).toEqual([]);
      expect(r.modified).toEqual([]);
      expect(Array.from(x)).toEqual([1, 2, 3]);
      expect((await lab.call('bad', { x }, { n: 3 }, spec(3))).code).toBe('sandbox-error');
    } finally {
      await lab.close();
    }
  });

  test('a SyntaxError a kernel throws while it runs (loading or called) is a runtime-error; only a source that does not compile is a syntax-error', async () => {
    const thrown = { json: "JSON.parse('{')", fn: "new Function('(')", re: "new RegExp('(')" };
    const kernels: Record<string, string> = { bad: 'function (', deep: `(${'['.repeat(20000)}${']'.repeat(20000)})` };
    for (const [k, expr] of Object.entries(thrown)) {
      kernels[`load-${k}`] = `(() => { ${expr}; return function kernel() {}; })()`;
      kernels[`call-${k}`] = `function kernel() { ${expr}; }`;
    }
    const lab = await sb.lab.open(kernels);
    try {
      expect(lab.status.bad).toEqual({ code: 'syntax-error', message: 'Unexpected end of input [bad.js:2:2]' });
      // a compile that fails otherwise (the parser's stack) is one too, as in code runs
      expect(lab.status.deep).toEqual({ code: 'syntax-error', message: expect.stringMatching(/Maximum call stack/) });
      for (const k of Object.keys(thrown)) {
        expect([k, lab.status[`load-${k}`]]).toEqual([k, { code: 'runtime-error', message: expect.stringMatching(/^SyntaxError: /) }]);
        expect(lab.status[`call-${k}`]).toEqual({ code: 'ok' });
        const r = await lab.call(`call-${k}`, { x: new Float32Array(3) }, { n: 3 }, spec(3));
        expect([k, r]).toEqual([k, { code: 'runtime-error', message: expect.stringMatching(/^SyntaxError: /) }]);
      }
    } finally {
      await lab.close();
    }
  });

  test('hacks are seen: writes to inputs, returning an input, reusing a buffer, lazy getters, wrong types, the clock', async () => {
    const lab = await sb.lab.open({
      inplace: 'function kernel(inp, d) { for (let i = 0; i < d.n; i++) inp.x[i] *= 2; return { y: new Float32Array(inp.x) }; }',
      alias: 'function kernel(inp) { return { y: inp.x }; }',
      keep: '(() => { let kept = null; return function kernel(inp, d) { if (!kept) kept = new Float32Array(d.n); for (let i = 0; i < d.n; i++) kept[i] = inp.x[i] * 2; return { y: kept }; }; })()',
      lazy: 'function kernel(inp, d) { return { get y() { return new Float32Array(d.n); } }; }',
      proxy: 'function kernel(inp, d) { return { y: new Proxy(new Float32Array(d.n), {}) }; }',
      wrongtype: 'function kernel(inp, d) { return { y: new Float64Array(d.n) }; }',
      short: 'function kernel(inp, d) { return { y: new Float32Array(d.n - 1) }; }',
      clock: 'function kernel(inp, d) { Date.now(); return { y: new Float32Array(d.n) }; }',
      loop: 'function kernel() { for (;;) {} }',
    }, { timeMs: 500 });
    try {
      const x = () => ({ x: new Float32Array([1, 2, 3]) });
      expect((await lab.call('inplace', x(), { n: 3 }, spec(3))).modified).toEqual(['x']);
      expect((await lab.call('alias', x(), { n: 3 }, spec(3))).flags).toContain('returns-input');
      expect((await lab.call('keep', x(), { n: 3 }, spec(3))).flags).toEqual([]);
      expect((await lab.call('keep', x(), { n: 3 }, spec(3))).flags).toContain('reuses-buffer');
      // a getter runs inside the timed call, and its fresh array is copied: it counts as work done now
      expect((await lab.call('lazy', x(), { n: 3 }, spec(3))).code).toBe('ok');
      expect(await lab.call('proxy', x(), { n: 3 }, spec(3))).toMatchObject({ code: 'runtime-error', message: 'output "y" is not a Float32Array' });
      expect(await lab.call('wrongtype', x(), { n: 3 }, spec(3))).toMatchObject({ code: 'runtime-error', message: 'output "y" is not a Float32Array' });
      expect(await lab.call('short', x(), { n: 3 }, spec(3))).toMatchObject({ code: 'runtime-error', message: 'output "y" has length 2, expected 3' });
      expect(await lab.call('clock', x(), { n: 3 }, spec(3))).toMatchObject({ code: 'runtime-error' });
      expect((await lab.call('loop', x(), { n: 3 }, spec(3))).code).toBe('timeout');
    } finally {
      await lab.close();
    }
  });

  test('a session holds its worker: other runs wait for a free slot, and get it back after close', async () => {
    const one = createSandbox({ concurrency: 1 });
    try {
      const lab = await one.lab.open({ a: scale });
      const run = one.code.run({ language: 'js', program: 'function f(){ return 1 }', entry: 'f', tests: [{ input: [], expected: 1 }] });
      await new Promise((r) => setImmediate(r));
      expect(one.pool.queued).toBe(1);
      await lab.close();
      expect((await run).code).toBe('ok');
    } finally {
      await one.close();
    }
  });
});
