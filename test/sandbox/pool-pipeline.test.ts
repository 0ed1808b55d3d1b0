/**
 * JavaScript runs pipelined to a slot's worker (pool.ts `run`): the worker holds the next run
 * while one runs. Each run gets its own answer, in order; a worker lost while running one run
 * fails that run only (the runs sent ahead of time are served by a fresh worker); a cancelled run
 * sent ahead is dropped without costing the worker; and nothing a program leaves in its context
 * (globals, patched prototypes) reaches the next program, whether that one waited in the worker
 * or took the context the worker prepared between runs.
 */
import { createSandbox, SandboxCancelledError, type Sandbox } from '../../src/sandbox';
import type { CodeRunRequest } from '../../src/core/sandbox';

/** Program i computes x * i + i: an answer given to the wrong run would not match. */
const own = (i: number): CodeRunRequest => ({ language: 'js', program: `function f(x){ return x * ${i} + ${i} }`, entry: 'f', tests: [{ input: [i], expected: i * i + i }] });
const loop = (timeMs: number): CodeRunRequest => ({ language: 'js', program: 'function f(){ for (;;) {} }', entry: 'f', tests: [{ input: [] }], limits: { timeMs } });

interface SlotView {
  worker?: { kill(sig: string): void; pid?: number };
  inflight: unknown[];
}
const slotOf = (sb: Sandbox): SlotView => (sb.pool as unknown as { slots: SlotView[] }).slots[0];

/** One turn of the event loop: the runs asked for so far have been sent to the worker. */
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Resolves once `done()` holds (polled on the event loop, never a fixed sleep). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}

describe('pipelined JavaScript runs', () => {
  let sb: Sandbox;
  afterEach(() => sb?.close());

  test('under concurrency every run gets its own answer, and the worker holds the next run while one runs', async () => {
    sb = createSandbox({ concurrency: 1 });
    const requests = Array.from({ length: 24 }, (_, i) => (i % 6 === 5 ? { ...own(i), program: 'function f(x){ throw new Error("no " + x) }' } : own(i)));
    const runs = requests.map((r) => sb.code.run(r));
    // one running, one sent ahead to the worker, the rest in the pool's queue
    expect(sb.pool.running).toBe(1);
    expect(sb.pool.queued).toBe(23);
    await tick();
    expect(slotOf(sb).inflight.length).toBe(2);
    const results = await Promise.all(runs);
    results.forEach((r, i) => {
      if (i % 6 === 5) expect(r.tests[0]).toMatchObject({ code: 'runtime-error', message: `Error: no ${i}` });
      else expect(r).toMatchObject({ code: 'ok', passed: 1, tests: [{ actual: i * i + i }] });
    });
    expect(sb.pool.stats.workersStarted).toBe(1);
    expect(sb.pool.queued).toBe(0);
  });

  test('a worker lost mid-run fails that run only: the runs sent ahead go to a fresh worker and are served', async () => {
    sb = createSandbox({ concurrency: 1 });
    await sb.code.run(own(1)); // starts the worker
    const first = slotOf(sb).worker!;
    const victim = sb.code.run(loop(20_000));
    const behind = [2, 3, 4].map((i) => sb.code.run(own(i)));
    await until(() => slotOf(sb).inflight.length === 2); // the loop runs, own(2) waits in the worker
    first.kill('SIGKILL');
    const r = await victim;
    expect(r.code).toBe('sandbox-error');
    expect(r.message).toMatch(/sandbox worker died \(SIGKILL\)/);
    const served = await Promise.all(behind);
    expect(served.map((x) => [x.code, x.tests[0].actual])).toEqual([
      ['ok', 6],
      ['ok', 12],
      ['ok', 20],
    ]);
    expect(sb.pool.stats.workersStarted).toBe(2);
  });

  test('a run the watchdog had to stop retires its worker; the run sent ahead of it is served by the next worker', async () => {
    sb = createSandbox({ concurrency: 1 });
    const started = sb.pool.stats.workersStarted;
    const stuck = sb.code.run({ language: 'js', program: `function f(){ const s = 'x'.repeat(2**28) + 'y'; return s.split('').length }`, entry: 'f', tests: [{ input: [] }], limits: { timeMs: 1000, memoryMb: 256 } });
    const behind = sb.code.run(own(7));
    await tick();
    expect(slotOf(sb).inflight.length).toBe(2);
    expect(['timeout', 'memory-limit']).toContain((await stuck).code);
    expect(await behind).toMatchObject({ code: 'ok', tests: [{ actual: 56 }] });
    expect(sb.pool.stats.workersStarted).toBeGreaterThan(started + 1);
  });

  test('a run cancelled while waiting in the worker is answered at once and costs no worker', async () => {
    sb = createSandbox({ concurrency: 1 });
    const running = sb.code.run(loop(1500));
    const ahead = new AbortController();
    const cancelled = sb.code.run(own(3), ahead.signal);
    await tick();
    expect(slotOf(sb).inflight.length).toBe(2);
    ahead.abort();
    await expect(cancelled).rejects.toThrow(SandboxCancelledError);
    const after = sb.code.run(own(5));
    expect((await running).code).toBe('timeout');
    expect(await after).toMatchObject({ code: 'ok', tests: [{ actual: 30 }] });
    expect(sb.pool.stats.workersStarted).toBe(1);
    expect(sb.pool.stats.skipped).toBe(1); // the worker skipped it (its answer says so), not ran it
  });

  test('nothing a program leaves in its context reaches the next one, pipelined or in the prepared context', async () => {
    sb = createSandbox({ concurrency: 1 });
    const polluter: CodeRunRequest = {
      language: 'js',
      program: `globalThis.leak = 42; var leak2 = 1; Object.prototype.polluted = 'yes'; Array.prototype.map = () => 'hijacked'; JSON.stringify = () => '"forged"'; function f(){ return [leak, ({}).polluted, [1].map((x) => x)] }`,
      entry: 'f',
      tests: [{ input: [] }],
    };
    const probe: CodeRunRequest = {
      language: 'js',
      program: `function f(){ return [typeof leak, typeof leak2, ({}).polluted === undefined, [1].map((x) => x + 1)] }`,
      entry: 'f',
      tests: [{ input: [], expected: ['undefined', 'undefined', true, [2]] }],
    };
    // pipelined: the probe waits in the worker while the polluter runs
    const [a, b] = await Promise.all([sb.code.run(polluter), sb.code.run(probe)]);
    expect(a.tests[0].actual).toEqual([42, 'yes', 'hijacked']);
    expect(b.code).toBe('ok');
    // one at a time: the probe takes the context the worker prepared after the polluter's run
    expect((await sb.code.run(polluter)).code).toBe('ok');
    expect((await sb.code.run(probe)).code).toBe('ok');
    expect(sb.pool.stats.workersStarted).toBe(1);
  });

  test('with pipeline: 1 a run is sent only to an idle worker', async () => {
    sb = createSandbox({ concurrency: 1, pipeline: 1 });
    const runs = [1, 2, 3].map((i) => sb.code.run(own(i)));
    await tick();
    expect(slotOf(sb).inflight.length).toBe(1);
    expect(sb.pool.queued).toBe(2);
    expect((await Promise.all(runs)).map((r) => r.tests[0].actual)).toEqual([2, 6, 12]);
  });
});
