/** Text form of a kernel-speedup-v1 observation: what a language-model agent reads. */
import { CODE_MEANING } from './measure/codes';
import { shapeText } from './measure/inputs';
import type { Measurement } from './measure/types';
import type { KernelObservation } from './types';

const j = (v: unknown) => JSON.stringify(v);

/** One line of a measurement. */
export function measurementLine(m: Measurement): string {
  if (!m.correct) {
    const bad = m.trials.find((t) => t.code !== 'ok');
    const where = bad ? ` on ${bad.kind} shape ${shapeText(bad.dims)}${bad.first ? ` (${bad.first.output}[${bad.first.index}] = ${bad.first.actual}, expected ${bad.first.expected})` : ''}` : '';
    return `${m.code}: ${CODE_MEANING[m.code]}${where}${m.message ? ` — ${m.message}` : ''}`;
  }
  if (!m.timing) return 'correct (not timed)';
  const t = m.timing;
  const flags = m.flags.length ? ` [${m.flags.join('; ')}]` : '';
  return `correct; speedup ${t.speedup.toFixed(2)}x (95% interval ${t.lo.toFixed(2)}–${t.hi.toFixed(2)}), reference ${(t.referenceNs / 1e6).toFixed(3)} ms vs ${(t.candidateNs / 1e6).toFixed(3)} ms over ${t.trials} trials${flags}`;
}

/** The observation as text: the contract, the reference, every revision with its measurement, the attack, the ask. */
export function renderObservation(o: KernelObservation): string {
  const t = o.task;
  const lines: string[] = [];
  lines.push(`Kernel task ${t.id}: ${t.title}. You are ${o.role ?? 'watching'}. Timing shape: ${shapeText(o.shape)}.`);
  lines.push('', t.description);
  lines.push('', `Inputs: ${t.inputs.map((i) => `${i.name} ${i.dtype}[${i.shape.join(',')}] in [${i.range[0]}, ${i.range[1]}]${i.subnormals ? ' (subnormals allowed)' : ''}`).join('; ')}.`);
  lines.push(`Outputs: ${t.outputs.map((x) => `${x.name} ${x.dtype}[${x.shape.join(',')}]`).join('; ')}. Tolerance: atol ${t.tolerance.atol}, rtol ${t.tolerance.rtol}.`);
  lines.push(`Dimensions: ${Object.entries(t.dims).map(([k, r]) => `${k} in [${r.min}, ${r.max}]`).join(', ')}.`);
  if (t.expertSpeedup !== null) lines.push(`The expert kernel's speedup here: ${t.expertSpeedup.toFixed(2)}x.`);
  if (o.candidates !== 'code') lines.push('', `Schedule knobs (index = mixed radix of the option indices, first knob most significant): ${t.knobs.map((k) => `${k.name} ∈ {${k.options.join(', ')}}`).join('; ')}.`);
  lines.push('', 'Reference:', '```js', t.reference, '```');
  o.revisions.forEach((r, i) => {
    lines.push('', `Revision ${i + 1} (${r.candidate.kind}${r.candidate.index !== undefined ? ` #${r.candidate.index} ${j(r.candidate.schedule)}` : ''}):`);
    if (r.candidate.kind !== 'schedule') lines.push('```' + (r.candidate.kind === 'js' ? 'js' : 'assemblyscript'), r.candidate.source, '```');
    if (r.prediction) lines.push(`  predicted: ${j(r.prediction.map((p) => Math.round(p * 100) / 100))}`);
    if (r.measurement) lines.push(`  measured: ${measurementLine(r.measurement)}; reward ${r.reward}`);
  });
  if (o.attack) {
    lines.push('', `Attack: ${j(o.attack.input).slice(0, 400)} — ${o.attack.valid ? 'inside the contract' : `INVALID: ${o.attack.reason}`}${o.attack.result ? `; the kernel: ${o.attack.result.code}` : ''}${o.attack.score !== undefined ? `; score ${o.attack.score}` : ''}`);
  }
  if (o.legal) lines.push('', `Legal schedule indices: ${o.legal.join(', ')}.`);
  if (o.returns) lines.push('', `Episode over: ${o.outcome}; returns ${j(o.returns)}.`);
  if (o.ask) lines.push('', o.ask);
  return lines.join('\n');
}
