/**
 * Training metrics as a projection: each iteration's metrics are published on the bus as a
 * `training.iteration` event and appended to `metrics.jsonl`; `metrics.csv` holds the same
 * rows flattened (column "learners.solver.meanReturn.solver", ...), rewritten each iteration
 * so that columns appearing later (evaluations) line up.
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
  private readonly rows: Record<string, string | number>[] = [];
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
        this.rows.push(flatten(row as JsonValue));
      }
    }
    writeFileSync(this.jsonl, kept.map((l) => l + '\n').join(''));
  }

  /** Records one iteration's metrics (a JSON object). */
  write(iteration: number, metrics: { [key: string]: JsonValue }): void {
    if (this.bus?.active) {
      this.bus.publish({ type: 'training.iteration', run: this.runId, ...(this.league ? { league: this.league } : {}), seq: iteration, time: Date.now(), visibility: 'public', data: metrics });
    }
    if (!this.jsonl || !this.csv) return;
    appendFileSync(this.jsonl, JSON.stringify(metrics) + '\n');
    this.rows.push(flatten(metrics));
    const cols: string[] = [];
    const seen = new Set<string>();
    for (const r of this.rows) for (const k of Object.keys(r)) if (!seen.has(k)) (seen.add(k), cols.push(k));
    const lines = [cols.map(csvCell).join(','), ...this.rows.map((r) => cols.map((c) => csvCell(r[c])).join(','))];
    writeFileSync(this.csv, lines.join('\n') + '\n');
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
