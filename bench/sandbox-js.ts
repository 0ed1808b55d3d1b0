/**
 * What a fresh-context JavaScript run costs through the sandbox against the machine's limit:
 * a minimal isolated-vm loop (one reused isolate; per run a new context, the program compiled
 * and run, its function called with copied arguments, the context released) in a process
 * started with --no-node-snapshot, as the sandbox's workers are. Variants run in interleaved
 * rounds (minimal, then each variant, then minimal again...), so a change in the machine's load
 * hits every variant alike; each figure is compared as a ratio to the minimal loop of the same
 * round, and the table gives the median ratio with its range. A loaded machine makes the
 * wall-clock rate mostly a measure of how often each process waits for a core (code.run hands
 * each run to another process and back); so the table also gives runs per CPU-second (every
 * thread of the bench and of the worker process counted, from /proc), the rate the variant would
 * reach alone on one core without switching costs. Prints a markdown table with the load average
 * (`uptime`) at the start and the end.
 *
 * Rows: the minimal loop; the worker's own `runTests` called in that process (the sandbox's
 * work without the hop to the worker), with asynchronous isolate calls and with synchronous ones
 * (what the worker does for a one-test run sent alone: one caller's runs); `code.run` through a one-slot pool with one caller (each
 * run waits for the previous one: one round trip per run) and with four callers (runs queued
 * behind each other, sent as batches: the runs per message are printed; and, as before batching,
 * each run its own message and answer); and, to measure the
 * option of removing the process switch, `runTests` in a worker thread of the reference process
 * with one and four callers (JSON text both ways, as code.run's requests: a thread hop instead
 * of a process hop; no crash boundary, so not what the sandbox does). Below the table, a bare
 * round trip to a worker process (JSON text both ways, no work): its wall time and CPU time.
 *
 * Usage: npm run bench:sandbox-js [-- --rounds 5] [-- --seconds 2]
 * Pin it to one core with `taskset -c 0 npm run bench:sandbox-js` for a per-core figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/package-root';
import { createSandbox, type Sandbox } from '../src/sandbox';
import { DEFAULT_LIMITS } from '../src/sandbox/limits';
import { median, positiveOption } from './interleaved';

const args = process.argv.slice(2);
const rounds = positiveOption(args, '--rounds', 5);
const seconds = positiveOption(args, '--seconds', 2);

const PROGRAM = 'function f(x) { return x + 1 }';

/**
 * The reference process: answers { mode, secs } with the runs/s of the minimal loop or of the
 * worker's runTests over `secs` seconds (one run at a time).
 */
const REFERENCE = String.raw`
const ivm = require(process.env.IVM);
const runner = require(process.env.RUNNER);
const program = ${JSON.stringify(PROGRAM)};
const memoryMb = ${DEFAULT_LIMITS.memoryMb};
const isolate = new ivm.Isolate({ memoryLimit: memoryMb });
function minimal() {
  const context = isolate.createContextSync();
  const script = isolate.compileScriptSync(program);
  script.runSync(context, { timeout: ${DEFAULT_LIMITS.timeMs} });
  const fn = context.global.getSync('f', { reference: true });
  const out = fn.applySync(undefined, [1], { timeout: ${DEFAULT_LIMITS.timeMs}, arguments: { copy: true }, result: { copy: true } });
  if (out !== 2) throw new Error('the minimal loop computed ' + out);
  fn.release();
  script.release();
  context.release();
}
const req = { program, entry: 'f', tests: [{ input: [1] }], limits: ${JSON.stringify(DEFAULT_LIMITS)}, stopOnTimeout: false };
async function viaRunner(sync) {
  const r = await runner.runTests(req, sync);
  if (r.code !== 'ok' || r.outputs[0].text !== '2') throw new Error('runTests answered ' + JSON.stringify(r));
}
// the option without a process switch: runTests in a worker thread of this process
const { Worker } = require('node:worker_threads');
let thread = null;
const waiting = new Map();
let nextId = 1;
function viaThread() {
  if (!thread) {
    // like the worker process: requests queue and run one at a time, each answered at once
    thread = new Worker("const { parentPort, workerData } = require('node:worker_threads'); const runner = require(workerData); const queue = []; let busy = false; async function next() { if (busy) return; busy = true; while (queue.length) { const m = JSON.parse(queue.shift()); parentPort.postMessage(JSON.stringify({ id: m.id, ok: true, res: await runner.runTests(m.req) })); } busy = false; } parentPort.on('message', (text) => { queue.push(text); next(); });", { eval: true, workerData: process.env.RUNNER });
    thread.on('message', (text) => { const m = JSON.parse(text); const w = waiting.get(m.id); waiting.delete(m.id); w(m); });
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, (m) => (m.res.code === 'ok' && m.res.outputs[0].text === '2' ? resolve() : reject(new Error('the thread answered ' + JSON.stringify(m)))));
    thread.postMessage(JSON.stringify({ id, op: 'tests', req }));
  });
}
process.on('message', async ({ mode, secs, callers = 1 }) => {
  const once = mode === 'minimal' ? async () => minimal() : mode === 'thread' ? viaThread : mode === 'runTestsSync' ? () => viaRunner(true) : () => viaRunner(false);
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const end = Date.now() + secs * 1000;
  let n = 0;
  await Promise.all(Array.from({ length: callers }, async () => { while (Date.now() < end) { await once(); n++; } }));
  const c = process.cpuUsage(c0);
  process.send({ rate: n / (Number(process.hrtime.bigint() - t0) / 1e9), perCpu: n / ((c.user + c.system) / 1e6) });
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
`;

/** Starts the reference process and resolves once it is ready. */
function startReference(): Promise<ChildProcess> {
  const root = packageRoot();
  const child = spawn(process.execPath, ['--no-node-snapshot', '-e', REFERENCE], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, IVM: join(root, 'node_modules', 'isolated-vm'), RUNNER: join(root, 'src', 'sandbox', 'worker', 'isolate-runner.cjs') },
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the reference process exited (${code})`)));
  });
}

/** Runs per wall second and per CPU-second. */
interface Rate {
  rate: number;
  perCpu: number;
}

/** The reference process's rates in `mode` over `secs` seconds, with `callers` callers each waiting for its previous run. */
function referenceRate(child: ChildProcess, mode: 'minimal' | 'runTests' | 'runTestsSync' | 'thread', secs: number, callers = 1): Promise<Rate> {
  return new Promise((resolve, reject) => {
    const died = (code: number | null) => reject(new Error(`the reference process exited (${code})`));
    child.once('exit', died);
    child.once('message', (m: Rate) => {
      child.off('exit', died);
      resolve(m);
    });
    child.send({ mode, secs, callers });
  });
}

/** A process that echoes every message: the hop to a worker process with no work behind it. */
function startEcho(): ChildProcess {
  return spawn(process.execPath, ['--no-node-snapshot', '-e', "process.on('message', (m) => process.send(m)); process.on('disconnect', () => process.exit(0))"], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
}

/** Round trips to `echo` per wall second and per CPU-second (this process and the echo), one at a time, JSON text as code.run's requests. */
async function roundTripRate(echo: ChildProcess, secs: number): Promise<Rate> {
  const text = JSON.stringify({ id: 1, op: 'tests', req: { program: PROGRAM, entry: 'f', tests: [{ input: [1] }], limits: DEFAULT_LIMITS, stopOnTimeout: false } });
  const e0 = processCpu(echo.pid!);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const end = Date.now() + secs * 1000;
  let n = 0;
  while (Date.now() < end) {
    await new Promise((resolve) => {
      echo.once('message', resolve);
      echo.send(text);
    });
    n++;
  }
  const rate = n / (Number(process.hrtime.bigint() - t0) / 1e9);
  const c = process.cpuUsage(c0);
  return { rate, perCpu: n / ((c.user + c.system) / 1e6 + processCpu(echo.pid!) - e0) };
}

/** CPU seconds a process has used, all its threads (Linux /proc; clock ticks of 10 ms). */
function processCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Rates of `code.run` on `sb` with `callers` callers, each waiting for its previous run; the CPU of this process and the worker's. */
async function codeRunRate(sb: Sandbox, callers: number, secs: number): Promise<Rate> {
  const [pid] = sb.pool.workerPids();
  const w0 = processCpu(pid);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const end = Date.now() + secs * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (Date.now() < end) {
        const r = await sb.code.run({ language: 'js', program: PROGRAM, entry: 'f', tests: [{ input: [1], expected: 2 }] });
        if (r.code !== 'ok') throw new Error(`code.run answered ${r.code}: ${r.message}`);
        n++;
      }
    }),
  );
  const rate = n / (Number(process.hrtime.bigint() - t0) / 1e9);
  const c = process.cpuUsage(c0);
  const [after] = sb.pool.workerPids();
  if (after !== pid) throw new Error('the worker was replaced during the measurement');
  return { rate, perCpu: n / ((c.user + c.system) / 1e6 + processCpu(pid) - w0) };
}

async function main(): Promise<void> {
  const reference = await startReference();
  const sb = createSandbox({ concurrency: 1 });
  // as before batching: each run its own message and answer, one sent ahead
  const unbatched = createSandbox({ concurrency: 1, batch: false, pipeline: 2 });
  const synced = createSandbox({ concurrency: 1, syncCalls: true });
  await unbatched.code.run({ language: 'js', program: PROGRAM, entry: 'f', tests: [{ input: [1], expected: 2 }] });
  await sb.code.run({ language: 'js', program: PROGRAM, entry: 'f', tests: [{ input: [1], expected: 2 }] }); // starts the worker
  await synced.code.run({ language: 'js', program: PROGRAM, entry: 'f', tests: [{ input: [1], expected: 2 }] });
  const echo = startEcho();
  /** Runs and messages to the worker of the four-caller variant: the runs per message (batch size). */
  const batching = { runs: 0, messages: 0 };
  const counted = async (secs: number): Promise<Rate> => {
    const m0 = sb.pool.stats.messages;
    const r0 = sb.pool.stats.runs;
    const rate = await codeRunRate(sb, 4, secs);
    batching.messages += sb.pool.stats.messages - m0;
    batching.runs += sb.pool.stats.runs - r0;
    return rate;
  };
  const variants: { name: string; rate: (secs: number) => Promise<Rate> }[] = [
    { name: 'minimal isolated-vm: reused isolate, new context, compile + run + call', rate: (s) => referenceRate(reference, 'minimal', s) },
    { name: "the worker's `runTests` in that process (no hop)", rate: (s) => referenceRate(reference, 'runTests', s) },
    { name: "the worker's `runTests` in that process, synchronous isolate calls (as the worker runs a lone one-test run)", rate: (s) => referenceRate(reference, 'runTestsSync', s) },
    { name: '`code.run`, one-slot pool, one caller', rate: (s) => codeRunRate(sb, 1, s) },
    { name: '`code.run`, one-slot pool, one caller, `syncCalls: true` (synchronous isolate calls; the wall clock its watchdog)', rate: (s) => codeRunRate(synced, 1, s) },
    { name: '`code.run`, one-slot pool, four callers (batched)', rate: counted },
    { name: '`code.run`, one-slot pool, four callers, not batched (`batch: false, pipeline: 2`: each run its own message and answer)', rate: (s) => codeRunRate(unbatched, 4, s) },
    { name: '`runTests` in a worker thread, one caller (no process switch; not used: no crash boundary)', rate: (s) => referenceRate(reference, 'thread', s, 1) },
    { name: '`runTests` in a worker thread, four callers (answered each at once)', rate: (s) => referenceRate(reference, 'thread', s, 4) },
  ];
  const trips: Rate[] = [];
  for (const v of variants) await v.rate(0.3); // warm: the worker, the isolates, the JIT
  await roundTripRate(echo, 0.3);
  batching.runs = batching.messages = 0;
  const load0 = loadavg().map((x) => x.toFixed(2)).join(', ');
  const perRound = variants.map(() => [] as Rate[]);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < variants.length; i++) perRound[i].push(await variants[i].rate(seconds));
    trips.push(await roundTripRate(echo, seconds / 2));
    process.stderr.write(`round ${r + 1}/${rounds}: ${perRound.map((x) => `${x[r].rate.toFixed(0)} (${x[r].perCpu.toFixed(0)}/cpu-s)`).join(' | ')}\n`);
  }
  const load1 = loadavg().map((x) => x.toFixed(2)).join(', ');
  console.log(`# Fresh-context JavaScript runs vs a minimal isolated-vm loop (${availableParallelism()} cores available, ${rounds} interleaved rounds of ${seconds} s)\n`);
  console.log(`load average (1, 5, 15 min): ${load0} at the start, ${load1} at the end\n`);
  console.log('| what | runs/s (median) | ratio to minimal (median, range) | runs per CPU-second (median) | ratio to minimal (median, range) |');
  console.log('|---|---:|---:|---:|---:|');
  for (let i = 0; i < variants.length; i++) {
    const cell = (key: keyof Rate): string => {
      const ratios = perRound[i].map((x, r) => x[key] / perRound[0][r][key]);
      return `${median(perRound[i].map((x) => x[key])).toFixed(0)} | ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
    };
    console.log(`| ${variants[i].name} | ${cell('rate')} | ${cell('perCpu')} |`);
  }
  const us = (xs: number[]): string => (1e6 / median(xs)).toFixed(0);
  console.log(`\nfour callers: ${(batching.runs / Math.max(1, batching.messages)).toFixed(2)} runs per message to the worker (mean over the rounds)`);
  console.log(`a bare round trip to a worker process (JSON text, no work): ${us(trips.map((t) => t.rate))} µs wall, ${us(trips.map((t) => t.perCpu))} µs CPU (both processes; medians of ${rounds} rounds)`);
  await sb.close();
  await unbatched.close();
  await synced.close();
  reference.disconnect();
  echo.disconnect();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
