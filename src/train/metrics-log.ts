/**
 * Training metrics as a projection: each iteration's metrics are published on the bus as a
 * `training.iteration` event and appended to `metrics.jsonl`; `metrics.csv` holds the same
 * rows flattened (column "learners.solver.meanReturn.solver", ...): a row is appended, and the
 * whole file is rewritten from metrics.jsonl only when a row brings new columns (evaluations),
 * so the columns line up. Only the column names stay in memory, not the rows (a league trains
 * for as long as it runs).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventBus } from '../bus/event-bus';
import type { JsonValue } from '../core/json';
import type { EvalResult } from './evaluate';
import type { SourceStats } from './episode-sources';
import type { UpdateStats } from './learner';

/** Flattens nested objects into dotted keys (numbers and strings only). */
export function flatten(value: JsonValue, prefix = '', out: Record<string, string | number> = {}): Record<string, string | number> {
  if (value === null || value === undefined) return out;
  if (typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v as JsonValue, prefix ? `${prefix}.${k}` : k, out);
  } else if (Array.isArray(value)) {
    out[prefix] = JSON.stringify(value);
  } else if (typeof value === 'number' || typeof value === 'string') {
    out[prefix] = value;
  } else out[prefix] = value ? 1 : 0;
  return out;
}

function csvCell(v: string | number | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(Math.round(v * 1e6) / 1e6) : '';
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Writes metrics rows to the bus and, when `dir` is given, to JSONL + CSV files there. */
export class MetricsLog {
  /** The CSV's columns, in order. */
  private readonly cols: string[] = [];
  private readonly seen = new Set<string>();
  private readonly jsonl?: string;
  private readonly csv?: string;

  constructor(
    private readonly runId: string,
    dir?: string,
    private readonly bus?: EventBus,
    /** When resuming: keep the existing rows of iterations up to this one, drop later ones. */
    resumeAt?: number,
    /** The league whose learner this run trains (set on the bus events). */
    private readonly league?: string,
  ) {
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    this.jsonl = join(dir, 'metrics.jsonl');
    this.csv = join(dir, 'metrics.csv');
    const kept: string[] = [];
    if (resumeAt !== undefined && existsSync(this.jsonl)) {
      for (const line of readFileSync(this.jsonl, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const row = JSON.parse(line) as { iteration?: number };
        if ((row.iteration ?? 0) > resumeAt) continue;
        kept.push(line);
        this.addColumns(flatten(row as JsonValue));
      }
    }
    writeFileSync(this.jsonl, kept.map((l) => l + '\n').join(''));
    if (kept.length) this.rewriteCsv();
  }

  /** Adds the row's new columns; true when there were any. */
  private addColumns(row: Record<string, string | number>): boolean {
    let added = false;
    for (const k of Object.keys(row)) if (!this.seen.has(k)) (this.seen.add(k), this.cols.push(k), (added = true));
    return added;
  }

  private csvLine(row: Record<string, string | number>): string {
    return this.cols.map((c) => csvCell(row[c])).join(',');
  }

  /** The whole CSV again from metrics.jsonl (the rows are not kept in memory). */
  private rewriteCsv(): void {
    const lines = [this.cols.map(csvCell).join(',')];
    for (const line of readFileSync(this.jsonl!, 'utf8').split('\n')) if (line.trim()) lines.push(this.csvLine(flatten(JSON.parse(line) as JsonValue)));
    writeFileSync(this.csv!, lines.join('\n') + '\n');
  }

  /** Records one iteration's metrics (a JSON object). */
  write(iteration: number, metrics: { [key: string]: JsonValue }): void {
    if (this.bus?.active) {
      this.bus.publish({ type: 'training.iteration', run: this.runId, ...(this.league ? { league: this.league } : {}), seq: iteration, time: Date.now(), visibility: 'public', data: metrics });
    }
    if (!this.jsonl || !this.csv) return;
    appendFileSync(this.jsonl, JSON.stringify(metrics) + '\n');
    const row = flatten(metrics);
    if (this.addColumns(row) || !existsSync(this.csv)) this.rewriteCsv();
    else appendFileSync(this.csv, this.csvLine(row) + '\n');
  }
}

/** One learner's line in the iteration metrics. */
export interface LearnerMetrics {
  training: boolean;
  meanReturn: Record<string, number>;
  winRate: Record<string, number>;
  games: Record<string, number>;
  updates: number;
  update?: UpdateStats;
  /** The proposer reward's work on this batch (learners with `reward` in the config). */
  reward?: { valid: number; repeated: number; meanPenalty: number };
}

/** Metrics of one iteration (also the payload of the `training.iteration` bus event). */
export interface IterationMetrics {
  run: string;
  env: string;
  backend: string;
  /** Iterations completed, this one included. */
  iteration: number;
  lr: number;
  episodes: number;
  samples: number;
  seconds: number;
  rolloutSeconds: number;
  updateSeconds: number;
  /**
   * Policy versions between the weights that played this iteration's episodes and the weights
   * updated on them: 0, or 1 when the episodes were played during the previous update (config
   * `overlap`). With the seed, these make an overlapped run reproducible.
   */
  policyLag: number;
  episodesPerSec: number;
  samplesPerSec: number;
  /** Samples × epochs through the optimizer per second of update time. */
  updateSamplesPerSec: number;
  outcomes: Record<string, number>;
  /** env.aggregate over this iteration's training episodes, when the env defines it. */
  envStats?: { [key: string]: JsonValue };
  /** With episode sources: per source label, its episodes and the env's aggregate of them. */
  sources?: Record<string, SourceStats>;
  learners: Record<string, LearnerMetrics>;
  eval?: Record<string, Record<string, EvalResult>>;
}
