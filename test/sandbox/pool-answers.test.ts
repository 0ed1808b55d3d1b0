/**
 * What the pool makes of its JS worker's answers (pool.ts `received`, `answered`): a worker answers
 * its requests in order, one answer per message, or one array per batch (fewer answers only when
 * the last says `retire`). Anything else — text that is not JSON, `null`, an answer to another
 * request, a batch answered out of order, in part or with more answers than runs — means the
 * worker cannot be trusted with the rest: it is killed, the run it was running alone fails as a
 * crash (sandbox-error), and a batch's runs are sent again alone to a fresh worker (the batch
 * rule), each then answered by its own program. The garbage is injected as a message of the
 * worker's process (its `message` event), while the real worker still runs the request.
 */
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { loop, own, slotOf, until } from './pool-view';

let sb: Sandbox;
afterEach(() => sb?.close());

/** Starts the loop alone on a started worker; resolves with its run and the id of its request. */
async function loopRunning(): Promise<{ run: Promise<{ code: string; message?: string }>; id: number }> {
  sb = createSandbox({ concurrency: 1 });
  await sb.code.run(own(1)); // starts the worker
  const run = sb.code.run(loop(20_000));
  await until(() => slotOf(sb).units.length === 1);
  return { run, id: slotOf(sb).units[0].jobs[0].id };
}

describe("a lone run's worker answering what it was not asked", () => {
  const garbage: [string, (id: number) => unknown][] = [
    ['text that is not JSON', () => 'not json {'],
    ['JSON null', () => 'null'],
    ['a structured-clone null', () => null],
    ['an answer to another request', (id) => JSON.stringify({ id: id + 1, ok: true, res: { code: 'ok', outputs: [] } })],
    ['an answer with no id', () => JSON.stringify({ ok: true, res: { code: 'ok', outputs: [] } })],
  ];
  test.each(garbage)('%s: the run fails as a crash (sandbox-error), the worker is replaced and the next run is served', async (_, answer) => {
    const { run, id } = await loopRunning();
    const first = slotOf(sb).worker!;
    first.emit('message', answer(id));
    expect(await run).toMatchObject({ code: 'sandbox-error', message: expect.stringMatching(/the sandbox worker answered out of order/) });
    expect(await sb.code.run(own(7))).toMatchObject({ code: 'ok', tests: [{ actual: 56 }] });
    expect(slotOf(sb).worker).not.toBe(first);
    expect(sb.pool.stats.workersStarted).toBe(2);
  });

  test("a failure the worker reports is the run's error: its text when it is a string, else 'worker error'; `ok` must be exactly true", async () => {
    const cases: [unknown, string][] = [
      [{ ok: false, error: 'the worker could not load the program' }, 'the worker could not load the program'],
      [{ ok: false, error: 42 }, 'worker error'],
      [{ ok: 'true', res: { code: 'ok', outputs: [] } }, 'worker error'],
    ];
    for (const [answer, message] of cases) {
      const { run, id } = await loopRunning();
      slotOf(sb).worker!.emit('message', JSON.stringify({ id, ...(answer as object) }));
      expect(await run).toMatchObject({ code: 'sandbox-error', message });
      await sb.close();
    }
  });

  test('a message from a worker already replaced is nobody\'s: the run in flight is not answered by it', async () => {
    const { run, id } = await loopRunning();
    const first = slotOf(sb).worker!;
    first.emit('message', 'null'); // replaced
    await run;
    const next = sb.code.run(own(3));
    await until(() => slotOf(sb).units.length === 1);
    const nextId = slotOf(sb).units[0].jobs[0].id;
    first.emit('message', JSON.stringify({ id: nextId, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text: '999' }] } }));
    expect(await next).toMatchObject({ code: 'ok', tests: [{ actual: 12 }] });
    expect(id).not.toBe(nextId);
  });
});

describe('a batch answered wrongly', () => {
  /** Four runs sent as one batch to a started worker; resolves with the runs and their request ids. */
  async function batchSent(): Promise<{ runs: Promise<{ code: string; tests: { actual?: unknown }[] }>[]; ids: number[] }> {
    sb = createSandbox({ concurrency: 1 });
    await sb.code.run(own(1)); // starts the worker
    const runs = [2, 3, 4, 5].map((i) => sb.code.run(own(i)));
    await until(() => slotOf(sb).units[0]?.batch === true);
    return { runs, ids: slotOf(sb).units[0].jobs.map((j) => j.id) };
  }
  const answer = (id: number) => ({ id, ok: true, res: { code: 'ok', outputs: [{ code: 'ok', text: '999' }] } });
  const garbage: [string, (ids: number[]) => unknown][] = [
    ['one answer, not an array', (ids) => JSON.stringify(answer(ids[0]))],
    ['text that is not JSON', () => '[{"id":'],
    ['fewer answers, the last not retiring', (ids) => JSON.stringify(ids.slice(0, 2).map(answer))],
    ['more answers than runs', (ids) => JSON.stringify([...ids, ids[3] + 1].map(answer))],
    ['more answers than runs, the last retiring', (ids) => JSON.stringify([...[...ids, ids[3] + 1].map(answer).slice(0, 4), { ...answer(ids[3] + 1), retire: true }])],
    ['the answers out of order', (ids) => JSON.stringify([ids[1], ids[0], ids[2], ids[3]].map(answer))],
    ['a null among them', (ids) => JSON.stringify([answer(ids[0]), null, answer(ids[2]), answer(ids[3])])],
    ['an empty array', () => '[]'],
  ];
  test.each(garbage)('%s: no run takes an answer from it; each is sent again alone to a fresh worker and answered by its own program', async (_, bad) => {
    const { runs, ids } = await batchSent();
    slotOf(sb).worker!.emit('message', bad(ids));
    const results = await Promise.all(runs);
    expect(results.map((r) => [r.code, r.tests[0]?.actual])).toEqual([
      ['ok', 6],
      ['ok', 12],
      ['ok', 20],
      ['ok', 30],
    ]);
    expect(sb.pool.stats.isolated).toBe(4);
    expect(sb.pool.stats.workersStarted).toBe(2);
  });

  test('answered in part with `retire` on the last answer: those runs take their answers, the rest go to a fresh worker', async () => {
    const { runs, ids } = await batchSent();
    slotOf(sb).worker!.emit('message', JSON.stringify([answer(ids[0]), { ...answer(ids[1]), retire: true }]));
    const results = await Promise.all(runs);
    // the worker is trusted with what it answers in order (999: wrong for those programs, but theirs)
    expect(results.map((r) => [r.code, r.tests[0]?.actual])).toEqual([
      ['wrong-answer', 999],
      ['wrong-answer', 999],
      ['ok', 20],
      ['ok', 30],
    ]);
    expect(sb.pool.stats.isolated).toBe(0);
    expect(sb.pool.stats.workersStarted).toBe(2);
  });
});
