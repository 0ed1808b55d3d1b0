/**
 * What a JS worker keeps between code runs, seen through its `stats` op
 * (src/sandbox/worker/isolate-runner.cjs, `stats`): the compile cache's bounds (64 scripts, 1 MiB
 * of source, sources over 64 KiB never cached), the shared isolate's replacement (after 2,000
 * runs, after 4 MiB of program source, on another memory limit), and the next run's context
 * prepared between runs. None of this changes a result; each bound is what keeps a long-lived
 * worker's memory flat, so each is pinned at its exact boundary here. (isolated-vm's
 * `referenceCount` is not read: it moves as the isolate's thread gets to releases, not at them.)
 */
import type { ChildProcess } from 'node:child_process';
import { codeRunText, nextAnswer, startWorker, type CodeRun, type WorkerAnswer } from './js-worker-process';

jest.setTimeout(60_000);

type Stats = {
  isolatesMade: number;
  contextsMade: number;
  isolate: { runs: number; chars: number; memoryMb: number } | null;
  cache: { scripts: number; chars: number };
  prepared: boolean;
  labs: number;
};

let w: ChildProcess;
let ids = 0;
beforeEach(() => {
  w = startWorker(); // fresh: its cache and isolate start empty
});
afterEach(() => w.kill('SIGKILL'));

/** One code run; each of its outputs must be ok. */
async function run(r: CodeRun): Promise<void> {
  const got = nextAnswer(w);
  w.send(codeRunText(++ids, r));
  const a = await got;
  expect(a).toMatchObject({ ok: true, res: { code: 'ok' } });
  expect(a.res!.outputs.map((o) => o.code)).toEqual((r.tests ?? [{}]).map(() => 'ok'));
  expect(a.retire).toBeUndefined();
}

/** `n` code runs sent as one batch (one message each way). */
async function runBatch(runs: CodeRun[]): Promise<void> {
  const got = nextAnswer<WorkerAnswer[]>(w);
  w.send(`[${runs.map((r) => codeRunText(++ids, r)).join(',')}]`);
  const answers = await got;
  expect(answers).toHaveLength(runs.length);
  for (const a of answers) expect(a).toMatchObject({ ok: true, res: { code: 'ok', outputs: [{ code: 'ok' }] } });
}

async function stats(): Promise<Stats> {
  const got = nextAnswer(w);
  w.send(JSON.stringify({ id: ++ids, op: 'stats', req: {} }));
  const a = (await got) as unknown as { ok: boolean; res: Stats };
  expect(a.ok).toBe(true);
  return a.res;
}

/** A program of exactly `length` characters whose `f` returns `n` (padded with a comment). */
function program(n: number, length: number): string {
  const head = `function f(){ return ${n} } //`;
  if (length < head.length) throw new Error(`no program of ${length} characters`);
  return head + 'x'.repeat(length - head.length);
}

/** The cached characters of the bootstrap, and how many the lookup adds to a program (measured on this worker). */
async function sizes(): Promise<{ bootstrap: number; lookup: number }> {
  await run({ program: program(1, 100) });
  const a = await stats();
  await run({ program: program(2, 200) });
  const b = await stats();
  const lookup = b.cache.chars - a.cache.chars - 200;
  return { bootstrap: a.cache.chars - 100 - lookup, lookup };
}

test('a fresh worker holds nothing; a run makes one isolate, caches its program and the bootstrap, and prepares the next context', async () => {
  expect(await stats()).toEqual({ isolatesMade: 0, contextsMade: 0, isolate: null, cache: { scripts: 0, chars: 0 }, prepared: false, labs: 0 });
  await run({ program: program(1, 100), memoryMb: 48 });
  const s = await stats();
  // two contexts: the run's, and the next one's, prepared after it
  expect(s).toMatchObject({ isolatesMade: 1, contextsMade: 2, isolate: { runs: 1, chars: 100, memoryMb: 48 }, cache: { scripts: 2 }, prepared: true });
  await run({ program: program(1, 100), memoryMb: 48 }); // the same source: from the cache
  expect(await stats()).toMatchObject({ isolatesMade: 1, isolate: { runs: 2, chars: 200 }, cache: { scripts: 2, chars: s.cache.chars } });
});

test('each run takes the prepared context and one is prepared for the next: one context per run, none made while idle', async () => {
  await run({ program: program(1, 100) });
  const a = await stats();
  expect(await stats()).toEqual(a); // asking made nothing
  for (let i = 0; i < 5; i++) await run({ program: program(i, 100), tests: [{ input: [] }, { input: [] }] });
  expect((await stats()).contextsMade).toBe(a.contextsMade + 5);
  // a property check has a context of its own, in the checker isolate
  await run({ program: program(7, 100), tests: [{ input: [], property: '(out) => out === 7' }] });
  expect((await stats()).contextsMade).toBe(a.contextsMade + 7);
  // a new memory limit: the prepared context belonged to the old isolate, the run makes its own
  await run({ program: program(1, 100), memoryMb: 32 });
  expect(await stats()).toMatchObject({ isolatesMade: 2, contextsMade: a.contextsMade + 9, prepared: true });
});

test('the cache holds at most 64 scripts, dropping the oldest, and counts the characters it holds', async () => {
  const { bootstrap, lookup } = await sizes();
  const joined = 100 + lookup;
  for (let i = 0; i < 70; i++) await run({ program: program(10 + i, 100) });
  const s = await stats();
  expect(s.cache.scripts).toBe(64);
  // the bootstrap (the oldest) was dropped and compiled again for the next context: it is one of the 64
  expect(s.cache.chars).toBe(bootstrap + 63 * joined);
});

test('a source of 64 KiB is cached, one character more is compiled every time', async () => {
  const { lookup } = await sizes();
  const before = await stats();
  await run({ program: program(3, 65_536 - lookup) });
  const cached = await stats();
  expect(cached.cache).toEqual({ scripts: before.cache.scripts + 1, chars: before.cache.chars + 65_536 });
  await run({ program: program(4, 65_537 - lookup) });
  expect((await stats()).cache).toEqual(cached.cache);
});

test('the cache holds up to exactly 1 MiB of source; past it the oldest scripts go', async () => {
  const { lookup } = await sizes();
  let s = await stats();
  let n = 100;
  // big sources (64 KiB joined) until the next would pass the budget, then one that meets it exactly
  while (s.cache.chars + 65_536 <= 1_048_576 - 1_000) {
    await run({ program: program(n++, 65_536 - lookup) });
    s = await stats();
  }
  const gap = 1_048_576 - s.cache.chars;
  await run({ program: program(n++, gap - lookup) });
  const full = await stats();
  expect(full.cache).toEqual({ scripts: s.cache.scripts + 1, chars: 1_048_576 });
  await run({ program: program(n++, 100) });
  const after = await stats();
  expect(after.cache.chars).toBeLessThanOrEqual(1_048_576);
  expect(after.cache.scripts).toBeLessThan(full.cache.scripts + 1);
});

test('the shared isolate is replaced after 2,000 runs (the 2,000th prepares no context for a 2,001st)', async () => {
  const p = program(5, 100);
  for (let i = 0; i < 4; i++) await runBatch(Array.from({ length: i < 3 ? 500 : 499 }, () => ({ program: p })));
  expect(await stats()).toMatchObject({ isolatesMade: 1, isolate: { runs: 1_999 }, prepared: true });
  await run({ program: p });
  expect(await stats()).toMatchObject({ isolatesMade: 1, isolate: { runs: 2_000, chars: 200_000 }, prepared: false });
  await run({ program: p });
  expect(await stats()).toMatchObject({ isolatesMade: 2, isolate: { runs: 1, chars: 100 }, prepared: true });
});

test('the shared isolate is replaced when its runs would pass 4 MiB of program source, not when they meet it', async () => {
  // sources over 64 KiB: never cached (the cache is not what is measured here)
  for (let i = 0; i < 40; i++) await run({ program: program(i, 100_000) });
  expect(await stats()).toMatchObject({ isolatesMade: 1, isolate: { runs: 40, chars: 4_000_000 } });
  await run({ program: program(40, 4_194_304 - 4_000_000) });
  expect(await stats()).toMatchObject({ isolatesMade: 1, isolate: { runs: 41, chars: 4_194_304 } });
  await run({ program: program(41, 100) });
  expect(await stats()).toMatchObject({ isolatesMade: 2, isolate: { runs: 1, chars: 100 } });
});

test('another memory limit gets another isolate; the same limit keeps it', async () => {
  await run({ program: program(1, 100), memoryMb: 64 });
  await run({ program: program(1, 100), memoryMb: 64 });
  expect(await stats()).toMatchObject({ isolatesMade: 1, isolate: { memoryMb: 64, runs: 2 } });
  await run({ program: program(1, 100), memoryMb: 32 });
  expect(await stats()).toMatchObject({ isolatesMade: 2, isolate: { memoryMb: 32, runs: 1 } });
});

test('a code run has no WebAssembly: its memories would live outside the isolate heap that memoryMb bounds', async () => {
  const got = nextAnswer(w);
  w.send(codeRunText(++ids, { program: 'function f(){ return [typeof WebAssembly, typeof globalThis.WebAssembly].join() }' }));
  expect((await got).res!.outputs).toEqual([{ code: 'ok', text: '"undefined,undefined"' }]);
});

test('a source over 64 KiB (compiled every time, never cached) names program.js in its syntax error, and its out-of-memory load is a memory limit that leaves no isolate', async () => {
  const pad = ` //${'x'.repeat(70_000)}`;
  let got = nextAnswer(w);
  w.send(codeRunText(++ids, { program: `function f( {${pad}` }));
  const bad = (await got).res!;
  expect(bad.code).toBe('syntax-error');
  expect(bad.message).toMatch(/\[program\.js:1:\d+\]$/);
  got = nextAnswer(w);
  w.send(codeRunText(++ids, { program: `const a = []; for (;;) a.push([a.length, a.length]);${pad}`, memoryMb: 16 }));
  const a = await got;
  expect(a).toMatchObject({ ok: true, res: { code: 'memory-limit', outputs: [] } });
  expect(a.retire).toBeUndefined();
  // the disposed isolate is not reported as the worker's (the next run gets a new one)
  expect(await stats()).toMatchObject({ isolatesMade: 2, isolate: null }); // the first: the syntax error's, at 64 MB
  await run({ program: program(6, 100), memoryMb: 16 });
  expect(await stats()).toMatchObject({ isolatesMade: 3, isolate: { runs: 1, memoryMb: 16 } });
});
