/**
 * Where a fresh-context JavaScript run's time goes, in one process (no hop): CPU and wall time
 * per step, in interleaved rounds, medians. Steps: the minimal loop of bench/sandbox-js.ts; a
 * context alone (created and released); a context with the sandbox's bootstrap run and its
 * harness references taken (what isolate-runner.cjs does per run before any program code); the
 * same from an isolate snapshot in which the bootstrap already ran (`Isolate.createSnapshot`:
 * what a "cached bootstrap" would buy), and a context of that snapshot alone; one call into the
 * isolate, synchronous and asynchronous (a trip to the isolate's thread and back: the worker's
 * runs of several tests use those, so its event loop stays free for the watchdog); and the
 * worker's whole `runTests`, with asynchronous calls and with synchronous ones (a one-test run
 * sent alone, whose watchdog is the pool's wall clock). Runs in a child process started with --no-node-snapshot (as the sandbox's
 * workers). Prints a markdown table with the load average (`uptime`) at the start and the end.
 *
 * Usage: npm run bench:sandbox-js-parts [-- --rounds 7]
 * Pin it to one core with `taskset -c 0 npm run bench:sandbox-js-parts` for a per-core figure.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/package-root';
import { DEFAULT_LIMITS } from '../src/sandbox/limits';
import { positiveOption } from './interleaved';

const args = process.argv.slice(2);
const rounds = positiveOption(args, '--rounds', 7);

const CHILD = String.raw`
const ivm = require(process.env.IVM);
const { BOOTSTRAP } = require(process.env.BOOTSTRAP);
const runner = require(process.env.RUNNER);
const limits = ${JSON.stringify(DEFAULT_LIMITS)};
const program = 'function f(x) { return x + 1 }';
const iso = new ivm.Isolate({ memoryLimit: limits.memoryMb });
const boot = iso.compileScriptSync(BOOTSTRAP, { filename: 'bootstrap.js' });
const snapshot = ivm.Isolate.createSnapshot([{ code: 'globalThis.__h = (' + BOOTSTRAP + ')({ wasmPages: 0 });' }]);
const siso = new ivm.Isolate({ memoryLimit: limits.memoryMb, snapshot });
const callCtx = iso.createContextSync();
const fn = callCtx.evalSync('(function f(x) { return x + 1 })', { reference: true });
const req = { program, entry: 'f', tests: [{ input: [1] }], limits, stopOnTimeout: false };
const steps = {
  'minimal loop (new context, compile, run, call)': () => {
    const context = iso.createContextSync();
    const script = iso.compileScriptSync(program);
    script.runSync(context, { timeout: limits.timeMs });
    const f = context.global.getSync('f', { reference: true });
    if (f.applySync(undefined, [1], { timeout: limits.timeMs, arguments: { copy: true }, result: { copy: true } }) !== 2) throw new Error('minimal');
    f.release(); script.release(); context.release();
  },
  'a context alone': () => iso.createContextSync().release(),
  'a context + the bootstrap + its harness references': () => {
    const context = iso.createContextSync();
    context.global.setSync('globalThis', context.global.derefInto());
    const factory = boot.runSync(context, { reference: true });
    const h = factory.applySync(undefined, [new ivm.ExternalCopy({ wasmPages: 0 }).copyInto()], { result: { reference: true } });
    factory.release();
    const refs = ['call', 'check', 'stage', 'run', 'modified'].map((n) => h.getSync(n, { reference: true }));
    for (const r of [h, ...refs]) r.release();
    context.release();
  },
  'a context of a snapshot with the bootstrap run + its harness reference': () => {
    const context = siso.createContextSync();
    const h = context.global.getSync('__h', { reference: true });
    context.global.deleteSync('__h');
    const call = h.getSync('call', { reference: true });
    call.release(); h.release(); context.release();
  },
  'a context of that snapshot alone': () => siso.createContextSync().release(),
  'one synchronous call into the isolate': () => fn.applySync(undefined, [1], { timeout: limits.timeMs }),
  'one asynchronous call into the isolate': () => fn.apply(undefined, [1], { timeout: limits.timeMs }),
  "the worker's runTests (one test)": () => runner.runTests(req),
  "the worker's runTests (one test), synchronous calls (a lone one-test run)": () => runner.runTests(req, true),
};
(async () => {
  const names = Object.keys(steps);
  const per = Object.fromEntries(names.map((n) => [n, { wall: [], cpu: [] }]));
  for (let r = 0; r <= ${rounds}; r++) {
    for (const n of names) {
      const N = n.startsWith('one ') ? 2000 : 300;
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      for (let i = 0; i < N; i++) await steps[n]();
      const c = process.cpuUsage(c0);
      if (r === 0) continue; // warm-up round
      per[n].wall.push(Number(process.hrtime.bigint() - t0) / 1e3 / N);
      per[n].cpu.push((c.user + c.system) / N);
    }
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  process.send(names.map((n) => ({ name: n, wall: med(per[n].wall), cpu: med(per[n].cpu) })));
})();
`;

async function main(): Promise<void> {
  const root = packageRoot();
  const worker = join(root, 'src', 'sandbox', 'worker');
  const load0 = loadavg().map((x) => x.toFixed(2)).join(', ');
  const child = spawn(process.execPath, ['--no-node-snapshot', '-e', CHILD], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, IVM: join(root, 'node_modules', 'isolated-vm'), BOOTSTRAP: join(worker, 'isolate-bootstrap.cjs'), RUNNER: join(worker, 'isolate-runner.cjs') },
  });
  const rows = await new Promise<{ name: string; wall: number; cpu: number }[]>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { name: string; wall: number; cpu: number }[]));
    child.once('exit', (code) => reject(new Error(`the measuring process exited (${code})`)));
  });
  child.kill();
  const load1 = loadavg().map((x) => x.toFixed(2)).join(', ');
  console.log(`# Where a fresh-context JavaScript run's time goes (one process; medians of ${rounds} interleaved rounds)\n`);
  console.log(`load average (1, 5, 15 min): ${load0} at the start, ${load1} at the end\n`);
  console.log('| step | wall µs | CPU µs |');
  console.log('|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
