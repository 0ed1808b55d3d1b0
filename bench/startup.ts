/**
 * Startup cost of the `arena` command, as a ratio to `node -e 0` measured in the same round:
 * rounds interleave the four commands (in a rotating order, so drift and load spikes fall on all
 * of them), each round's ratio is the command's wall time over that round's `node -e 0`, and the
 * table gives the medians. Then one more run of each command in one thread (`ARENA_WORKER=0`)
 * with a preload that counts the modules in `require.cache` and the peak memory at exit.
 * Prints a markdown table with the load average beside it (a shared machine: compare ratios).
 *
 * Usage: npm run bench:startup [-- --rounds 9]   (needs a built dist/: npm run build)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'arena.js');

/** A measured command: its label, its arguments to `node`, and the ratio goal (none for the reference). */
interface Case {
  label: string;
  args: string[];
  goal?: number;
}

const CASES: Case[] = [
  { label: '`node -e 0`', args: ['-e', '0'] },
  { label: '`arena --version`', args: [BIN, '--version'], goal: 3 },
  { label: '`arena envs`', args: [BIN, 'envs'], goal: 5 },
  { label: '`arena check ./examples/rock-paper-scissors.js --episodes 1`', args: [BIN, 'check', './examples/rock-paper-scissors.js', '--episodes', '1'], goal: 6 },
];

/** Wall time of one run in ms; throws when the command fails (a broken build must not pass as fast). */
function timeRun(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).slice(0, 300)}`);
  return ms;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Modules loaded and peak memory of one in-thread run of `args`, from a preload that reports at exit. */
function footprint(args: string[]): { modules: number; maxRssMb: number } {
  const dir = mkdtempSync(join(tmpdir(), 'arena-startup-'));
  const preload = join(dir, 'count.js');
  const out = join(dir, 'count.json');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ modules: Object.keys(require.cache).length, maxRss: process.resourceUsage().maxRSS })));`,
  );
  timeRun(['-r', preload, ...args], { ...process.env, ARENA_WORKER: '0' });
  const r = JSON.parse(readFileSync(out, 'utf8')) as { modules: number; maxRss: number };
  return { modules: r.modules - 1, maxRssMb: r.maxRss / 1024 };
}

function main(): void {
  const i = process.argv.indexOf('--rounds');
  const rounds = i > 0 ? Number(process.argv[i + 1]) : 7;
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: expected a positive integer, got "${process.argv[i + 1]}"`);
  const loadBefore = loadavg();
  for (const c of CASES) timeRun(c.args); // warm-up: file cache, first-run build
  const times: number[][] = CASES.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < CASES.length; k++) {
      const j = (k + r) % CASES.length;
      times[j].push(timeRun(CASES[j].args));
    }
  }
  const loadAfter = loadavg();
  const ratios = CASES.map((_, j) => times[j].map((t, r) => t / times[0][r]));
  console.log(`arena startup, ${rounds} interleaved rounds, node ${process.version}; load average ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after\n`);
  console.log('| command | median wall ms | median ratio to `node -e 0` | goal | met | modules loaded | peak RSS MB |');
  console.log('|---|---:|---:|---:|:---:|---:|---:|');
  CASES.forEach((c, j) => {
    const f = j === 0 ? { modules: 0, maxRssMb: NaN } : footprint(c.args);
    const ratio = median(ratios[j]);
    const goal = c.goal === undefined ? '' : `<= ${c.goal}x`;
    const met = c.goal === undefined ? '' : ratio <= c.goal ? 'yes' : 'no';
    const rss = Number.isNaN(f.maxRssMb) ? '' : f.maxRssMb.toFixed(0);
    console.log(`| ${c.label} | ${median(times[j]).toFixed(0)} | ${ratio.toFixed(2)}x | ${goal} | ${met} | ${j === 0 ? '' : f.modules} | ${rss} |`);
  });
  console.log('\nmodules loaded and peak RSS: one more run in one thread (ARENA_WORKER=0) with a preload counting require.cache at exit.');
}

main();
