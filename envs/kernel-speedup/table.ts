/**
 * The recorded table of measured schedule timings (data/schedule-table.json, written by
 * `npm run kernels:table`): for every task and timing shape, the expert's speedup and every
 * legal schedule's speedup with its interval, each measured once with the full protocol. With
 * `timing: "table"` the env looks schedules up here instead of timing them, so training runs at
 * the speed of the env; evaluation on held-out shapes always measures for real.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Dims } from './tasks/task';

/** A speedup with its interval. */
export interface TableSpeedup {
  speedup: number;
  lo: number;
  hi: number;
}

/** One task × timing shape of the table. */
export interface TableShape {
  /** Index into the task's timingShapes. */
  shapeIndex: number;
  dims: Dims;
  /** Median reference time, ns. */
  referenceNs: number;
  expert: TableSpeedup;
  /** [schedule index, speedup, lo, hi] for every legal schedule that measured correct. */
  schedules: [number, number, number, number][];
}

/** The whole table. */
export interface ScheduleTable {
  format: 1;
  /** How and where it was measured (machine, date, protocol). */
  note: string;
  tasks: Record<string, TableShape[]>;
}

const FILE = 'schedule-table.json';

/** The table file's path (from src or dist), or null when none exists. */
export function tablePath(): string | null {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    for (const candidate of [join(dir, 'envs', 'kernel-speedup', 'data', FILE), join(dir, 'data', FILE)]) if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return null;
}

let cached: ScheduleTable | undefined;

/** The recorded table (an empty one when the file is missing); read once. */
export function scheduleTable(): ScheduleTable {
  if (cached) return cached;
  const path = tablePath();
  cached = path ? (JSON.parse(readFileSync(path, 'utf8')) as ScheduleTable) : { format: 1, note: 'no table recorded', tasks: {} };
  if (cached.format !== 1) throw new Error(`${path}: unknown schedule table format ${String(cached.format)}`);
  return cached;
}

/** Timing-shape indices of `task` that the table has. */
export function tableShapes(task: string): number[] {
  return (scheduleTable().tasks[task] ?? []).map((s) => s.shapeIndex);
}

/** The table's row for a task and timing shape, or null. */
export function tableShape(task: string, shapeIndex: number): TableShape | null {
  return scheduleTable().tasks[task]?.find((s) => s.shapeIndex === shapeIndex) ?? null;
}

/** The recorded speedup of a schedule on a task's timing shape, or null when it is not in the table. */
export function tableSpeedup(task: string, shapeIndex: number, schedule: number): TableSpeedup | null {
  const row = tableShape(task, shapeIndex)?.schedules.find((s) => s[0] === schedule);
  return row ? { speedup: row[1], lo: row[2], hi: row[3] } : null;
}

/** The task's expert ceiling: the largest recorded expert speedup over its shapes (null when none). */
export function expertCeiling(task: string): number | null {
  const rows = scheduleTable().tasks[task] ?? [];
  return rows.length ? Math.max(...rows.map((r) => r.expert.speedup)) : null;
}
