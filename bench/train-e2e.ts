/**
 * End-to-end training speed against another build (issue 25): `arena train deal-or-no-deal-v1`
 * with the default config, run by this build and by the build in `--baseline DIR` (for instance a
 * git worktree of an older commit after `npm run build` there), in interleaved rounds, each
 * variant once per round, the order rotating. Per run: samples/s over the iterations' wall time
 * (sum of their `seconds`, startup and evaluation excluded), samples/s over the whole process
 * (startup included), samples per CPU-second of the process (all its threads, read from a
 * preloaded exit hook, which also reports the busiest threads' CPU seconds: with --overlap, the
 * rollouts' and the update worker's shares) and samples per CPU-second of the iterations alone
 * (the hook notes the process's CPU time as each iteration's JSON line is written; iterations 2..N
 * that evaluate nothing are summed, so startup, warm-up and evaluation games are left out; with
 * --overlap the worker's update of the last counted iteration may fall just outside). Prints the medians over the rounds and each
 * variant's ratio to the baseline (median of the rounds' ratios), with the load average of every
 * round.
 *
 * Usage: npm run bench:train-e2e -- --baseline /tmp/arena-base [--runs 5] [--iterations 20]
 *        [--variants default,sync,overlap]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const BASELINE = arg('--baseline');
const RUNS = Number(arg('--runs')) || 5;
const ITERATIONS = Number(arg('--iterations')) || 20;
const VARIANTS = (arg('--variants') ?? 'default,sync,overlap').split(',');
const HERE = resolve(__dirname, '..', '..');

interface RunFigures {
  samples: number;
  /** Samples per second of iteration wall time. */
  iterWall: number;
  /** Samples per second of the whole process. */
  processWall: number;
  /** Samples per CPU-second of the process. */
  cpu: number;
  /**
   * Samples per CPU-second of the training iterations alone (all threads): the process's CPU time
   * between consecutive iteration lines, summed over iterations 2..N without an evaluation (the
   * first pays warm-up, an evaluating one pays its evaluation games).
   */
  iterCpu: number;
  lags: string;
  /** CPU seconds of the process's three busiest threads. */
  threads: number[];
}

/** Writes the preload that reports the process's CPU time at exit (all threads) on stderr. */
function cpuHook(dir: string): string {
  const file = join(dir, 'cpu-hook.cjs');
  // also each thread's CPU seconds (Linux: /proc/self/task), busiest first
  writeFileSync(
    file,
    `const lineCpu = [];
const write = process.stdout.write.bind(process.stdout);
// the CPU seconds of the process (all threads) when each JSON line (one per iteration) is written
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).startsWith('{')) { const u = process.cpuUsage(); lineCpu.push((u.user + u.system) / 1e6); }
  return write(chunk, ...rest);
};
process.on('exit', () => {
  const c = process.cpuUsage();
  let threads = [];
  try {
    const fs = require('node:fs');
    threads = fs.readdirSync('/proc/self/task').map((t) => { const st = fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8'); const f = st.slice(st.lastIndexOf(')') + 2).split(' '); return (Number(f[11]) + Number(f[12])) / 100; }).sort((a, b) => b - a);
  } catch {}
  process.stderr.write('\\nCPU-SECONDS ' + (c.user + c.system) / 1e6 + ' ' + JSON.stringify(threads.slice(0, 3)) + '\\nLINE-CPU ' + JSON.stringify(lineCpu) + '\\n');
});
`,
  );
  return file;
}

function runOnce(root: string, extra: string[], hook: string): RunFigures {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['-r', hook, join(root, 'bin', 'arena.js'), 'train', 'deal-or-no-deal-v1', '--iterations', String(ITERATIONS), '--json', '--quiet', ...extra], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${root}: arena train exited ${r.status}: ${(r.stderr || '').trim().split('\n').pop()}`);
  let samples = 0;
  let seconds = 0;
  let lags = '';
  const lineCpu = JSON.parse(/LINE-CPU (.*)/.exec(r.stderr)?.[1] ?? '[]') as number[];
  let steadySamples = 0;
  let steadyCpu = 0;
  r.stdout
    .trim()
    .split('\n')
    .forEach((line, k) => {
      const m = JSON.parse(line) as { samples: number; seconds: number; policyLag?: number; eval?: unknown };
      samples += m.samples;
      seconds += m.seconds;
      lags += m.policyLag === undefined ? '-' : String(m.policyLag);
      if (k > 0 && m.eval === undefined && lineCpu.length > k) {
        steadySamples += m.samples;
        steadyCpu += lineCpu[k] - lineCpu[k - 1];
      }
    });
  const report = /CPU-SECONDS ([\d.]+) (.*)/.exec(r.stderr);
  const cpu = Number(report?.[1]);
  return { samples, iterWall: samples / seconds, processWall: samples / wall, cpu: samples / cpu, iterCpu: steadySamples / steadyCpu, lags, threads: JSON.parse(report?.[2] ?? '[]') as number[] };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });

function main(): void {
  if (!BASELINE) {
    console.error('usage: npm run bench:train-e2e -- --baseline DIR (a built checkout of the commit to compare with)');
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'arena-e2e-'));
  const hook = cpuHook(dir);
  const variants: { label: string; root: string; args: string[] }[] = [{ label: `baseline (${BASELINE})`, root: resolve(BASELINE), args: [] }];
  for (const v of VARIANTS) {
    if (v === 'default') variants.push({ label: 'this build, default config', root: HERE, args: [] });
    else if (v === 'sync') variants.push({ label: 'this build, --sync', root: HERE, args: ['--sync'] });
    else if (v === 'overlap') variants.push({ label: 'this build, --overlap', root: HERE, args: ['--overlap'] });
    else throw new Error(`--variants: unknown "${v}" (default, sync, overlap)`);
  }
  console.log(`## End to end: arena train deal-or-no-deal-v1, default config, ${ITERATIONS} iterations, ${RUNS} interleaved rounds\n`);
  const figures: RunFigures[][] = variants.map(() => []);
  try {
    for (let r = 0; r < RUNS; r++) {
      const load = loadavg()[0];
      for (let k = 0; k < variants.length; k++) {
        const i = (k + r) % variants.length;
        figures[i].push(runOnce(variants[i].root, variants[i].args, hook));
      }
      console.log(`round ${r + 1}/${RUNS}: ${variants.map((v, i) => `${fmt(figures[i][r].iterWall)}`).join(' / ')} samples/s (load average ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('\n| build | samples/s, iteration wall (median) | samples/s, whole process | samples per CPU-second, whole process | samples per CPU-second, iterations | ÷ baseline, iteration wall (median of rounds) | ÷ baseline, per CPU-second of iterations | ÷ baseline, per CPU-second of the process | busiest threads, CPU-s (median run) | policy lags |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|---|');
  variants.forEach((v, i) => {
    const f = figures[i];
    const ratio = (key: 'iterWall' | 'cpu' | 'iterCpu') => (i === 0 ? '–' : `${median(f.map((x, r) => x[key] / figures[0][r][key])).toFixed(2)}×`);
    const mid = [...f].sort((a, b) => a.iterWall - b.iterWall)[f.length >> 1];
    console.log(`| ${v.label} | ${fmt(median(f.map((x) => x.iterWall)))} | ${fmt(median(f.map((x) => x.processWall)))} | ${fmt(median(f.map((x) => x.cpu)))} | ${fmt(median(f.map((x) => x.iterCpu)))} | ${ratio('iterWall')} | ${ratio('iterCpu')} | ${ratio('cpu')} | ${mid.threads.map((t) => t.toFixed(1)).join(', ')} | ${f[0].lags} |`);
  });
  console.log(`\n(load average ${loadavg()[0].toFixed(2)}; samples per run: ${variants.map((v, i) => figures[i][0].samples).join(' / ')})`);
}

main();
