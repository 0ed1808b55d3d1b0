/**
 * The attacker's input: a shape and a value description per input tensor, checked against the
 * task's contract (pure: the env validates with it), turned into typed arrays (in the handler),
 * and run through the candidate and the reference in one lab session.
 *
 * A tensor is described by an explicit list (at most {@link MAX_EXPLICIT} numbers over all
 * inputs), `{ "fill": v }`, `{ "cycle": [v0, v1, …] }` (repeated to the length) or
 * `{ "uniform": [lo, hi], "seed": s }` (seeded uniform values rounded to the dtype). Every value
 * must lie inside the input's range; integers for i32/u32; float32 values are rounded first, and
 * subnormals are allowed only where the contract says so.
 */
import { Rng } from '../../../src/core/rng';
import type { KernelArray, KernelLab } from '../../../src/core/sandbox';
import type { Dims, InputSpec, KernelTask, TypedArrayOf } from '../tasks/task';
import { failedCallCode, judgeCall } from './call-check';
import type { MeasureCode } from './codes';
import { dimsProblem, numel, outputNames, outputSpecs } from './inputs';
import { prepareKernel } from './instrument';
import type { AttackResult } from './types';

/** Most explicit numbers in one attack input (larger tensors use fill, cycle or uniform). */
export const MAX_EXPLICIT = 4096;
/** Longest cycle. */
export const MAX_CYCLE = 1024;

/** How one input tensor is filled. */
export type TensorFill = number[] | { fill: number } | { cycle: number[] } | { uniform: [number, number]; seed?: number };

/** An attacker's input: dims and one fill per input tensor. */
export interface AttackInput {
  dims: Dims;
  inputs: Record<string, TensorFill>;
}

const MIN_NORMAL_F32 = 2 ** -126;

/** Why `v` is not a value of `spec` inside the contract, or null. */
export function valueProblem(spec: InputSpec, v: unknown): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v)) return `${typeof v === 'number' ? v : JSON.stringify(v)} is not a finite number`;
  const [lo, hi] = spec.range;
  if (spec.dtype !== 'f32') {
    if (!Number.isInteger(v)) return `${v} is not an integer (${spec.dtype})`;
    if (v < lo || v > hi) return `${v} is outside the range [${lo}, ${hi}]`;
    return null;
  }
  const f = Math.fround(v);
  if (!(f >= lo && f <= hi)) return `${v} (as float32 ${f}) is outside the range [${lo}, ${hi}]`;
  if (f !== 0 && Math.abs(f) < MIN_NORMAL_F32 && !spec.subnormals) return `${v} is subnormal, which the contract excludes for ${spec.name}`;
  return null;
}

/** Why `input` is not an attack inside the task's contract (naming the field), or null. */
export function attackProblem(task: KernelTask, input: unknown): string | null {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return 'an attack is an object {"dims": {...}, "inputs": {...}}';
  const a = input as Record<string, unknown>;
  const extra = Object.keys(a).filter((k) => k !== 'dims' && k !== 'inputs');
  if (extra.length) return `the attack has unknown field "${extra[0]}" (only dims and inputs)`;
  const dp = dimsProblem(task, a.dims);
  if (dp) return dp;
  const dims = a.dims as Dims;
  const inputs = a.inputs;
  if (!inputs || typeof inputs !== 'object' || Array.isArray(inputs)) return 'inputs must be an object with one fill per input tensor';
  const given = inputs as Record<string, unknown>;
  for (const name of Object.keys(given)) if (!task.inputs.some((s) => s.name === name)) return `inputs has unknown tensor "${name}" (${task.id} takes ${task.inputs.map((s) => s.name).join(', ')})`;
  let explicit = 0;
  for (const spec of task.inputs) {
    const f = given[spec.name];
    const where = `inputs.${spec.name}`;
    if (f === undefined) return `${where} is missing`;
    const n = numel(spec.shape, dims);
    if (Array.isArray(f)) {
      if (f.length !== n) return `${where} has ${f.length} values; the shape ${JSON.stringify(spec.shape)} needs ${n}`;
      explicit += n;
      if (explicit > MAX_EXPLICIT) return `at most ${MAX_EXPLICIT} explicit values in all (use {"fill"}, {"cycle"} or {"uniform"} for large tensors)`;
      for (let i = 0; i < f.length; i++) {
        const p = valueProblem(spec, f[i]);
        if (p) return `${where}[${i}]: ${p}`;
      }
      continue;
    }
    if (!f || typeof f !== 'object') return `${where} must be a list of values, {"fill"}, {"cycle"} or {"uniform"}`;
    const o = f as Record<string, unknown>;
    const keys = Object.keys(o);
    if ('fill' in o) {
      if (keys.length !== 1) return `${where}: {"fill"} takes no other field`;
      const p = valueProblem(spec, o.fill);
      if (p) return `${where}.fill: ${p}`;
    } else if ('cycle' in o) {
      if (keys.length !== 1) return `${where}: {"cycle"} takes no other field`;
      if (!Array.isArray(o.cycle) || o.cycle.length === 0 || o.cycle.length > MAX_CYCLE) return `${where}.cycle must be a list of 1 to ${MAX_CYCLE} values`;
      for (let i = 0; i < o.cycle.length; i++) {
        const p = valueProblem(spec, o.cycle[i]);
        if (p) return `${where}.cycle[${i}]: ${p}`;
      }
    } else if ('uniform' in o) {
      if (keys.some((k) => k !== 'uniform' && k !== 'seed')) return `${where}: {"uniform"} takes only "seed" besides`;
      const u = o.uniform;
      if (!Array.isArray(u) || u.length !== 2) return `${where}.uniform must be [lo, hi]`;
      for (const [i, v] of u.entries()) {
        const p = valueProblem(spec, v);
        if (p) return `${where}.uniform[${i}]: ${p}`;
      }
      if (!((u[0] as number) <= (u[1] as number))) return `${where}.uniform needs lo ≤ hi`;
      if (o.seed !== undefined && !(typeof o.seed === 'number' && Number.isInteger(o.seed))) return `${where}.seed must be an integer`;
    } else return `${where} must be a list of values, {"fill"}, {"cycle"} or {"uniform"}`;
  }
  return null;
}

const CTOR = { f32: Float32Array, i32: Int32Array, u32: Uint32Array } as const;

/** The typed arrays of a valid attack (validate with {@link attackProblem} first). */
export function materializeAttack(task: KernelTask, a: AttackInput): Record<string, TypedArrayOf> {
  const out: Record<string, TypedArrayOf> = {};
  for (const spec of task.inputs) {
    const n = numel(spec.shape, a.dims);
    const t = new CTOR[spec.dtype](n);
    const f = a.inputs[spec.name];
    if (Array.isArray(f)) t.set(f);
    else if ('fill' in f) t.fill(f.fill);
    else if ('cycle' in f) for (let i = 0; i < n; i++) t[i] = f.cycle[i % f.cycle.length];
    else {
      const rng = Rng.fromSeed(f.seed ?? 0);
      const [lo, hi] = f.uniform;
      for (let i = 0; i < n; i++) {
        // Clamped before rounding (lo + (hi − lo)·r can round past hi, never below lo). Rounding is
        // monotone, so an f32 value lies in [fround(lo), fround(hi)], both checked inside the
        // contract; a subnormal between them means 0 lies there too, so flushing keeps it inside.
        let v = Math.min(hi, lo + (hi - lo) * rng.next());
        if (spec.dtype !== 'f32') v = Math.floor(v + 0.5);
        else {
          v = Math.fround(v);
          if (!spec.subnormals && v !== 0 && Math.abs(v) < MIN_NORMAL_F32) v = 0;
        }
        t[i] = v;
      }
    }
    out[spec.name] = t;
  }
  return out;
}

function allFinite(outputs: Record<string, KernelArray> | undefined, names: readonly string[]): boolean {
  for (const n of names) {
    const t = outputs?.[n];
    if (!t) return false;
    for (let i = 0; i < t.length; i++) if (!Number.isFinite(t[i])) return false;
  }
  return true;
}

/** Runs the candidate (kernel source) and the reference on a valid attack input, in one lab session. */
export async function runAttack(lab: KernelLab, task: KernelTask, candidate: string, input: AttackInput, o: { timeMs?: number; memoryMb?: number; signal?: AbortSignal } = {}): Promise<AttackResult> {
  const names = outputNames(task);
  const none = (code: MeasureCode, message: string, referenceCode: MeasureCode = 'ok'): AttackResult => ({ code, message, referenceFinite: false, referenceCode, check: null });
  const cand = prepareKernel(candidate, names);
  if (!cand.ok) return none(cand.code, cand.message);
  const ref = prepareKernel(task.reference, names);
  if (!ref.ok) return none('sandbox-error', ref.message, 'sandbox-error');
  const session = await lab.open({ reference: ref.source, candidate: cand.source }, { timeMs: o.timeMs, memoryMb: o.memoryMb }, o.signal);
  try {
    if (session.status.reference?.code !== 'ok') return none('sandbox-error', 'the reference does not load', 'sandbox-error');
    const cs = session.status.candidate;
    if (cs?.code !== 'ok') return none(cs?.code === 'syntax-error' || cs?.code === 'timeout' || cs?.code === 'memory-limit' ? cs.code : 'runtime-error', cs?.message ?? 'the candidate does not load');
    const inputs = materializeAttack(task, input);
    const specs = outputSpecs(task, input.dims);
    const r = await session.call('reference', inputs, input.dims, specs);
    const c = await session.call('candidate', inputs, input.dims, specs);
    if (r.code !== 'ok') {
      const f = failedCallCode(r);
      return none(failedCallCode(c)?.code ?? 'ok', `the reference fails on this input (${r.code}${r.message ? `: ${r.message}` : ''})`, f?.code ?? 'runtime-error');
    }
    const check = judgeCall(c, r, { kind: 'attack', dims: input.dims, names, tolerance: task.tolerance, seen: new Set(), afterCorrectness: false });
    return { code: check.code, ...(check.message ? { message: check.message } : {}), referenceFinite: allFinite(r.outputs, names), referenceCode: 'ok', check };
  } finally {
    await session.close();
  }
}
