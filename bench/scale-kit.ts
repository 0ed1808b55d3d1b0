/**
 * What the scale-out benches share (bench/scale.ts, bench/slow-players.ts): a redis-server of
 * their own on a free loopback port (never a shared one: queue names follow env ids), `arena
 * worker` child processes, and Redis's command count.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join, resolve } from 'node:path';
import type Redis from 'ioredis';

/** The package root (benches run from dist/bench). */
export const ROOT = resolve(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'arena.js');

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/**
 * A command line run on the given CPUs only (`taskset -c LIST`, util-linux), or as it is when
 * `cpus` is empty: how the benches put workers on cores the scheduler does not use, standing in
 * for workers on machines of their own.
 */
export function onCpus(cpus: string, cmd: string, argv: string[]): [string, string[]] {
  return cpus ? ['taskset', ['-c', cpus, cmd, ...argv]] : [cmd, argv];
}

/** Pins every thread of this process to the given CPUs (`taskset -a -p -c LIST`); threads started later inherit it. */
export function pinSelf(cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
}

/** Starts redis-server (on the given CPUs, when any) and resolves once it accepts connections. */
export async function startRedis(cpus = ''): Promise<{ url: string; port: number; child: ChildProcess }> {
  const port = await freePort();
  const dir = mkdtempSync(join(os.tmpdir(), 'arena-bench-redis-'));
  const child = spawn(...onCpus(cpus, 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no']), { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ok, fail) => {
    let out = '';
    child.once('error', fail);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Ready to accept connections/.test(out)) ok();
    });
  });
  child.stdout!.resume();
  return { url: `redis://127.0.0.1:${port}`, port, child };
}

/** Bytes Redis has received and sent so far over its connections (INFO stats). */
export async function netBytes(redis: Redis): Promise<{ input: number; output: number }> {
  const info = await redis.info('stats');
  const field = (name: string) => Number(new RegExp(`${name}:(\\d+)`).exec(info)?.[1] ?? 0);
  return { input: field('total_net_input_bytes'), output: field('total_net_output_bytes') };
}

/** Commands Redis has run so far (INFO commandstats). */
export async function commandCalls(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  let n = 0;
  for (const m of info.matchAll(/calls=(\d+)/g)) n += Number(m[1]);
  return n;
}

/** CPU seconds Redis has used so far (INFO cpu: user and system, its threads together). */
export async function redisCpuS(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux, whatever the kernel's HZ). */
const USER_HZ = 100;

/**
 * CPU milliseconds the processes have used so far, every thread included (utime + stime of
 * /proc/<pid>/stat, 10 ms resolution): how the benches count a worker's CPU per match while it
 * runs (a load-independent figure beside its rate). Linux only; a process gone counts 0.
 */
export function processesCpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // fields after the command name (which may hold spaces), from field 3 on: utime and stime are fields 14 and 15
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(f[11]) + Number(f[12]);
  }
  return (ticks * 1000) / USER_HZ;
}

/**
 * Starts `n` workers (`--concurrency` per env), on the given CPUs when `cpus` is set, and resolves
 * once each is playing; with BENCH_WORKER_CPU_PROF=DIR in the environment each writes a CPU
 * profile there when it stops.
 */
export function startWorkers(url: string, n: number, concurrency = 1, cpus = ''): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      new Promise<ChildProcess>((ok, fail) => {
        const argv = [...(process.env.BENCH_WORKER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROF}`] : []), BIN, 'worker', '--redis', url, '--name', `bench-${i}`, '--no-live', '--concurrency', String(concurrency)];
        const c = spawn(...onCpus(cpus, process.execPath, argv), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        c.stderr!.on('data', (d: Buffer) => {
          err += d.toString();
          if (/playing .* \(queue/.test(err)) ok(c);
        });
        c.once('exit', (code) => fail(new Error(`worker exited (${code}): ${err.slice(-300)}`)));
      }),
    ),
  );
}

/** Stops workers (SIGTERM) and waits for their exit. */
export async function stopWorkers(ws: ChildProcess[]): Promise<void> {
  await Promise.all(ws.map((w) => new Promise<void>((ok) => (w.removeAllListeners('exit'), w.once('exit', () => ok()), w.kill('SIGTERM')))));
}

