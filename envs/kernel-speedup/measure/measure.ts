/**
 * One measurement of a candidate kernel against the task's reference, in one lab session (one
 * worker: nothing else runs there while it times):
 *
 * 1. correctness: every edge shape of the contract, then ≥ 5 seeded shapes (the timing shape
 *    first), fresh inputs each; the reference runs on the same inputs in its own isolate;
 *    each call judged (call-check.ts); then the precision check over all of them;
 * 2. warm-up: ≥ 5 calls of each kernel on the timing shape (the correctness calls on the edge
 *    shapes came first, in each kernel's isolate), outputs checked;
 * 3. timing: ≥ 30 trials, each with fresh inputs, reference and candidate back to back with the
 *    order alternating (A B, B A, …), every output checked; speedup = median of the per-trial
 *    ratios, with a smoothed-bootstrap 95% interval (on log ratios) widened by the lab's
 *    resolution; a batch whose robust CV is above the threshold is followed by a second one (the
 *    figures then pool both, the interval spans both batches' intervals), and reported noisy if
 *    that one is too; the precision check again over the warm-up calls, over the timed calls, and
 *    over each of those calls on its own (a kernel that counts its calls knows when correctness
 *    is over, and float16 answers on most timed calls would set the median);
 * 4. review: a lower bound above the review threshold is re-measured (review.ts).
 *
 * Every input and drawn shape comes from the measurement's secret (inputs.ts): no kernel can
 * predict what it will be given, whatever it knows about the match.
 */
import type { KernelCallResult, KernelLab, KernelLabSession } from '../../../src/core/sandbox';
import type { Dims, KernelTask } from '../tasks/task';
import { failedCallCode, firstCode, judgeCall, type JudgeContext } from './call-check';
import { countShortMantissas, lowerPrecision, type PrecisionCount } from './compare';
import type { MeasureCode } from './codes';
import { freshSecret, outputNames, outputSpecs, seededShapes, streamSeed, trialInputs } from './inputs';
import { prepareKernel } from './instrument';
import { reviewed } from './review';
import { bootstrapMedianInterval, median } from './stats';
import type { Measurement, TimingSummary, TrialCheck } from './types';

/** Options of one measurement (the env's requests use the defaults or more). */
export interface MeasureOptions {
  /**
   * The measurement's secret: every input, every drawn shape and the bootstrap come from it.
   * Default (and the only choice where a reward depends on the result): 32 fresh random bytes.
   * Tests and benches set it to be reproducible.
   */
  secret?: string;
  /** The timing shape. */
  shape: Dims;
  /** Seeded correctness trials (default 5). */
  seededTrials?: number;
  /** Warm-up calls per kernel on the timing shape (default 5). */
  warmup?: number;
  /** Timed trials per batch (default 30). */
  trials?: number;
  /** Robust CV above which a batch is re-measured (default 0.1). */
  cvThreshold?: number;
  /** Bootstrap resamples (default 2000). */
  resamples?: number;
  /** Relative resolution of the lab: the interval is widened by this factor each side (default 0.02, README). */
  resolution?: number;
  /** False: correctness only (no warm-up, no timing). Default true. */
  time?: boolean;
  /**
   * "full" (default): every edge shape and the seeded shapes; "timing-shape": the timing shape
   * only (a tuner's quick comparison of schedules already known to be correct — never the env's).
   */
  check?: 'full' | 'timing-shape';
  /**
   * A lower bound above this speedup is re-measured on fresh inputs before it counts (review.ts;
   * the env passes {@link reviewThreshold} of the task's expert). Default: no review.
   */
  reviewAbove?: number;
  timeMs?: number;
  memoryMb?: number;
  signal?: AbortSignal;
}

/** Defaults of {@link MeasureOptions}. */
export const MEASURE_DEFAULTS = { seededTrials: 5, warmup: 5, trials: 30, cvThreshold: 0.1, resamples: 2000, resolution: 0.02 } as const;

/** Codes after which a session cannot go on (the worker was killed or is unusable). */
const FATAL: readonly MeasureCode[] = ['timeout', 'memory-limit', 'sandbox-error'];

/** Robust coefficient of variation: 1.4826 · MAD / median. */
export function robustCv(xs: readonly number[]): number {
  const m = median(xs);
  if (!(m > 0)) return Infinity;
  return (1.4826 * median(xs.map((x) => Math.abs(x - m)))) / m;
}

/** A measurement that stopped with `code` before any trial. */
function early(code: MeasureCode, message?: string): Measurement {
  return { code, ...(message ? { message } : {}), correct: false, trials: [], checkedCalls: 0, timing: null, flags: [] };
}

/** The reference call failed: the measurement cannot judge anything (not the candidate's fault). */
function referenceFailed(r: KernelCallResult): string {
  return `the reference failed (${r.code}${r.message ? `: ${r.message}` : ''})`;
}

interface Session {
  lab: KernelLabSession;
  task: KernelTask;
  names: string[];
  seen: Set<string>;
  /** The measurement's secret (inputs.ts). */
  secret: string;
  /** The task's float32 outputs (the precision rule counts them). */
  floats: string[];
}

/** Float16-like values among the float32 outputs of checked calls: the candidate's, the reference's. */
type Precision = [PrecisionCount, PrecisionCount];

function noPrecision(): Precision {
  return [{ values: 0, short: 0 }, { values: 0, short: 0 }];
}

/** Adds a correct call's float32 outputs (and the reference's) to `into`; true when that call alone is lower-precision. */
function countPrecision(s: Session, r: { ref: KernelCallResult; cand: KernelCallResult }, into: Precision): boolean {
  const call = noPrecision();
  for (const n of s.floats) {
    countShortMantissas(r.cand.outputs![n] as Float32Array, call[0]);
    countShortMantissas(r.ref.outputs![n] as Float32Array, call[1]);
  }
  for (let k = 0; k < 2; k++) {
    into[k].values += call[k].values;
    into[k].short += call[k].short;
  }
  return lowerPrecision(call[0], call[1]);
}

/** The precision of a phase's calls: their counts, and how many were lower-precision on their own. */
interface Tally {
  precision: Precision;
  lowCalls: number;
}

function noTally(): Tally {
  return { precision: noPrecision(), lowCalls: 0 };
}

/** Counts a correct call into `t`. */
function tallyCall(s: Session, r: { ref: KernelCallResult; cand: KernelCallResult }, t: Tally): void {
  if (countPrecision(s, r, t.precision)) t.lowCalls++;
}

/** The lower-precision verdict of `p` (`where`: the calls counted), or null. */
function precisionVerdict(p: Precision, where: string): { code: MeasureCode; message: string } | null {
  if (!lowerPrecision(p[0], p[1])) return null;
  return { code: 'lower-precision', message: `${p[0].short} of ${p[0].values} float32 outputs have float16 mantissas (the reference: ${p[1].short} of ${p[1].values})${where}` };
}

/**
 * The lower-precision verdict of the warm-up and timed calls (`calls` of them), or null: each
 * phase as a whole, counted apart (full-precision answers while warming up cannot dilute float16
 * ones once timed), then each call on its own (float16 answers on most timed calls set the median
 * however many full-precision ones the rest are).
 */
function timedPrecisionVerdict(warm: Tally, timed: Tally, calls: number): { code: MeasureCode; message: string } | null {
  const low = warm.lowCalls + timed.lowCalls;
  return (
    precisionVerdict(warm.precision, ' in the warm-up calls') ??
    precisionVerdict(timed.precision, ' in the timed calls') ??
    (low > 0 ? { code: 'lower-precision', message: `${low} of ${calls} warm-up and timed calls have float16 mantissas in their float32 outputs (the reference's do not)` } : null)
  );
}

/**
 * Calls reference and candidate on fresh inputs from the secret's stream `labels` (order by
 * `candidateFirst`), judges the candidate.
 */
async function pairedCall(s: Session, dims: Dims, labels: (string | number)[], ctx: Omit<JudgeContext, 'dims' | 'names' | 'tolerance' | 'seen'>, candidateFirst: boolean): Promise<{ check: TrialCheck; ref: KernelCallResult; cand: KernelCallResult }> {
  const inputs = trialInputs(s.task, dims, streamSeed(s.secret, ...labels));
  const specs = outputSpecs(s.task, dims);
  let ref: KernelCallResult;
  let cand: KernelCallResult;
  if (candidateFirst) {
    cand = await s.lab.call('candidate', inputs, dims, specs);
    ref = await s.lab.call('reference', inputs, dims, specs);
  } else {
    ref = await s.lab.call('reference', inputs, dims, specs);
    cand = await s.lab.call('candidate', inputs, dims, specs);
  }
  if (ref.code !== 'ok') {
    // a candidate that timed out takes its worker down with it: the reference's failure is then its doing
    const cf = failedCallCode(cand);
    const check: TrialCheck = cf
      ? { kind: ctx.kind, dims, code: cf.code, mismatches: 0, total: 0, maxAbsError: 0, ...(cf.message ? { message: cf.message } : {}) }
      : { kind: ctx.kind, dims, code: 'sandbox-error', mismatches: 0, total: 0, maxAbsError: 0, message: referenceFailed(ref) };
    return { check, ref, cand };
  }
  return { check: judgeCall(cand, ref, { ...ctx, dims, names: s.names, tolerance: s.task.tolerance, seen: s.seen }), ref, cand };
}

/** Correctness over edge and seeded shapes; stops at a fatal code. */
async function correctness(s: Session, o: MeasureOptions): Promise<{ trials: TrialCheck[]; precision: Precision }> {
  const shapes: [TrialCheck['kind'], Dims][] =
    o.check === 'timing-shape'
      ? [['seeded', o.shape]]
      : [
          ...s.task.edgeShapes.map((d): [TrialCheck['kind'], Dims] => ['edge', d]),
          ...seededShapes(s.task, o.shape, Math.max(1, o.seededTrials ?? MEASURE_DEFAULTS.seededTrials), streamSeed(s.secret, 'seeded-shapes')).map((d): [TrialCheck['kind'], Dims] => ['seeded', d]),
        ];
  const trials: TrialCheck[] = [];
  const precision = noPrecision();
  for (let i = 0; i < shapes.length; i++) {
    const [kind, dims] = shapes[i];
    const r = await pairedCall(s, dims, ['trial', i], { kind, afterCorrectness: false }, false);
    trials.push(r.check);
    if (r.check.code === 'ok') countPrecision(s, r, precision);
    if (FATAL.includes(r.check.code)) break;
  }
  return { trials, precision };
}

/** One batch of timed trials (their outputs counted into `precision`); a failed check ends it. */
async function timedBatch(s: Session, o: MeasureOptions, batch: number, n: number, precision: Tally): Promise<{ ref: number[]; cand: number[]; failed: TrialCheck | null; checked: number }> {
  const ref: number[] = [];
  const cand: number[] = [];
  for (let t = 0; t < n; t++) {
    const r = await pairedCall(s, o.shape, ['timed', batch, t], { kind: 'timed', afterCorrectness: true }, t % 2 === 1);
    if (r.check.code !== 'ok') return { ref, cand, failed: r.check, checked: t + 1 };
    tallyCall(s, r, precision);
    ref.push(r.ref.ns!);
    cand.push(r.cand.ns!);
  }
  return { ref, cand, failed: null, checked: n };
}

/** A batch's timings. */
interface Batch {
  ref: number[];
  cand: number[];
}

/** The smoothed-bootstrap interval of a batch's median ratio (computed on log ratios: speedups compose multiplicatively). */
function batchInterval(o: MeasureOptions, secret: string, index: number, b: Batch): { lo: number; hi: number } {
  const logs = b.ref.map((r, i) => Math.log(r / b.cand[i]));
  const ci = bootstrapMedianInterval(logs, streamSeed(secret, 'bootstrap', index), o.resamples ?? MEASURE_DEFAULTS.resamples);
  return { lo: Math.exp(ci.lo), hi: Math.exp(ci.hi) };
}

/**
 * The timing summary (`warmup`: the warm-up calls made per kernel). One batch: its median ratio
 * and interval. Re-measured (two batches): the median of all ratios, and an interval spanning
 * both batches' intervals (the first batch was disturbed; an interval valid for either run is
 * reported, so a noisy machine widens it). Still noisy: the interval is widened by the last
 * batch's robust CV on each side (the bootstrap treats trials as exchangeable, which sustained
 * interference breaks: measured in the A/A bench, 4 of its 5 misses were noisy runs shifted ~10%
 * one way).
 */
function summarize(o: MeasureOptions, secret: string, warmup: number, batches: readonly Batch[], noisy: boolean): TimingSummary {
  const ref = batches.flatMap((b) => b.ref);
  const cand = batches.flatMap((b) => b.cand);
  const ratios = ref.map((r, i) => r / cand[i]);
  const speedup = median(ratios);
  const cis = batches.map((b, i) => batchInterval(o, secret, i, b));
  const last = batches[batches.length - 1];
  const cv = robustCv(last.ref.map((r, i) => r / last.cand[i]));
  const res = (1 + (o.resolution ?? MEASURE_DEFAULTS.resolution)) * (noisy ? 1 + cv : 1);
  return {
    dims: o.shape,
    warmup,
    trials: ratios.length,
    referenceNs: median(ref),
    candidateNs: median(cand),
    speedup,
    lo: Math.min(speedup, ...cis.map((c) => c.lo)) / res,
    hi: Math.max(speedup, ...cis.map((c) => c.hi)) * res,
    cv,
    remeasured: batches.length > 1,
    noisy,
    referenceTrialsNs: ref,
    candidateTrialsNs: cand,
  };
}

/** The measurement's code from its trials: the first code in the classifier's order. */
function overall(trials: readonly TrialCheck[]): { code: MeasureCode; message?: string } {
  const code = firstCode(trials.map((t) => t.code));
  const t = trials.find((x) => x.code === code);
  return { code, ...(t?.message ? { message: t.message } : {}) };
}

/**
 * Measures `candidate` (kernel source) against the task's reference with `lab`; a lower bound
 * above `o.reviewAbove` is re-measured on fresh inputs in a fresh session, and only what the
 * re-measurement confirms counts (review.ts). Never throws for a bad kernel (every outcome is a
 * code); only cancellation rejects.
 */
export async function measureKernel(lab: KernelLab, task: KernelTask, candidate: string, o: MeasureOptions): Promise<Measurement> {
  const names = outputNames(task);
  const cand = prepareKernel(candidate, names);
  if (!cand.ok) return early(cand.code, cand.message);
  const ref = prepareKernel(task.reference, names);
  if (!ref.ok) return early('sandbox-error', `the reference does not prepare: ${ref.message}`);
  const secret = o.secret ?? freshSecret();
  const first = await measureOnce(lab, task, { reference: ref.source, candidate: cand.source }, o, secret);
  const above = o.reviewAbove;
  if (above === undefined || !first.timing || !(first.timing.lo > above)) return first;
  // a fresh session (nothing the kernel kept survives) and inputs from a fresh secret
  const recheck = await measureOnce(lab, task, { reference: ref.source, candidate: cand.source }, o, streamSeed(secret, 'recheck'));
  return reviewed(first, recheck, above);
}

/** One measurement in one lab session with inputs from `secret`. */
async function measureOnce(lab: KernelLab, task: KernelTask, kernels: { reference: string; candidate: string }, o: MeasureOptions, secret: string): Promise<Measurement> {
  const names = outputNames(task);
  const session = await lab.open(kernels, { timeMs: o.timeMs, memoryMb: o.memoryMb }, o.signal);
  try {
    const rs = session.status.reference;
    if (rs?.code !== 'ok') return early('sandbox-error', `the reference does not load (${rs?.code}${rs?.message ? `: ${rs.message}` : ''})`);
    const cs = session.status.candidate;
    if (cs?.code !== 'ok') {
      // loading ran the source (an IIFE's set-up): its failure reads like a call's (the clock included)
      const f = failedCallCode({ code: cs?.code ?? 'sandbox-error', message: cs?.message ?? 'the candidate did not load' });
      return early(f?.code ?? 'runtime-error', f?.message);
    }
    const floats = task.outputs.filter((x) => x.dtype === 'f32').map((x) => x.name);
    const s: Session = { lab: session, task, names, seen: new Set(), secret, floats };
    const { trials, precision } = await correctness(s, o);
    const flags: string[] = [];
    let verdict = overall(trials);
    if (verdict.code === 'ok') verdict = precisionVerdict(precision, '') ?? verdict;
    const result = (timing: TimingSummary | null, checkedCalls: number, extra: TrialCheck[] = []): Measurement => ({
      code: verdict.code,
      ...(verdict.message ? { message: verdict.message } : {}),
      correct: verdict.code === 'ok',
      trials: [...trials, ...extra],
      checkedCalls,
      timing,
      flags,
    });
    if (verdict.code !== 'ok' || o.time === false) return result(null, 0);
    // warm-up on the timing shape (the edge shapes ran first, in correctness)
    const warm = Math.max(0, o.warmup ?? MEASURE_DEFAULTS.warmup);
    // the warm-up and timed calls are counted apart from correctness and from each other:
    // correct full-precision answers while checked cannot dilute float16 ones once timed
    const warmPrecision = noTally();
    const timedPrecision = noTally();
    for (let w = 0; w < warm; w++) {
      const r = await pairedCall(s, o.shape, ['warmup', w], { kind: 'warmup', afterCorrectness: true }, w % 2 === 1);
      if (r.check.code !== 'ok') {
        verdict = { code: r.check.code, ...(r.check.message ? { message: r.check.message } : {}) };
        return result(null, w + 1, [r.check]);
      }
      tallyCall(s, r, warmPrecision);
    }
    const n = Math.max(2, o.trials ?? MEASURE_DEFAULTS.trials);
    const threshold = o.cvThreshold ?? MEASURE_DEFAULTS.cvThreshold;
    let checked = warm;
    const batches: Batch[] = [];
    let noisy = false;
    for (let k = 0; k < 2; k++) {
      const b = await timedBatch(s, o, k, n, timedPrecision);
      checked += b.checked;
      if (b.failed) {
        verdict = { code: b.failed.code, ...(b.failed.message ? { message: b.failed.message } : {}) };
        return result(null, checked, [b.failed]);
      }
      batches.push(b);
      noisy = robustCv(b.ref.map((r, i) => r / b.cand[i])) > threshold;
      if (!noisy) break;
    }
    const lower = timedPrecisionVerdict(warmPrecision, timedPrecision, checked);
    if (lower) {
      verdict = lower;
      return result(null, checked);
    }
    const timing = summarize(o, secret, warm, batches, noisy);
    if (timing.remeasured) flags.push('remeasured');
    if (noisy) flags.push('noisy');
    return result(timing, checked);
  } finally {
    await session.close();
  }
}
