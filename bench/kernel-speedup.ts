/**
 * Kernel-speedup benchmark, per task on its first timing shape, with the env's full measurement
 * protocol in the sandbox (one timing at a time):
 * - reference time (median per call, kernel + output materialization);
 * - the expert's speedup with its 95% interval;
 * - the autotuner's best schedule (random search then hill-climbing, quick protocol, --budget
 *   schedules), re-measured with the full protocol;
 * - A/A: the reference against itself, --aa measurements per task: the share of intervals that
 *   exclude 1 (false positives; the done-when asks for ≤ 5% overall);
 * - throughput: full-protocol measurements per minute.
 * Prints a markdown table (A/A misses are listed on stderr).
 * Usage: npm run bench:kernels [-- --tasks matmul,sum --aa 10 --budget 16 --aa-only]
 */
import { createSandbox } from '../src/sandbox';
import { kernelTasks, measureKernel, scheduleAt, scheduleText, type Measurement } from '../envs/kernel-speedup';
import { autotune } from '../envs/kernel-speedup/agents';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const f2 = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  const wanted = option('tasks')?.split(',');
  const aa = Number(option('aa') ?? 10);
  const budget = Number(option('budget') ?? 16);
  const tasks = kernelTasks.filter((t) => !wanted || wanted.includes(t.id));
  const sb = createSandbox({ concurrency: 1 });
  const rows: string[] = [
    '| task | shape | reference ms | expert × [95%] | autotuner best × [95%] (schedule) | measurements / min | A/A intervals without 1 |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  let aaMiss = 0;
  let aaTotal = 0;
  let noisy = 0;
  let full = 0;
  try {
    for (const task of tasks) {
      const shape = task.timingShapes[0];
      let ms = 0;
      let count = 0;
      const measure = async (source: string, seed: number): Promise<Measurement> => {
        const t0 = Date.now();
        const m = await measureKernel(sb.lab, task, source, { secret: `bench-${seed}`, shape });
        ms += Date.now() - t0;
        count++;
        full++;
        if (m.flags.includes('noisy')) noisy++;
        return m;
      };
      const aaOnly = process.argv.includes('--aa-only');
      const expert = aaOnly ? null : await measure(task.expert, 1);
      const tuned = aaOnly ? null : await autotune(sb.lab, task, shape, { budget, seed: 7 });
      const best = tuned ? await measure(task.template.render(scheduleAt(task, tuned.best.index)), 2) : null;
      let miss = 0;
      for (let k = 0; k < aa; k++) {
        const m = await measure(task.reference, 1000 + k);
        if (!m.timing) throw new Error(`${task.id}: the reference against itself failed (${m.code})`);
        if (m.timing.lo > 1 || m.timing.hi < 1) {
          miss++;
          process.stderr.write(`  A/A miss: ${task.id} ${f2(m.timing.speedup)} [${m.timing.lo.toFixed(3)}, ${m.timing.hi.toFixed(3)}] robust cv ${m.timing.cv.toFixed(3)} ${m.flags.join(', ')}\n`);
        }
      }
      aaMiss += miss;
      aaTotal += aa;
      const e = expert?.timing;
      const b = best?.timing;
      rows.push(
        `| ${task.id} | ${Object.values(shape).join('×')} | ${e ? (e.referenceNs / 1e6).toFixed(3) : '-'} | ${e ? `${f2(e.speedup)} [${f2(e.lo)}, ${f2(e.hi)}]` : (expert?.code ?? '-')} | ${b && tuned ? `${f2(b.speedup)} [${f2(b.lo)}, ${f2(b.hi)}] (${scheduleText(scheduleAt(task, tuned.best.index))})` : (best?.code ?? '-')} | ${((count * 60000) / ms).toFixed(0)} | ${miss}/${aa} |`,
      );
      process.stderr.write(`${task.id} done (${count} full measurements, ${(ms / 1000).toFixed(0)} s)\n`);
    }
  } finally {
    await sb.close();
  }
  process.stdout.write(`${rows.join('\n')}\n\nA/A: ${aaMiss}/${aaTotal} intervals exclude 1 (${((100 * aaMiss) / Math.max(1, aaTotal)).toFixed(1)}%; coverage ${((100 * (aaTotal - aaMiss)) / Math.max(1, aaTotal)).toFixed(1)}%); ${noisy} of ${full} measurements flagged noisy.\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});

