/**
 * JavaScript runs pipelined to a slot's worker (pool.ts `run`): the worker holds the next runs
 * while one runs, and the runs dispatched together go as one batch answered by one message. Each
 * run gets its own answer, in order; a worker lost while running a run alone fails that run only
 * (the runs sent ahead of time are served by a fresh worker); a worker lost in the middle of a
 * batch blames none of its runs: each is sent again alone, and only the one that loses a worker
 * alone is failed (the batch rule); a cancelled run sent ahead is dropped without costing the
 * worker, and a cancelled run running inside a batch ends the worker only after the runs before it
 * are answered; and nothing a program leaves in its context (globals, patched prototypes) reaches
 * the next program, whether that one waited in the worker or took the context the worker prepared
 * between runs.
 */
import { createSandbox, SandboxCancelledError, type Sandbox } from '../../src/sandbox';
import type { CodeRunRequest } from '../../src/core/sandbox';
import { loop, own, slotOf, until } from './pool-view';

/** One turn of the event loop: the runs asked for so far have been sent to the worker. */
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('pipelined JavaScript runs', () => {
  let sb: Sandbox;
  afterEach(() => sb?.close());

  test('under concurrency every run gets its own answer, and the worker holds the next run while one runs', async () => {
    sb = createSandbox({ concurrency: 1 });
    const requests = Array.from({ length: 24 }, (_, i) => (i % 6 === 5 ? { ...own(i), program: 'function f(x){ throw new Error("no " + x) }' } : own(i)));
    const runs = requests.map((r) => sb.code.run(r));
    // one running, three sent ahead to the worker with it (one batch), the rest in the pool's queue
    expect(sb.pool.running).toBe(1);
    expect(sb.pool.queued).toBe(23);
    await tick();
    expect(slotOf(sb).inflight.length).toBe(4);
    expect(slotOf(sb).units).toMatchObject([{ batch: true, jobs: [{}, {}, {}, {}] }]);
    const results = await Promise.all(runs);
    results.forEach((r, i) => {
      if (i % 6 === 5) expect(r.tests[0]).toMatchObject({ code: 'runtime-error', message: `Error: no ${i}` });
      else expect(r).toMatchObject({ code: 'ok', passed: 1, tests: [{ actual: i * i + i }] });
    });
    expect(sb.pool.stats.workersStarted).toBe(1);
    expect(sb.pool.queued).toBe(0);
  });

  test('a batch goes as one message and is answered by one message, each run its own answer', async () => {
    sb = createSandbox({ concurrency: 1 });
    await sb.code.run(own(1)); // starts the worker
    const fromWorker: unknown[] = [];
    slotOf(sb).worker!.on('message', (m) => fromWorker.push(m));
    const sent = sb.pool.stats.messages;
    const results = await Promise.all([2, 3, 4, 5].map((i) => sb.code.run(i === 4 ? { ...own(i), program: 'function f(x){ throw new Error("no " + x) }' } : own(i))));
    expect(results.map((r) => [r.code, r.tests[0].actual ?? r.tests[0].message])).toEqual([
      ['ok', 6],
      ['ok', 12],
      ['runtime-error', 'Error: no 4'],
      ['ok', 30],
    ]);
    expect(sb.pool.stats.messages - sent).toBe(1);
    expect(fromWorker).toHaveLength(1);
    expect(JSON.parse(fromWorker[0] as string)).toHaveLength(4);
  });

  test('a worker lost mid-batch blames no run: each is sent again alone, and only the one that loses a worker alone fails; no answer is lost', async () => {
    sb = createSandbox({ concurrency: 1 });
    await sb.code.run(own(1)); // starts the worker
    const first = slotOf(sb).worker!;
    // own(2) and own(3) end before the loop, but their answers wait for the batch's end
    const runs = [sb.code.run(own(2)), sb.code.run(own(3)), sb.code.run(loop(20_000)), sb.code.run(own(4))];
    await until(() => slotOf(sb).units[0]?.batch === true);
    await new Promise((r) => setTimeout(r, 300));
    first.kill('SIGKILL'); // a crash inside the batch: whose, the pool cannot know
    // the runs come back one per message to a fresh worker: once own(2) and own(3) are answered, the loop runs alone
    await until(() => slotOf(sb).worker !== undefined && slotOf(sb).worker !== first && slotOf(sb).units.length === 2 && !slotOf(sb).units[0].batch);
    slotOf(sb).worker!.kill('SIGKILL');
    const [a, b, victim, c] = await Promise.all(runs);
    expect(victim.code).toBe('sandbox-error');
    expect(victim.message).toMatch(/sandbox worker died \(SIGKILL\)/);
    expect([a, b, c].map((x) => [x.code, x.tests[0].actual])).toEqual([
      ['ok', 6],
      ['ok', 12],
      ['ok', 20],
    ]);
    expect(sb.pool.stats.isolated).toBe(4);
    expect(sb.pool.stats.workersStarted).toBe(3);
  });

  test('a worker lost running a run alone fails that run only: the runs sent ahead go to a fresh worker and are served', async () => {
    sb = createSandbox({ concurrency: 1 });
    await sb.code.run(own(1)); // starts the worker
    const first = slotOf(sb).worker!;
    const victim = sb.code.run(loop(20_000));
    await until(() => slotOf(sb).units.length === 1); // sent alone
    const behind = [2, 3, 4].map((i) => sb.code.run(own(i)));
    await until(() => slotOf(sb).units.length === 2); // the loop runs, the others wait in the worker as one batch
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
    expect(sb.pool.stats.isolated).toBe(0);
  });

  test('a run the watchdog had to stop retires its worker: its batch is answered up to it, the run after it is served by the next worker', async () => {
    sb = createSandbox({ concurrency: 1 });
    const started = sb.pool.stats.workersStarted;
    const before = sb.code.run(own(6));
    const stuck = sb.code.run({ language: 'js', program: `function f(){ const s = 'x'.repeat(2**28) + 'y'; return s.split('').length }`, entry: 'f', tests: [{ input: [] }], limits: { timeMs: 1000, memoryMb: 256 } });
    const behind = sb.code.run(own(7));
    await tick();
    expect(slotOf(sb).units).toMatchObject([{ batch: true, jobs: [{}, {}, {}] }]);
    expect(await before).toMatchObject({ code: 'ok', tests: [{ actual: 42 }] });
    expect(['timeout', 'memory-limit']).toContain((await stuck).code);
    expect(await behind).toMatchObject({ code: 'ok', tests: [{ actual: 56 }] });
    expect(sb.pool.stats.workersStarted).toBeGreaterThan(started + 1);
  });

  test('a run cancelled while waiting in a batch is answered at once, skipped there, and costs no worker', async () => {
    sb = createSandbox({ concurrency: 1 });
    const running = sb.code.run(loop(1500));
    const ahead = new AbortController();
    const cancelled = sb.code.run(own(3), ahead.signal);
    const behind = sb.code.run(own(4));
    await tick();
    expect(slotOf(sb).units).toMatchObject([{ batch: true, jobs: [{}, {}, {}] }]);
    ahead.abort();
    await expect(cancelled).rejects.toThrow(SandboxCancelledError);
    const after = sb.code.run(own(5));
    expect((await running).code).toBe('timeout');
    expect(await behind).toMatchObject({ code: 'ok', tests: [{ actual: 20 }] });
    expect(await after).toMatchObject({ code: 'ok', tests: [{ actual: 30 }] });
    expect(sb.pool.stats.workersStarted).toBe(1);
    expect(sb.pool.stats.skipped).toBe(1); // the worker skipped it (its answer says so), not ran it
  });

  test('a run cancelled while running inside a batch is answered at once; the worker ends itself and the runs after it go to a fresh worker', async () => {
    sb = createSandbox({ concurrency: 1 });
    await sb.code.run(own(1)); // starts the worker
    const stop = new AbortController();
    const running = sb.code.run(loop(30_000), stop.signal);
    const after = [sb.code.run(own(3)), sb.code.run(own(4))];
    await until(() => slotOf(sb).units[0]?.batch === true); // sent: the worker starts the loop as the batch arrives
    stop.abort();
    await expect(running).rejects.toThrow(SandboxCancelledError);
    expect((await Promise.all(after)).map((r) => [r.code, r.tests[0].actual])).toEqual([
      ['ok', 12],
      ['ok', 20],
    ]);
    // the loop could not be stopped otherwise: the worker answered and ended; no run was sent again alone
    expect(sb.pool.stats.workersStarted).toBe(2);
    expect(sb.pool.stats.isolated).toBe(0);
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

  test('with batch: false each run is its own message, answered as soon as it ends', async () => {
    sb = createSandbox({ concurrency: 1, batch: false });
    await sb.code.run(own(1)); // starts the worker
    const fromWorker: unknown[] = [];
    slotOf(sb).worker!.on('message', (m) => fromWorker.push(m));
    const sent = sb.pool.stats.messages;
    const runs = [2, 3, 4].map((i) => sb.code.run(own(i)));
    await tick();
    expect(slotOf(sb).units.map((u) => u.batch)).toEqual([false, false, false]);
    expect((await Promise.all(runs)).map((r) => r.tests[0].actual)).toEqual([6, 12, 20]);
    expect(sb.pool.stats.messages - sent).toBe(3);
    expect(fromWorker).toHaveLength(3);
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
