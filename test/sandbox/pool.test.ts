import { createSandbox, SandboxBusyError, SandboxCancelledError, type Sandbox } from '../../src/sandbox';
import { outputMatches } from '../../src/core/output-match';
import { resolveLimits } from '../../src/sandbox/limits';
import { requestProblem } from '../../src/sandbox/code-runner';
import { SandboxPool } from '../../src/sandbox/pool';

const loop = { language: 'js' as const, program: 'function f(){ for (;;) {} }', entry: 'f', tests: [{ input: [] }], limits: { timeMs: 1500 } };
const quick = (x: number) => ({ language: 'js' as const, program: 'function f(x){ return x * 2 }', entry: 'f', tests: [{ input: [x], expected: x * 2 }] });

describe('the sandbox pool', () => {
  let sb: Sandbox;
  afterEach(() => sb?.close());

  test('a run never blocks the event loop: timers keep firing during an infinite loop', async () => {
    sb = createSandbox({ concurrency: 1 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const started = Date.now();
    const r = await sb.code.run(loop);
    clearInterval(timer);
    expect(r.code).toBe('timeout');
    // the loop ran ~1.5 s on another process; the host's 20 ms timer fired throughout
    expect(ticks).toBeGreaterThan((Date.now() - started) / 20 / 4);
  });

  test('runs beyond the concurrency wait in order and all complete', async () => {
    sb = createSandbox({ concurrency: 2 });
    const runs = Array.from({ length: 12 }, (_, i) => sb.code.run(quick(i)));
    expect(sb.pool.running).toBe(2);
    expect(sb.pool.queued).toBe(10);
    const results = await Promise.all(runs);
    expect(results.map((r) => r.tests[0].actual)).toEqual(Array.from({ length: 12 }, (_, i) => i * 2));
    expect(sb.pool.queued).toBe(0);
    expect(sb.pool.stats.workersStarted).toBeLessThanOrEqual(2);
  });

  test('back-pressure: a full queue refuses with a clear error', async () => {
    sb = createSandbox({ concurrency: 1, maxQueue: 1 });
    const a = sb.code.run(quick(1));
    const b = sb.code.run(quick(2));
    await expect(sb.code.run(quick(3))).rejects.toThrow(SandboxBusyError);
    await expect(sb.code.run(quick(3))).rejects.toThrow(/queue is full \(1 runs waiting\)/);
    await Promise.all([a, b]);
  });

  test('cancellation: a queued run leaves the queue; a running one is stopped and the worker replaced', async () => {
    sb = createSandbox({ concurrency: 1 });
    const running = new AbortController();
    const queued = new AbortController();
    const first = sb.code.run(loop, running.signal);
    const second = sb.code.run(quick(4), queued.signal);
    queued.abort();
    await expect(second).rejects.toThrow(SandboxCancelledError);
    const t0 = Date.now();
    running.abort();
    await expect(first).rejects.toThrow(SandboxCancelledError);
    expect(Date.now() - t0).toBeLessThan(1000);
    const after = await sb.code.run(quick(5));
    expect(after.code).toBe('ok');
    expect(sb.pool.stats.workersStarted).toBe(2);
  });

  test('a worker that dies mid-run gives sandbox-error, and the next run works', async () => {
    sb = createSandbox({ concurrency: 1 });
    await sb.code.run(quick(1)); // starts the worker
    const pending = sb.code.run(loop);
    await new Promise((r) => setTimeout(r, 50));
    const slot = (sb.pool as unknown as { slots: { worker?: { kill(s: string): void } }[] }).slots[0];
    slot.worker!.kill('SIGKILL');
    const r = await pending;
    expect(r.code).toBe('sandbox-error');
    expect(r.message).toMatch(/sandbox worker died \(SIGKILL\)/);
    expect((await sb.code.run(quick(6))).code).toBe('ok');
  });

  test('bad requests are answered with sandbox-error naming the field, never thrown', async () => {
    sb = createSandbox({ concurrency: 1 });
    const r = await sb.code.run({ language: 'ruby' } as never);
    expect(r).toMatchObject({ code: 'sandbox-error', message: 'bad request: language must be "js" or "python", got "ruby"' });
    expect(requestProblem({ language: 'js', program: 'x', entry: 'a b', tests: [] })).toMatch(/entry must be a function name/);
    expect(requestProblem({ language: 'js', program: 'x', entry: 'f', tests: [{ input: 3 }] })).toBe('tests[0].input must be an array of arguments');
    expect(requestProblem({ language: 'python', program: 'x', entry: 'f', tests: [{ input: [], property: '(o) => true' }] })).toMatch(/properties are JavaScript/);
    const limits = await sb.code.run({ ...quick(1), limits: { timeMs: -1 } });
    expect(limits.message).toMatch(/limits.timeMs must be a number in \(0, 60000\], got -1/);
  });
});

describe('a closed pool', () => {
  test('starts no worker: a call on a slot held across the close (a kernel-lab session) is refused, and a run too', async () => {
    const pool = new SandboxPool({ concurrency: 1 });
    const { slot, release } = await pool.hold();
    await pool.close();
    await expect(pool.call(slot, 'lab.close', { id: 'x' }, 5000)).rejects.toThrow('the sandbox pool is closed');
    await expect(pool.run('tests', {}, 5000)).rejects.toThrow('the sandbox pool is closed');
    release();
    expect(pool.stats.workersStarted).toBe(0);
    expect(pool.workerPids()).toEqual([]);
  });
});

describe('limits and comparison', () => {
  test('defaults and bounds', () => {
    expect(resolveLimits(undefined)).toEqual({ timeMs: 2000, memoryMb: 256, outputBytes: 1_000_000 });
    expect(resolveLimits({ memoryMb: 64 }).memoryMb).toBe(64);
    expect(() => resolveLimits({ outputBytes: 1e12 })).toThrow(/limits.outputBytes/);
    expect(() => resolveLimits({ timeMs: Number.NaN })).toThrow(/limits.timeMs/);
  });

  test('outputs compare as JSON with a tolerance for numbers', () => {
    expect(outputMatches([1, { a: 0.1 + 0.2 }], [1, { a: 0.3 }])).toBe(true);
    expect(outputMatches({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(outputMatches([1, 2], [2, 1])).toBe(false);
    expect(outputMatches({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(outputMatches(1.0001, 1)).toBe(false);
    expect(outputMatches(undefined, null)).toBe(false);
    expect(outputMatches('1', 1)).toBe(false);
    expect(outputMatches(null, null)).toBe(true);
    expect(outputMatches([], {})).toBe(false);
  });
});

describe('stopOnTimeout', () => {
  test('after the first timeout the remaining tests are not run', async () => {
    // a limit of 1 s, not less: the first test's trivial call timed out at 200 ms on the loaded machine (load 15, under Stryker)
    const sb = createSandbox({ concurrency: 1 });
    try {
      const req = { language: 'js' as const, program: 'function f(x){ if (x > 0) for (;;) {} return x }', entry: 'f', tests: [{ input: [0], expected: 0 }, { input: [1] }, { input: [2] }, { input: [3] }], limits: { timeMs: 1000 } };
      const t0 = Date.now();
      const r = await sb.code.run({ ...req, stopOnTimeout: true });
      expect(r.tests.map((t) => t.code)).toEqual(['ok', 'timeout', 'timeout', 'timeout']);
      expect(r.tests[2].message).toBe('not run: an earlier test timed out');
      const all = await sb.code.run(req);
      expect(all.tests.map((t) => t.message)).toEqual([undefined, 'Script execution timed out.', 'Script execution timed out.', 'Script execution timed out.']);
      expect(Date.now() - t0).toBeGreaterThan(0);
    } finally {
      await sb.close();
    }
  });
});
