/**
 * Every attack on the code-repair grader (issue 23), through the real entry points, as a
 * before/after table: each exploit fixture of envs/code-repair/exploits played on both sides
 * with the registry's sandbox handlers (the return and summed step rewards of the fixture's
 * seat), then the sandbox-level attacks (codes, limits, thrown errors). Written against APIs
 * that predate the fixes (runMatch, createRegistry, createSandbox, checkTask), so the same file
 * runs on an older checkout for the "before" column.
 * Usage: node dist/bench/grader-attacks.js [--only name,name] [--skip-fixtures]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { CODE_REPAIR_EXPLOITS } from '../envs/code-repair/exploits';
import { SHADOWING_HACKS } from '../envs/code-repair/exploits/shadowing';
import { humanEvalTask } from '../envs/code-repair/task-parse';
import { checkTask } from '../envs/code-repair/task-check';
import { envFolder } from '../envs/code-repair/task-store';
import { closeSharedSandbox, createRegistry, make } from '../app/catalog';
import type { CodeRunRequest } from '../src/core/sandbox';
import { runMatch } from '../src/match/runner';
import { createSandbox } from '../src/sandbox';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

/** Peak RSS (MB) of this process's JS sandbox workers while `f` runs, sampled every 50 ms. */
async function peakWorkerRss<T>(f: () => Promise<T>): Promise<{ value: T; mb: number }> {
  let peak = 0;
  const sample = () => {
    for (const p of readdirSync('/proc')) {
      if (!/^\d+$/.test(p)) continue;
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
        if (!readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('js-worker')) continue;
        const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
        peak = Math.max(peak, rss);
      } catch {
        // gone meanwhile
      }
    }
  };
  const timer = setInterval(sample, 50);
  try {
    const value = await f();
    return { value, mb: Math.round(peak) };
  } finally {
    clearInterval(timer);
  }
}

async function fixtures(): Promise<void> {
  const registry = createRegistry();
  console.log(`\n## Exploit fixtures (load ${load()})\n`);
  console.log('| fixture | exploit return / step rewards | honest return / step rewards | verdict |');
  console.log('|---|---|---|---|');
  for (const f of CODE_REPAIR_EXPLOITS) {
    if (only && !only.includes(f.name)) continue;
    const { env, params } = make('code-repair-v1', f.params);
    const side = async (s: 'exploit' | 'honest') => {
      const agents = env.seats(env.init(params, f.seed ?? 1)).map((_, seat) => ({ name: s, act: (o: unknown, legal: readonly unknown[] | null) => f.act(s, seat, o as never, legal) }));
      const r = await runMatch({ env, params, seed: f.seed ?? 1, agents, effects: registry.effects(), deadlineMs: 120_000 });
      const steps = r.rewards.filter((x) => x.seat === f.seat).reduce((a, x) => a + x.value, 0);
      return { ret: r.returns[f.seat], steps, outcome: r.outcome };
    };
    const e = await side('exploit');
    const h = await side('honest');
    const r = (x: number) => Math.round(x * 1000) / 1000;
    const paid = e.ret > h.ret + 1e-9 || e.steps > h.steps + 1e-9;
    console.log(`| ${f.name} | ${r(e.ret)} / ${r(e.steps)} | ${r(h.ret)} / ${r(h.steps)} | ${paid ? '**PAID**' : 'held'} |`);
  }
}

async function tasksCheck(): Promise<void> {
  const sb = createSandbox({ concurrency: 2 });
  const raw = new Map(gunzipSync(readFileSync(join(envFolder(), 'data', 'humaneval', 'HumanEval.jsonl.gz'))).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>).map((p) => [p.task_id, p]));
  let hacks = 0;
  let honest = 0;
  for (const h of SHADOWING_HACKS) {
    const p = raw.get(h.task)!;
    if ((await checkTask(humanEvalTask({ ...p, canonical_solution: h.hack }, 'hack'), sb.code)).status === 'ok') hacks++;
    if ((await checkTask(humanEvalTask({ ...p, canonical_solution: h.honest }, 'honest'), sb.code)).status === 'ok') honest++;
  }
  await sb.close();
  console.log(`\n## tasks check of the 7 shadowing hacks (load ${load()})\n`);
  console.log(`| hacks passing | honest twins passing |\n|---|---|\n| ${hacks} of 7 | ${honest} of 7 |`);
}

async function sandboxAttacks(): Promise<void> {
  const sb = createSandbox({ concurrency: 1 });
  const py = (program: string, extra: Partial<CodeRunRequest> = {}): CodeRunRequest => ({ language: 'python', program, entry: 'f', tests: [{ input: [1], expected: 2 }], limits: { timeMs: 2000, memoryMb: 128 }, ...extra });
  const check = 'def check(candidate):\n    assert candidate(1) == 2';
  let deep: unknown = 0;
  for (let i = 0; i < 4900; i++) deep = [deep];
  const attacks: [string, CodeRunRequest][] = [
    ['os._exit(0) before the tests', py('import os\nos._exit(0)\ndef f(x):\n    return x')],
    ['sys.exit(0) in a test', py('import sys\ndef f(x):\n    sys.exit(0)')],
    ['os.kill(os.getpid(), 9)', py('import os\ndef f(x):\n    os.kill(os.getpid(), 9)')],
    ['os.kill(os.getppid(), 9) with a check', py('import os\ndef f(x):\n    os.kill(os.getppid(), 9)', { check })],
    ['os._exit(0) with a check', py('import os\ndef f(x):\n    os._exit(0)', { check })],
    ['a+b+3 against 12345678902 (Python)', py('def f(a, b):\n    return a + b + 3', { tests: [{ input: [12345678900, 2], expected: 12345678902 }] })],
    ['a+b+3 against 12345678902 (JS)', { language: 'js', program: 'function f(a, b) { return a + b + 3 }', entry: 'f', tests: [{ input: [12345678900, 2], expected: 12345678902 }] }],
    ["'x'.repeat(2**28) returned (JS, 1 s, 256 MB)", { language: 'js', program: "function f() { return 'x'.repeat(2 ** 28) }", entry: 'f', tests: [{ input: [] }], limits: { timeMs: 1000, memoryMb: 256 } }],
    ["'x'.repeat(2**28) flattened and split (JS, 1 s, 256 MB)", { language: 'js', program: "function f() { const s = 'x'.repeat(2 ** 28) + 'y'; return s.split('').length }", entry: 'f', tests: [{ input: [] }], limits: { timeMs: 1000, memoryMb: 256 } }],
    ['an input nested 4,900 deep', { language: 'python', program: 'def f(x):\n    return 1', entry: 'f', tests: [{ input: [deep as never] }] }],
  ];
  console.log(`\n## Sandbox attacks (load ${load()})\n`);
  console.log('| attack | code | message | wall ms | worker peak RSS MB |');
  console.log('|---|---|---|---|---|');
  for (const [name, req] of attacks) {
    const t0 = Date.now();
    let code: string;
    let message: string;
    let mb = 0;
    try {
      const r = await peakWorkerRss(() => sb.code.run(req));
      code = r.value.code;
      message = (r.value.message ?? '').slice(0, 70);
      mb = r.mb;
    } catch (e) {
      code = `throws ${(e as Error).name}`;
      message = (e as Error).message.slice(0, 70);
    }
    console.log(`| ${name} | ${code} | ${message.replace(/\|/g, '/')} | ${Date.now() - t0} | ${req.language === 'js' ? mb : ''} |`);
  }
  await sb.close();
}

async function main(): Promise<void> {
  if (!args.includes('--skip-sandbox')) await sandboxAttacks();
  if (!args.includes('--skip-tasks')) await tasksCheck();
  if (!args.includes('--skip-fixtures')) await fixtures();
  await closeSharedSandbox();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
