/**
 * Records the table of measured schedule timings that kernel-speedup-v1 trains against (timing
 * "table"): for every task and timing shape, the expert and every legal schedule of the template,
 * each measured once in the sandbox with the env's full protocol (edge + seeded correctness,
 * ≥ 5 warm-up calls, 30 ABAB trials, bootstrap interval). One timing at a time (one worker).
 * Writes envs/kernel-speedup/data/schedule-table.json after each task; --resume keeps the
 * tasks already there. Prints a markdown summary per task (best schedule, expert, reference).
 *
 * Usage: npm run kernels:table [-- --tasks matmul,sum --resume --out FILE]
 */
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { availableParallelism } from 'node:os';
import { createSandbox } from '../src/sandbox';
import { kernelTasks, legalScheduleIndices, measureKernel, scheduleAt, type KernelTask, type Measurement, type ScheduleTable, type TableShape } from '../envs/kernel-speedup';
import { packageRoot } from '../src/package-root';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const round = (x: number) => Math.round(x * 10000) / 10000;

async function main(): Promise<void> {
  const out = option('out') ?? join(packageRoot(), 'envs', 'kernel-speedup', 'data', 'schedule-table.json');
  const wanted = option('tasks')?.split(',');
  const tasks = kernelTasks.filter((t) => !wanted || wanted.includes(t.id));
  const table: ScheduleTable =
    process.argv.includes('--resume') && existsSync(out)
      ? (JSON.parse(readFileSync(out, 'utf8')) as ScheduleTable)
      : { format: 1, note: '', tasks: {} };
  table.note = `measured ${new Date().toISOString().slice(0, 10)} on ${availableParallelism()} vCPUs (node ${process.version}) with the env's full protocol: edge + 5 seeded correctness shapes, 5 warm-up calls, 30 ABAB timed trials (a second batch when the first is noisy), median ratio with a smoothed-bootstrap 95% interval widened by 2% (and by the robust CV when still noisy)`;
  const sb = createSandbox({ concurrency: 1 });
  const started = Date.now();
  let measured = 0;
  const measure = (task: KernelTask, source: string, shape: TableShape['dims'], seed: number): Promise<Measurement> => {
    measured++;
    return measureKernel(sb.lab, task, source, { secret: `table-${seed}`, shape });
  };
  const lines = ['| task | shape | reference ms | expert × [95%] | best schedule × [95%] | schedules |', '|---|---|---:|---:|---:|---:|'];
  try {
    for (const task of tasks) {
      if (table.tasks[task.id] && process.argv.includes('--resume')) continue;
      const rows: TableShape[] = [];
      for (let si = 0; si < task.timingShapes.length; si++) {
        const dims = task.timingShapes[si];
        const expert = await measure(task, task.expert, dims, 1);
        if (!expert.timing) throw new Error(`${task.id}: the expert failed (${expert.code}: ${expert.message})`);
        const schedules: TableShape['schedules'] = [];
        const legal = legalScheduleIndices(task);
        for (const index of legal) {
          const m = await measure(task, task.template.render(scheduleAt(task, index)), dims, 100 + index);
          if (m.timing) schedules.push([index, round(m.timing.speedup), round(m.timing.lo), round(m.timing.hi)]);
          else process.stderr.write(`  ${task.id} schedule ${index}: ${m.code} ${m.message ?? ''}\n`);
        }
        rows.push({ shapeIndex: si, dims, referenceNs: Math.round(expert.timing.referenceNs), expert: { speedup: round(expert.timing.speedup), lo: round(expert.timing.lo), hi: round(expert.timing.hi) }, schedules });
        const best = schedules.reduce((a, b) => (b[1] > a[1] ? b : a));
        lines.push(`| ${task.id} | ${Object.values(dims).join('×')} | ${(expert.timing.referenceNs / 1e6).toFixed(3)} | ${expert.timing.speedup.toFixed(2)} [${expert.timing.lo.toFixed(2)}, ${expert.timing.hi.toFixed(2)}] | #${best[0]} ${best[1].toFixed(2)} [${best[2].toFixed(2)}, ${best[3].toFixed(2)}] | ${schedules.length}/${legal.length} |`);
        process.stderr.write(`${task.id} shape ${si}: ${schedules.length} schedules, ${measured} measurements, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
      }
      table.tasks[task.id] = rows;
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify(table) + '\n');
    }
  } finally {
    await sb.close();
  }
  process.stdout.write(`${lines.join('\n')}\n\n${measured} measurements in ${((Date.now() - started) / 60000).toFixed(1)} min (${((measured * 60000) / (Date.now() - started)).toFixed(1)} per minute)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
