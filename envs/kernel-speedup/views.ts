/** How candidates and tasks are shown in events and observations (never the expert's source). */
import { assemblyScriptSignature } from './measure/assemblyscript';
import type { Candidate } from './measure/candidate';
import { expertCeiling, tableShape } from './table';
import { scheduleAt, scheduleCount } from './tasks/schedule';
import type { KernelTask } from './tasks/task';
import type { CandidateView, KernelState, PublicTask } from './types';

/** A candidate as shown: schedules with their knobs and rendered source; code as written. */
export function candidateView(task: KernelTask, c: Candidate): CandidateView {
  if (c.kind === 'schedule') {
    const schedule = scheduleAt(task, c.index);
    return { kind: 'schedule', index: c.index, schedule, source: task.template.render(schedule) };
  }
  return { kind: c.kind, source: c.source };
}

/** The task as every seat sees it, with the recorded expert speedup for the episode's shape when known. */
export function publicTask(task: KernelTask, s: KernelState): PublicTask {
  const row = s.cfg.shapes === 'timing' ? tableShape(task.id, s.shapeIndex) : null;
  return {
    id: task.id,
    title: task.title,
    description: task.description,
    dims: { ...task.dims },
    inputs: task.inputs.map((i) => ({ ...i, shape: [...i.shape], range: [i.range[0], i.range[1]] as [number, number] })),
    outputs: task.outputs.map((o) => ({ ...o, shape: [...o.shape] })),
    tolerance: { ...task.tolerance },
    edgeShapes: task.edgeShapes.map((d) => ({ ...d })),
    knobs: task.template.knobs.map((k) => ({ name: k.name, options: [...k.options] })),
    schedules: scheduleCount(task),
    reference: task.reference,
    assemblyScript: assemblyScriptSignature(task),
    expertSpeedup: row ? row.expert.speedup : expertCeiling(task.id),
  };
}
