/** Text form of a code-repair-v1 observation: what a language-model agent reads. */
import type { JsonObject } from '../../src/core/json';
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

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const ratio = (x: unknown): string => {
  const r = x as { passed?: unknown; total?: unknown } | null;
  return r && typeof r.passed === 'number' && typeof r.total === 'number' ? `${r.passed}/${r.total}` : '?';
};

/**
 * The words for one code-repair-v1 step event (`name` and `data` as `step` emitted them): the
 * revisions, predictions, tests proposed, the runs' results and the end. Null for a name it
 * does not know.
 */
export function describeEnvEvent(name: string, data: JsonObject): string | null {
  switch (name) {
    case 'revision':
      return `Revision ${String(data.revision)} of the program (${count(String(data.program ?? '').split('\n').length, 'line')}).`;
    case 'prediction':
      return `Prediction: revision ${String(data.revision)} passes every hidden test with probability ${String(data.p)}.`;
    case 'tests': {
      const tests = Array.isArray(data.tests) ? (data.tests as { input?: unknown }[]) : [];
      return `Round ${String(data.round)}: ${count(tests.length, 'test')} proposed (inputs ${tests.map((t) => j(t.input)).join(', ')}).`;
    }
    case 'program':
      return `Program ${String(data.index)} written.`;
    case 'test':
      return `Test ${String(data.index)} written: input ${j((data.test as { input?: unknown } | null)?.input)}.`;
    case 'submitted':
      return `A ${String(data.what)} was submitted (#${String(data.index)}).`;
    case 'run':
      return `Revision ${String(data.revision)} run: public tests ${ratio(data.public)}, hidden tests ${ratio(data.hidden)}, auditor's tests ${ratio(data.audit)}${data.solved ? ' (solved)' : ''}.`;
    case 'audit-results': {
      const tests = Array.isArray(data.tests) ? (data.tests as unknown as AuditTest[]) : [];
      const valid = tests.filter((t) => t.valid);
      return `Round ${String(data.round)} tests judged: ${valid.length} valid (${valid.filter((t) => t.outcome?.code !== 'ok').length} failed by the program), ${tests.length - valid.length} invalid.`;
    }
    case 'cure-verdict':
      return `CURE verdict: program pass rates ${(Array.isArray(data.passRates) ? data.passRates : []).map((x) => String(Math.round(Number(x) * 100) / 100)).join(', ')}.`;
    case 'result':
      return `Result: ${String(data.outcome)}; returns ${j(data.returns)}.`;
    default:
      return null;
  }
}

/** The rules in force, in words (from any viewer's observation). */
export function rulesText(o: CodeRepairObservation): string {
  const lang = o.task.language === 'js' ? 'JavaScript' : 'Python';
  const what = o.mode === 'repair' ? 'repairs a buggy program' : 'writes a program from the spec';
  const scoring =
    o.reward === 'cure'
      ? 'CURE rewards: each program by its pass rate on the hidden tests, each test by how well it separates correct programs from wrong ones.'
      : `FixAudit rewards: the coder scores when every hidden test passes; the auditor scores +1 for a valid test the program fails, 0 for one it passes, −1 for an invalid test (one the reference solution fails), over ${count(o.rounds, 'round')}.`;
  return `Code repair, task ${o.task.id} in ${lang}: the coder ${what}; it is run in a sandbox on ${count(o.task.publicTests.length, 'public test')} and ${count(o.task.hiddenTests, 'hidden test')}. ${scoring}`;
}
