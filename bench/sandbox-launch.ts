/**
 * What a fresh sandboxed Python run costs against the machine's limit: a bare
 * `python3 -I -S -c pass` spawn. Variants run one at a time (one core's worth of work), in
 * interleaved rounds (bare, then each variant, then bare again...), so a change in the machine's
 * load hits every variant alike; each figure is compared as a ratio to the bare spawn of the same
 * round, and the table gives the median ratio with its range. Under a high load the wall-clock
 * rate counts wake-ups as much as work (a run that hops through more processes waits for a CPU
 * more often), so the table also gives the CPU time each run costs, summed over this process's
 * whole tree (this process, its live descendants, and every descendant already waited for: the
 * utime, stime, cutime and cstime of /proc/<pid>/stat), and runs per CPU-second — the rate one
 * idle core would reach. Prints a markdown table with the load average (`uptime`) at the start
 * and the end.
 *
 * Rows: the bare spawn; bwrap with the sandbox's flags, spawned as its uid, running `pass` (the sandbox without
 * the harness); the full sandbox command line through `runPythonBatch` (a trivial program, one
 * test); the same through the pool (`code.run`); and `code.run` on a sandbox created with
 * `pythonForkServer: true` (a forked process per program, python-fork-server.ts).
 *
 * Usage: npm run bench:sandbox-launch [-- --rounds 5] [-- --seconds 2]
 * Pin it to one core with `taskset -c 0 npm run bench:sandbox-launch` for a per-core figure.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createSandbox, type Sandbox } from '../src/sandbox';
import { DEFAULT_LIMITS } from '../src/sandbox/limits';
import { DEFAULT_PYTHON_PATHS, pythonCommand, pythonSpawnIds, runPythonBatch } from '../src/sandbox/python-runner';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const rounds = opt('--rounds', 5);
const seconds = opt('--seconds', 2);

/** Spawns a command and waits for it to end; rejects when it fails. */
function spawnOnce(cmd: string, argv: string[], options: Parameters<typeof spawn>[2]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout!.resume();
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}: ${err.trim().slice(0, 200)}`))));
  });
}

interface Variant {
  name: string;
  once: () => Promise<void>;
}

const TICK_MS = 10; // USER_HZ = 100 on Linux

/**
 * CPU ms used so far by this process's tree: for this process and each live descendant its own
 * and its waited-for children's user + system time (a descendant counted live is not also in
 * its parent's children's time: that is added only when it is waited for).
 */
function treeCpuMs(): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const text = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = text.slice(text.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
      stats.set(Number(p), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // gone meanwhile
    }
  }
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!mine.has(pid) && mine.has(s.ppid)) {
        mine.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of mine) ticks += stats.get(pid)?.ticks ?? 0;
  return ticks * TICK_MS;
}

/** Runs/s of `once`, one at a time, for `secs` seconds, and the tree's CPU ms per run. */
async function rate(once: () => Promise<void>, secs: number): Promise<{ perSec: number; cpuMs: number }> {
  const t0 = process.hrtime.bigint();
  const cpu0 = treeCpuMs();
  const end = Date.now() + secs * 1000;
  let n = 0;
  while (Date.now() < end) {
    await once();
    n++;
  }
  const cpuMs = (treeCpuMs() - cpu0) / n;
  return { perSec: n / (Number(process.hrtime.bigint() - t0) / 1e9), cpuMs };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
  const limits = DEFAULT_LIMITS;
  const trivial = { program: 'def f(x):\n    return x + 1', entry: 'f', tests: [{ input: [1], expected: 2 }] };
  const sandboxes: Sandbox[] = [];
  const viaPool = (pythonForkServer: boolean): (() => Promise<void>) => {
    const sb = createSandbox({ concurrency: 1, pythonForkServer });
    sandboxes.push(sb);
    return async () => {
      const r = await sb.code.run({ language: 'python', ...trivial });
      if (r.code !== 'ok') throw new Error(`code.run answered ${r.code}: ${r.message}`);
    };
  };
  const variants: Variant[] = [
    { name: 'bare `python3 -I -S -c pass` spawn', once: () => spawnOnce(DEFAULT_PYTHON_PATHS.python, ['-I', '-S', '-c', 'pass'], { env: {} }) },
    {
      name: "bwrap with the sandbox's flags (spawned as its uid), `pass` instead of the harness",
      once: () => {
        const [cmd, ...argv] = pythonCommand(DEFAULT_PYTHON_PATHS);
        argv[argv.length - 1] = 'pass';
        return spawnOnce(cmd, argv, { env: {}, ...pythonSpawnIds() });
      },
    },
    {
      name: '`runPythonBatch`: the full command line and harness, trivial program',
      once: async () => {
        const r = await runPythonBatch({ program: trivial.program, entry: 'f', inputs: [[1]], limits });
        if (r.code !== 'ok') throw new Error(`runPythonBatch answered ${r.code}: ${r.message}`);
      },
    },
    { name: '`code.run` (pool + host comparison), fresh sandbox per program', once: viaPool(false) },
    { name: '`code.run` through the fork server (`pythonForkServer: true`)', once: viaPool(true) },
  ];

  for (const v of variants) await v.once(); // warm: page cache, pools, the fork server
  const load0 = loadavg().map((x) => x.toFixed(2)).join(', ');
  const perRound = variants.map(() => [] as number[]);
  const cpuPerRound = variants.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < variants.length; i++) {
      const m = await rate(variants[i].once, seconds);
      perRound[i].push(m.perSec);
      cpuPerRound[i].push(m.cpuMs);
    }
    process.stderr.write(`round ${r + 1}/${rounds}: ${perRound.map((x) => x[r].toFixed(1)).join(' | ')}\n`);
  }
  const load1 = loadavg().map((x) => x.toFixed(2)).join(', ');
  console.log(`# Fresh sandboxed Python runs vs a bare spawn (one at a time, ${rounds} interleaved rounds of ${seconds} s)\n`);
  console.log(`load average (1, 5, 15 min): ${load0} at the start, ${load1} at the end\n`);
  console.log('| what | runs/s (median) | ratio to bare (median) | ratio range | CPU ms per run (median) | runs per CPU-second | ratio to bare (CPU) |');
  console.log('|---|---:|---:|---|---:|---:|---:|');
  const bareCpu = median(cpuPerRound[0]);
  for (let i = 0; i < variants.length; i++) {
    const ratios = perRound[i].map((x, r) => x / perRound[0][r]);
    const cpu = median(cpuPerRound[i]);
    console.log(`| ${variants[i].name} | ${median(perRound[i]).toFixed(1)} | ${median(ratios).toFixed(2)} | ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)} | ${cpu.toFixed(1)} | ${(1000 / cpu).toFixed(1)} | ${(bareCpu / cpu).toFixed(2)} |`);
  }
  await Promise.all(sandboxes.map((s) => s.close()));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
