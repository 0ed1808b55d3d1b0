/** Text form of a code-repair-v1 observation: what a language-model agent reads. */
import type { TestOutcome } from '../../src/core/sandbox';
import type { AuditTest, CodeRepairObservation } from './types';

const j = (v: unknown) => JSON.stringify(v);

function outcome(o: TestOutcome | undefined): string {
  if (!o) return 'not run';
  if (o.code === 'ok') return 'pass';
  return `${o.code}${o.actual !== undefined ? ` (got ${j(o.actual)})` : ''}${o.message ? `: ${o.message}` : ''}`;
}

function auditLine(t: AuditTest): string {
  if (t.valid === undefined) return `  round ${t.round}: input ${j(t.input)}${t.expected !== undefined ? ` expected ${j(t.expected)}` : ''} (not run yet)`;
  if (!t.valid) return `  round ${t.round}: input ${j(t.input)} INVALID: ${t.reason}`;
  return `  round ${t.round}: input ${j(t.input)} expected ${j(t.reference)} -> ${outcome(t.outcome)}`;
}

export function renderObservation(o: CodeRepairObservation): string {
  const lang = o.task.language === 'js' ? 'javascript' : 'python';
  const lines: string[] = [];
  lines.push(`Task ${o.task.id} (${o.task.language}, ${o.mode} mode, ${o.reward} rewards). You are ${o.role ?? 'watching'}.`);
  lines.push('', 'Spec:', o.task.spec.trim(), '', `Signature: ${o.task.signature}`);
  if (o.task.publicTests.length) {
    lines.push('', 'Public tests (arguments -> expected):');
    o.task.publicTests.forEach((t, i) => {
      const res = o.lastRun?.public.tests[i];
      const want = 'expected' in t ? j(t.expected) : `property "${t.property}"`;
      lines.push(`  ${j(t.input)} -> ${want}${res ? `   [current program: ${outcome(res)}]` : ''}`);
    });
  }
  if (o.task.properties.length) lines.push('', 'Properties every correct output has:', ...o.task.properties.map((p) => `  ${p.name}: ${p.description}`));
  if (o.candidate !== null) lines.push('', 'Current program:', '```' + lang, o.candidate, '```');
  if (o.lastRun) lines.push('', `Hidden tests: the current program passes ${o.lastRun.hidden.passed} of ${o.lastRun.hidden.total}.`);
  if (o.audit.length) lines.push('', "Auditor's tests:", ...o.audit.map(auditLine));
  if (o.returns) lines.push('', `Episode over: ${o.outcome}; returns ${j(o.returns)}.`);
  if (o.ask) lines.push('', o.ask);
  return lines.join('\n');
}
