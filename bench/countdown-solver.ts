/**
 * Exact-solver speed for countdown-v1: 1,000 random 6-tile UK puzzles (the television draw,
 * 0–4 large tiles uniformly, target uniform in 100–999, seeded), each solved completely
 * (reachable?, closest value, one expression). Reports the median, p90, p99 and max time per
 * solve, for a single warm pass and as the best of several passes per puzzle (which filters
 * out interference from other processes on a shared machine); then the same for the
 * all-numbers rational solver on reasoning-gym puzzles.
 *
 * Usage: npm run bench:countdown [-- --passes 5 --puzzles 1000]
 */
import { defaultContract } from '../envs/countdown/contract';
import { generatePuzzle } from '../envs/countdown/generator';
import { solveAllNumbers } from '../envs/countdown/solver-rational';
import { solveUk } from '../envs/countdown/solver-uk';
import { Rng } from '../src/core/rng';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

interface Row {
  label: string;
  times: number[];
}

function measure(puzzles: { numbers: number[]; target: number }[], passes: number, solve: (n: number[], t: number) => number): { single: Row; best: Row; reachable: number } {
  const best = new Array<number>(puzzles.length).fill(Infinity);
  let single: number[] = [];
  let reachable = 0;
  for (let pass = 0; pass <= passes; pass++) {
    const times: number[] = [];
    puzzles.forEach((p, i) => {
      const t0 = process.hrtime.bigint();
      const r = solve(p.numbers, p.target);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      times.push(ms);
      if (pass > 0) best[i] = Math.min(best[i], ms);
      if (pass === 0) reachable += r;
    });
    if (pass === 1) single = times; // pass 0 warms the JIT up
  }
  return { single: { label: 'single warm pass', times: single }, best: { label: `best of ${passes} passes per puzzle`, times: best }, reachable };
}

function row(solver: string, r: Row): string {
  const t = r.times.slice().sort((a, b) => a - b);
  const mean = t.reduce((s, x) => s + x, 0) / t.length;
  const f = (x: number) => x.toFixed(3);
  return `| ${solver} | ${r.label} | ${f(quantile(t, 0.5))} | ${f(quantile(t, 0.9))} | ${f(quantile(t, 0.99))} | ${f(t[t.length - 1])} | ${f(mean)} |`;
}

function main(): void {
  const passes = arg('--passes', 5);
  const count = arg('--puzzles', 1000);
  const rng = Rng.fromSeed('countdown-solver-bench');
  const uk = Array.from({ length: count }, () => generatePuzzle('uk', defaultContract('uk'), rng));
  const rg = Array.from({ length: Math.min(count, 200) }, () => generatePuzzle('reasoning-gym', defaultContract('reasoning-gym'), rng));
  let nodes = 0;
  const ukRun = measure(uk, passes, (n, t) => {
    const s = solveUk(n, t);
    nodes += s.nodes;
    return s.reachable ? 1 : 0;
  });
  const rgRun = measure(rg, Math.min(passes, 3), (n, t) => (solveAllNumbers(n, t).reachable ? 1 : 0));
  console.log(`countdown-v1 exact solver, node ${process.version}, one core; times in ms per complete solve\n`);
  console.log('| solver | timing | median | p90 | p99 | max | mean |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  console.log(row(`uk, ${uk.length} TV draws`, ukRun.single));
  console.log(row(`uk, ${uk.length} TV draws`, ukRun.best));
  console.log(row(`all-numbers, ${rg.length} reasoning-gym puzzles`, rgRun.single));
  console.log(row(`all-numbers, ${rg.length} reasoning-gym puzzles`, rgRun.best));
  console.log(
    `\nuk: ${ukRun.reachable} of ${uk.length} targets reachable (${((100 * ukRun.reachable) / uk.length).toFixed(1)}%), mean search effort ${Math.round(nodes / (uk.length * (passes + 1)))} nodes; goal: median <= 0.4 ms`,
  );
}

main();
