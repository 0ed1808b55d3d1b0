/**
 * What one sandboxed Python run costs in CPU and page faults, per `pythonMode`, against a bare
 * `python3 -I -S -c pass` spawn: `perf stat` (task-clock, page-faults; Node and every process it
 * starts counted, the per-slot servers included) around a Node loop of `--short` runs and one of
 * `--long` runs, pinned to one core (`taskset -c 0`); a run costs (long - short) / (long - short
 * runs), so start-up (Node, the pool, a server's start) cancels out. Rounds interleave the modes,
 * and the table gives the median per run with its range, and the ratio of the bare spawn's CPU to
 * the mode's (what the mode reaches of a bare spawn per core when runs are CPU-bound). CPU time
 * suffers from load less than a rate does, but still does (shared caches, the hypervisor): compare
 * rows of one run. Prints the load average (`uptime`) at the start and the end. Needs Linux perf.
 *
 * Usage: npm run bench:sandbox-launch-cost [-- --rounds 3] [-- --short 10] [-- --long 50]
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type PythonMode } from '../src/sandbox';
import { DEFAULT_PYTHON_PATHS } from '../src/sandbox/python-runner';
import { median, positiveOption } from './interleaved';

const args = process.argv.slice(2);
type Variant = 'bare' | PythonMode;
const VARIANTS: { variant: Variant; name: string }[] = [
  { variant: 'bare', name: 'bare `python3 -I -S -c pass` spawn' },
  { variant: 'fresh-sandbox', name: "`code.run`, a bubblewrap sandbox per program (`pythonMode: 'fresh-sandbox'`)" },
  { variant: 'launcher', name: "`code.run`, a fresh interpreter per program from the slot's launcher (`pythonMode: 'launcher'`)" },
  { variant: 'fork-server', name: "`code.run` through the fork server (`pythonMode: 'fork-server'`)" },
];

/** The measured loop (a child of perf): `n` runs of `variant`, one at a time. */
async function loop(variant: Variant, n: number): Promise<void> {
  if (variant === 'bare') {
    for (let i = 0; i < n; i++) await new Promise((r) => spawn(DEFAULT_PYTHON_PATHS.python, ['-I', '-S', '-c', 'pass'], { env: {}, stdio: 'ignore' }).on('close', r));
    return;
  }
  const sb = createSandbox({ concurrency: 1, pythonMode: variant });
  for (let i = 0; i < n; i++) {
    const r = await sb.code.run({ language: 'python', program: 'def f(x):\n    return x + 1', entry: 'f', tests: [{ input: [1], expected: 2 }] });
    if (r.code !== 'ok') throw new Error(`code.run answered ${r.code}: ${r.message}`);
  }
  await sb.close();
}

/** CPU ms and page faults of `n` runs of `variant` in a fresh Node, pinned to core 0. */
function measure(variant: Variant, n: number): { cpuMs: number; faults: number } {
  const out = join(tmpdir(), `sandbox-launch-cost-${process.pid}.csv`);
  const r = spawnSync('perf', ['stat', '-x', ',', '-e', 'task-clock,page-faults', '-o', out, '--', 'taskset', '-c', '0', process.execPath, __filename, '--loop', variant, String(n)], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`perf stat failed (${r.error?.message ?? `exit status ${r.status}`}): ${r.stderr.trim().slice(-300)}`);
  const lines = readFileSync(out, 'utf8').split('\n');
  rmSync(out, { force: true });
  const field = (event: string): number => Number(lines.find((l) => l.split(',')[2]?.startsWith(event))?.split(',')[0]);
  return { cpuMs: field('task-clock'), faults: field('page-faults') };
}

async function main(): Promise<void> {
  if (args[0] === '--loop') return loop(args[1] as Variant, Number(args[2]));
  const rounds = positiveOption(args, '--rounds', 3);
  const short = positiveOption(args, '--short', 10);
  const long = positiveOption(args, '--long', 50);
  const load0 = loadavg().map((x) => x.toFixed(2)).join(', ');
  const cpu = VARIANTS.map(() => [] as number[]);
  const faults = VARIANTS.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    VARIANTS.forEach(({ variant }, i) => {
      const a = measure(variant, short);
      const b = measure(variant, long);
      cpu[i].push((b.cpuMs - a.cpuMs) / (long - short));
      faults[i].push((b.faults - a.faults) / (long - short));
    });
    process.stderr.write(`round ${r + 1}/${rounds}: ${cpu.map((x) => x[r].toFixed(1)).join(' | ')} ms\n`);
  }
  const load1 = loadavg().map((x) => x.toFixed(2)).join(', ');
  console.log(`# CPU and page faults per sandboxed Python run (${rounds} interleaved rounds, ${long} - ${short} runs each, pinned to one core)\n`);
  console.log(`load average (1, 5, 15 min): ${load0} at the start, ${load1} at the end\n`);
  console.log('| what | CPU per run, ms (median, range) | bare CPU / this CPU | page faults per run (median) |');
  console.log('|---|---:|---:|---:|');
  const range = (xs: number[], digits: number) => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
  VARIANTS.forEach(({ name }, i) => {
    const ratios = cpu[i].map((c, r) => cpu[0][r] / c);
    console.log(`| ${name} | ${median(cpu[i]).toFixed(1)} (${range(cpu[i], 1)}) | ${median(ratios).toFixed(2)} (${range(ratios, 2)}) | ${median(faults[i]).toFixed(0)} |`);
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
