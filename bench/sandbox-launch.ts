/**
 * What a fresh sandboxed Python run costs against the machine's limit: a bare
 * `python3 -I -S -c pass` spawn. Variants run one at a time (one core's worth of work), in
 * interleaved rounds (bare, then each variant, then bare again...), so a change in the machine's
 * load hits every variant alike; each figure is compared as a ratio to the bare spawn of the same
 * round, and the table gives the median ratio with its range. Prints a markdown table with the
 * load average (`uptime`) at the start and the end.
 *
 * Rows: the bare spawn; bwrap with the sandbox's flags, spawned as its uid, running `pass` (the sandbox without
 * the harness); the full sandbox command line through `runPythonBatch` (a trivial program, one
 * test); the same through the pool (`code.run`) with a bubblewrap sandbox per program
 * (`pythonMode: 'fresh-sandbox'`); `code.run` with a fresh interpreter per program started by
 * the slot's launcher (`pythonMode: 'launcher'`, python-launcher.ts); and `code.run` through the
 * fork server (`pythonMode: 'fork-server'`: a forked process per program, python-fork-server.ts).
 *
 * Usage: npm run bench:sandbox-launch [-- --rounds 5] [-- --seconds 2]
 * Pin it to one core with `taskset -c 0 npm run bench:sandbox-launch` for a per-core figure.
 */
import type { SpawnOptions } from 'node:child_process';
import { loadavg } from 'node:os';
import { createSandbox, type PythonMode, type Sandbox } from '../src/sandbox';
import { DEFAULT_LIMITS } from '../src/sandbox/limits';
import { median, positiveOption } from './interleaved';
import { DEFAULT_PYTHON_PATHS, pythonCommand, pythonSpawnIds, runPythonBatch } from '../src/sandbox/python-runner';
import { spawnFiltered } from '../src/sandbox/seccomp';

const args = process.argv.slice(2);
const rounds = positiveOption(args, '--rounds', 5);
const seconds = positiveOption(args, '--seconds', 2);

/** Spawns a command and waits for it to end; rejects when it fails. */
function spawnOnce(cmd: string, argv: string[], options: Omit<SpawnOptions, 'stdio'>): Promise<void> {
  return new Promise((resolve, reject) => {
    // the sandbox's command line gets its seccomp filter as the arena feeds it; a bare spawn is a plain spawn
    const child = spawnFiltered([cmd, ...argv], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Runs/s of `once`, one at a time, for `secs` seconds. */
async function rate(once: () => Promise<void>, secs: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  const end = Date.now() + secs * 1000;
  let n = 0;
  while (Date.now() < end) {
    await once();
    n++;
  }
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function main(): Promise<void> {
  const limits = DEFAULT_LIMITS;
  const trivial = { program: 'def f(x):\n    return x + 1', entry: 'f', tests: [{ input: [1], expected: 2 }] };
  const sandboxes: Sandbox[] = [];
  const viaPool = (pythonMode: PythonMode): (() => Promise<void>) => {
    const sb = createSandbox({ concurrency: 1, pythonMode });
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
    { name: "`code.run` (pool + host comparison), a bubblewrap sandbox per program (`pythonMode: 'fresh-sandbox'`)", once: viaPool('fresh-sandbox') },
    { name: "`code.run`, a fresh interpreter per program from the slot's launcher (`pythonMode: 'launcher'`)", once: viaPool('launcher') },
    { name: "`code.run` through the fork server (`pythonMode: 'fork-server'`)", once: viaPool('fork-server') },
  ];

  for (const v of variants) await v.once(); // warm: page cache, pools, the fork server
  const load0 = loadavg().map((x) => x.toFixed(2)).join(', ');
  const perRound = variants.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < variants.length; i++) perRound[i].push(await rate(variants[i].once, seconds));
    process.stderr.write(`round ${r + 1}/${rounds}: ${perRound.map((x) => x[r].toFixed(1)).join(' | ')}\n`);
  }
  const load1 = loadavg().map((x) => x.toFixed(2)).join(', ');
  console.log(`# Fresh sandboxed Python runs vs a bare spawn (one at a time, ${rounds} interleaved rounds of ${seconds} s)\n`);
  console.log(`load average (1, 5, 15 min): ${load0} at the start, ${load1} at the end\n`);
  console.log('| what | runs/s (median) | ratio to bare (median) | ratio range |');
  console.log('|---|---:|---:|---|');
  for (let i = 0; i < variants.length; i++) {
    const ratios = perRound[i].map((x, r) => x / perRound[0][r]);
    console.log(`| ${variants[i].name} | ${median(perRound[i]).toFixed(1)} | ${median(ratios).toFixed(2)} | ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)} |`);
  }
  await Promise.all(sandboxes.map((s) => s.close()));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
