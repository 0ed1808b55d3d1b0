/**
 * Sandbox and code-repair throughput. Prints markdown tables:
 * 1. runs per second: JS (a fresh context per run, trivial function) with one worker and with
 *    every core; Python (a fresh bubblewrap sandbox per program); Python batch test cases per second;
 * 2. code-repair-v1 episodes per second with the baselines;
 * 3. the mutation-search fixer's solve rate on the bundled buggy variants (public tests only),
 *    and the fuzz auditor's failing-test rate on them.
 * Usage: npm run bench:sandbox [-- --seconds 5] [-- --quick]
 */
import { availableParallelism } from 'node:os';
import { mutationSearch } from '../envs/code-repair/agents/fixers';
import { fuzz } from '../envs/code-repair/agents/auditors';
import { bundledTasks, type CodeRepairObservation } from '../envs/code-repair';
import { createRegistry, closeSharedSandbox, sharedSandbox } from '../app/catalog';
import type { CodeRunRequest } from '../src/core/sandbox';
import { runMatch } from '../src/match/runner';
import { createSandbox, type Sandbox } from '../src/sandbox';

const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf('--seconds') + 1]) || 5;
const quick = args.includes('--quick');

async function rate(sb: Sandbox, req: CodeRunRequest, parallel: number, secs: number): Promise<{ perSec: number; codes: string }> {
  const end = Date.now() + secs * 1000;
  let n = 0;
  const codes = new Map<string, number>();
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (Date.now() < end) {
        const r = await sb.code.run(req);
        codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
        n++;
      }
    }),
  );
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  return { perSec: n / s, codes: [...codes].map(([c, k]) => `${c} ${k}`).join(', ') };
}

async function main(): Promise<void> {
  const cores = availableParallelism();
  console.log(`# Sandbox throughput (${cores} cores, ${seconds} s per row)\n`);
  console.log('| what | workers | runs/s | per core | test cases/s | codes |');
  console.log('|---|---:|---:|---:|---:|---|');
  const trivialJs: CodeRunRequest = { language: 'js', program: 'function f(x) { return x + 1 }', entry: 'f', tests: [{ input: [1], expected: 2 }] };
  const trivialPy: CodeRunRequest = { language: 'python', program: 'def f(x):\n    return x + 1', entry: 'f', tests: [{ input: [1], expected: 2 }] };
  const batchPy: CodeRunRequest = { ...trivialPy, tests: Array.from({ length: 1000 }, (_, i) => ({ input: [i], expected: i + 1 })) };
  for (const workers of [1, cores]) {
    const sb = createSandbox({ concurrency: workers });
    await sb.code.run(trivialJs); // start the workers
    const js = await rate(sb, trivialJs, workers * 2, seconds);
    console.log(`| JS, fresh context per run, trivial function | ${workers} | ${js.perSec.toFixed(0)} | ${(js.perSec / workers).toFixed(0)} | | ${js.codes} |`);
    const py = await rate(sb, trivialPy, workers, seconds);
    console.log(`| Python, fresh sandbox per program | ${workers} | ${py.perSec.toFixed(1)} | ${(py.perSec / workers).toFixed(1)} | | ${py.codes} |`);
    const batch = await rate(sb, batchPy, workers, seconds);
    console.log(`| Python batch, 1,000 tests per sandbox | ${workers} | ${batch.perSec.toFixed(1)} | | ${(batch.perSec * 1000).toFixed(0)} | ${batch.codes} |`);
    await sb.close();
  }

  const registry = createRegistry();
  const { env } = registry.make('code-repair-v1');
  console.log('\n# code-repair-v1 episodes (the catalog\'s shared sandbox)\n');
  console.log('| agents | params | episodes | episodes/s | solved | mean returns |');
  console.log('|---|---|---:|---:|---:|---|');
  for (const [agents, params] of [
    [['echo-fixer', 'random-auditor'], { mode: 'repair' }],
    [['mutation-fixer', 'fuzz-auditor'], { mode: 'repair' }],
    [['echo-fixer', 'random-auditor'], { mode: 'generate', reward: 'cure', k: 4 }],
  ] as const) {
    const p = env.resolveParams(params);
    const n = quick ? 5 : 30;
    let solved = 0;
    const sums = [0, 0];
    const t0 = process.hrtime.bigint();
    for (let seed = 0; seed < n; seed++) {
      const made = await Promise.all(agents.map((a, i) => registry.createAgent(a, { env, params: p, seed: seed * 2 + i })));
      const r = await runMatch({ env, params: p, seed, agents: made.map((m) => m.agent), effects: registry.effects() });
      if (r.outcome === 'solved') solved++;
      r.returns.forEach((x, i) => (sums[i] += x));
    }
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`| ${agents.join(' vs ')} | ${JSON.stringify(params)} | ${n} | ${(n / s).toFixed(2)} | ${solved} | ${sums.map((x) => (x / n).toFixed(3)).join(' / ')} |`);
  }

  console.log('\n# Baselines on the bundled buggy variants (public tests only)\n');
  const runner = sharedSandbox().code;
  let variants = 0;
  let repaired = 0;
  let exposed = 0;
  let tried = 0;
  const t0 = process.hrtime.bigint();
  const tasks = bundledTasks('js').slice(0, quick ? 5 : undefined);
  for (const t of tasks) {
    for (const b of t.buggy!) {
      variants++;
      const obs = {
        task: { ...t, generator: t.generator ?? null, properties: t.properties ?? [], hiddenTests: t.hiddenTests.length },
        candidate: b.source,
        audit: [],
        ask: null,
      } as unknown as CodeRepairObservation;
      const fix = await mutationSearch(obs, runner, 400);
      tried += fix.tried;
      const hidden = await runner.run({ language: 'js', program: fix.program, entry: t.entry, tests: t.hiddenTests.map((x) => ('property' in x ? { input: x.input, property: t.properties!.find((p) => p.name === x.property)!.check } : { input: x.input, expected: x.expected })) });
      if (hidden.passed === hidden.total) repaired++;
      const input = await fuzz(obs, runner, 100, variants);
      if (input) {
        const ref = await runner.run({ language: 'js', program: t.reference, entry: t.entry, tests: [{ input }] });
        const bug = await runner.run({ language: 'js', program: b.source, entry: t.entry, tests: [{ input, expected: ref.tests[0].actual ?? null }] });
        if (ref.code === 'ok' && bug.code !== 'ok') exposed++;
      }
    }
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log('| baseline | variants | success | rate | notes |');
  console.log('|---|---:|---:|---:|---|');
  console.log(`| mutation-fixer (public tests only, budget 400) | ${variants} | ${repaired} | ${(repaired / variants).toFixed(3)} | passes every hidden test; ${(tried / variants).toFixed(0)} mutants tried per variant |`);
  console.log(`| fuzz-auditor (100 fast-check runs) | ${variants} | ${exposed} | ${(exposed / variants).toFixed(3)} | proposes a valid test the buggy program fails |`);
  console.log(`\n(${s.toFixed(0)} s for the baseline table)`);
  await closeSharedSandbox();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
