/**
 * Judging one candidate call against the reference's call on the same inputs: what the lab saw
 * (errors, returned inputs, kept buffers, written inputs), what the wrapper's probe saw (caught
 * exceptions, getters), then allclose — each finding with its own code.
 */
import type { KernelArray, KernelCallResult } from '../../../src/core/sandbox';
import type { Tolerance } from '../tasks/task';
import { MEASURE_CODES, type MeasureCode } from './codes';
import { compareOutputs, outputsHash } from './compare';
import { PROBE_OUTPUT } from './instrument';
import type { TrialCheck, TrialKind } from './types';
import type { Dims } from '../tasks/task';

/** The code of a lab call that did not return outputs (or null when it did). */
export function failedCallCode(r: KernelCallResult): { code: MeasureCode; message?: string } | null {
  if (r.code === 'ok') return null;
  const message = r.message;
  switch (r.code) {
    case 'timeout':
    case 'memory-limit':
    case 'sandbox-error':
    case 'syntax-error':
      return { code: r.code, message };
    default: {
      const m = message ?? '';
      if (/clock is not available|\bperformance is not defined|\bIntl is not defined/.test(m)) return { code: 'reads-clock', message };
      // constructs forbidden like async functions, refused when used: promises (instrument.ts) and a
      // wasm module that could catch exceptions (the lab: src/sandbox/worker/wasm-code-check.cjs)
      if (/^TypeError: promises are not available to kernels |^RangeError: refused: wasm exception handling /.test(m)) return { code: 'forbidden', message };
      if (/^output "[^"]+" has length/.test(m)) return { code: 'wrong-shape', message };
      if (/^output "[^"]+" is not a |not an object of outputs/.test(m)) return { code: 'wrong-dtype', message };
      return { code: 'runtime-error', message };
    }
  }
}

/** The first of several codes in the classifier's order. */
export function firstCode(codes: readonly MeasureCode[]): MeasureCode {
  let best: MeasureCode = 'ok';
  let at = Infinity;
  for (const c of codes) {
    const i = MEASURE_CODES.indexOf(c);
    if (c !== 'ok' && i < at) {
      at = i;
      best = c;
    }
  }
  return best;
}

/** What the judge needs besides the two calls. */
export interface JudgeContext {
  kind: TrialKind;
  dims: Dims;
  names: readonly string[];
  tolerance: Tolerance;
  /** Hashes of the candidate's earlier correct results in this measurement (a replayed one is result reuse). */
  seen: Set<string>;
  /** The candidate passed every correctness trial already (a later wrong answer is a decoy). */
  afterCorrectness: boolean;
}

/** The candidate's outputs without the probe. */
export function taskOutputs(r: KernelCallResult, names: readonly string[]): Record<string, KernelArray> {
  const out: Record<string, KernelArray> = {};
  for (const n of names) if (r.outputs?.[n]) out[n] = r.outputs[n];
  return out;
}

/**
 * Judges one candidate call (`cand`) against the reference's (`ref`, which succeeded); a correct
 * result's hash joins `ctx.seen`.
 */
export function judgeCall(cand: KernelCallResult, ref: KernelCallResult, ctx: JudgeContext): TrialCheck {
  const base: TrialCheck = { kind: ctx.kind, dims: ctx.dims, code: 'ok', mismatches: 0, total: 0, maxAbsError: 0 };
  const failed = failedCallCode(cand);
  if (failed) return { ...base, code: failed.code, ...(failed.message ? { message: failed.message } : {}) };
  const codes: MeasureCode[] = [];
  const notes: string[] = [];
  const flags = cand.flags ?? [];
  if (flags.includes('returns-input')) codes.push('returns-input');
  if (flags.includes('reuses-buffer')) codes.push('kept-buffer');
  if (cand.modified?.length) {
    codes.push('modifies-input');
    notes.push(`wrote to input ${cand.modified.join(', ')}`);
  }
  const probe = cand.outputs?.[PROBE_OUTPUT];
  if (probe && probe[0] > 0) {
    codes.push('hidden-failure');
    notes.push(`${probe[0]} exception(s) caught inside the kernel`);
  }
  if (probe && probe[1] > 0) codes.push('lazy-output');
  const actual = taskOutputs(cand, ctx.names);
  const cmp = compareOutputs(ctx.names, actual, taskOutputs(ref, ctx.names), ctx.tolerance);
  const hash = outputsHash(ctx.names, actual);
  if (!cmp.ok) {
    if (ctx.seen.has(hash)) codes.push('result-reuse');
    else codes.push(ctx.afterCorrectness ? 'decoy' : 'wrong-answer');
  }
  if (cmp.ok) ctx.seen.add(hash);
  const code = firstCode(codes);
  return {
    ...base,
    code,
    mismatches: cmp.mismatches,
    total: cmp.total,
    maxAbsError: cmp.maxAbsError,
    ...(cmp.first ? { first: cmp.first } : {}),
    ...(notes.length ? { message: notes.join('; ') } : {}),
  };
}
