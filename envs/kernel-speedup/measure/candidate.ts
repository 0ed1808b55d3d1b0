/**
 * The three kinds of candidate kernel and how each becomes the JavaScript source the lab runs:
 * a schedule of the task's template (rendered), free-form JavaScript (as is), AssemblyScript
 * (compiled in the sandbox, then run through the glue of assemblyscript.ts).
 */
import type { KernelLab } from '../../../src/core/sandbox';
import { isLegalSchedule, scheduleAt } from '../tasks/schedule';
import type { KernelTask } from '../tasks/task';
import { assemblyScriptGlue } from './assemblyscript';
import type { MeasureCode } from './codes';

/** A candidate kernel as JSON (effect requests, state). */
export type Candidate = { kind: 'schedule'; index: number } | { kind: 'js'; source: string } | { kind: 'assemblyscript'; source: string };

/** The JavaScript the lab runs for a candidate, or the code saying why there is none. */
export type CandidateSource = { ok: true; source: string } | { ok: false; code: MeasureCode; message: string };

/** Why `c` is not a candidate (naming the field), or null. */
export function candidateProblem(task: KernelTask, c: unknown): string | null {
  if (!c || typeof c !== 'object') return 'the candidate must be an object with a "kind"';
  const x = c as Record<string, unknown>;
  switch (x.kind) {
    case 'schedule':
      return isLegalSchedule(task, x.index as number) ? null : `candidate.index ${JSON.stringify(x.index)} is not a legal schedule of ${task.id}`;
    case 'js':
    case 'assemblyscript':
      return typeof x.source === 'string' && x.source.trim() ? null : 'candidate.source must be non-empty source text';
    default:
      return `candidate.kind must be "schedule", "js" or "assemblyscript", got ${JSON.stringify(x.kind)}`;
  }
}

/** Compiled AssemblyScript glue by source, per lab (compiling takes a worker for ~0.3–2 s). */
const glueCache = new WeakMap<KernelLab, Map<string, CandidateSource>>();

/** The JavaScript kernel source of `c` (AssemblyScript is compiled with `lab`, cached by source). */
export async function candidateSource(lab: KernelLab, task: KernelTask, c: Candidate, signal?: AbortSignal): Promise<CandidateSource> {
  const problem = candidateProblem(task, c);
  if (problem) return { ok: false, code: 'sandbox-error', message: problem };
  if (c.kind === 'schedule') return { ok: true, source: task.template.render(scheduleAt(task, c.index)) };
  if (c.kind === 'js') return { ok: true, source: c.source };
  if (!lab.compileAssemblyScript) return { ok: false, code: 'sandbox-error', message: 'this lab cannot compile AssemblyScript' };
  let cache = glueCache.get(lab);
  if (!cache) glueCache.set(lab, (cache = new Map()));
  const key = `${task.id}\u0000${c.source}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const compiled = await lab.compileAssemblyScript(c.source, signal);
  const out: CandidateSource =
    compiled.code === 'ok' && compiled.wasm
      ? { ok: true, source: assemblyScriptGlue(task, compiled.wasm) }
      : { ok: false, code: compiled.code === 'compile-error' ? 'compile-error' : compiled.code === 'timeout' ? 'timeout' : 'sandbox-error', message: compiled.message ?? 'the compiler produced no module' };
  if (compiled.code === 'ok' || compiled.code === 'compile-error') {
    if (cache.size >= 64) cache.delete(cache.keys().next().value!);
    cache.set(key, out);
  }
  return out;
}
