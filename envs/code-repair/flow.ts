/**
 * The episode of code-repair-v1: init, step (seat actions and effect results), returns, outcome.
 *
 * fixaudit:  [generate: code → (predict) →] run-code → { audit → run-audit → code → (predict) → run-code } × rounds
 *            (repair starts at run-code with the buggy variant; the episode ends early once a
 *            revision passes every hidden test)
 * cure:      cure-code × k → cure-test × k → cure-judge
 */
import { EFFECT_SEAT, type EnvEvent, type StepResult, type StepReward } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import { integerSemantics, outputMatches } from '../../src/core/output-match';
import type { Params } from '../../src/core/params';
import { Rng, type Seed } from '../../src/core/rng';
import type { CodeRunResult, TestOutcome } from '../../src/core/sandbox';
import { readProbability, readProgram, readTests } from './actions';
import { resolveConfig } from './config';
import { auditScore, brierReward, cureTestReward, fixerReturn, mean, zscores } from './rewards';
import { drawTask } from './tasks-of';
import type { AuditTest, CodeRepairState, CureVerdict, Role, RunsResult } from './types';

/** The seat that holds `role` (-1 when none). */
export function seatOf(s: CodeRepairState, role: Role): number {
  return s.cfg.seats.indexOf(role);
}

export function initState(params: Params, seed: Seed): CodeRepairState {
  const cfg = resolveConfig(params);
  const { task, variant } = drawTask(params, Rng.fromSeed(seed));
  const repair = cfg.mode === 'repair';
  return {
    cfg,
    task,
    variant,
    phase: cfg.reward === 'cure' ? 'cure-code' : repair ? 'run-code' : 'code',
    round: 0,
    revisions: repair ? [task.buggy![variant].source] : [],
    runs: [],
    audit: [],
    proposed: [],
    predictions: [],
    programs: [],
    tests: [],
    cure: null,
    solved: false,
  };
}

/** Seats to act now (none in effect phases and at the end). */
export function actingSeats(s: CodeRepairState): number[] {
  switch (s.phase) {
    case 'code':
    case 'cure-code':
      return [seatOf(s, 'coder')];
    case 'audit':
    case 'cure-test':
      return [seatOf(s, 'auditor')];
    case 'predict':
      return [seatOf(s, 'evaluator')];
    default:
      return [];
  }
}

function hiddenCounts(r: CodeRunResult): { code: CodeRunResult['code']; passed: number; total: number } {
  return { code: r.code, passed: r.passed, total: r.total };
}

/** After a revision: the evaluator predicts, or the candidate runs. */
function afterCode(s: CodeRepairState): CodeRepairState['phase'] {
  return seatOf(s, 'evaluator') >= 0 ? 'predict' : 'run-code';
}

function stepCandidateRun(s: CodeRepairState, r: RunsResult, events: EnvEvent[]): StepResult<CodeRepairState> {
  const [pub, hidden, audit] = r.runs;
  const revision = s.revisions.length - 1;
  const run = { revision, public: pub, hidden: hiddenCounts(hidden), audit: audit.tests };
  const solved = hidden.code === 'ok' && hidden.passed === hidden.total;
  const rewards: StepReward[] = [];
  const predictions = s.predictions.map((p) => (p.revision === revision && p.passed === undefined ? { ...p, passed: solved } : p));
  const ev = seatOf(s, 'evaluator');
  for (const p of predictions) if (p.revision === revision && ev >= 0) rewards.push({ seat: ev, value: brierReward(p.p, solved) });
  const over = solved || s.round >= s.cfg.rounds;
  events.push({
    type: 'run',
    visibility: 'public',
    data: { revision, public: { code: pub.code, passed: pub.passed, total: pub.total, tests: pub.tests as unknown as JsonValue }, hidden: run.hidden, audit: { passed: audit.passed, total: audit.total }, solved },
  });
  const next: CodeRepairState = { ...s, runs: [...s.runs, run], predictions, solved, phase: over ? 'done' : 'audit' };
  if (over) events.push(endEvent(next));
  return { state: next, events, ...(rewards.length ? { rewards } : {}) };
}

function stepAuditRun(s: CodeRepairState, r: RunsResult, events: EnvEvent[]): StepResult<CodeRepairState> {
  const [ref, cand] = r.runs;
  const judged: AuditTest[] = s.proposed.map((t, i) => {
    const refOut = ref.tests[i];
    if (refOut.code !== 'ok') {
      const reason = t.expected !== undefined && refOut.code === 'wrong-answer' ? `the reference returns ${JSON.stringify(refOut.actual)}, not the expected value` : `the reference fails on this input (${refOut.code}${refOut.message ? `: ${refOut.message}` : ''})`;
      return { ...t, valid: false, reason, score: auditScore(false, true) };
    }
    const expected = t.expected !== undefined ? t.expected : (refOut.actual ?? null);
    const c = cand.tests[i];
    const passed = c.code === 'ok' && outputMatches(c.actual, expected, integerSemantics(s.task.language));
    const outcome: TestOutcome = { code: passed ? 'ok' : c.code === 'ok' ? 'wrong-answer' : c.code, ...(c.actual !== undefined ? { actual: c.actual } : {}), ...(c.message ? { message: c.message } : {}) };
    return { ...t, valid: true, reference: expected, outcome, score: auditScore(true, passed) };
  });
  const value = mean(judged.map((t) => t.score!));
  events.push({ type: 'audit-results', visibility: 'public', data: { round: s.round, tests: judged as unknown as JsonValue } });
  return { state: { ...s, audit: [...s.audit, ...judged], proposed: [], phase: 'code' }, events, rewards: [{ seat: seatOf(s, 'auditor'), value }] };
}

function stepCure(s: CodeRepairState, r: RunsResult, events: EnvEvent[]): StepResult<CodeRepairState> {
  const k = s.cfg.k;
  const truth = r.runs.slice(0, k);
  const ref = r.runs[k];
  const onTests = r.runs.slice(k + 1);
  const passRates = truth.map((t) => (t.total ? t.passed / t.total : 0));
  const correct = truth.map((t) => t.code === 'ok' && t.passed === t.total);
  const tests: AuditTest[] = s.tests.map((t, j) => {
    const refOut = ref.tests[j];
    const valid = refOut.code === 'ok';
    const expected = t.expected !== undefined ? t.expected : (refOut.actual ?? null);
    return { ...t, valid, ...(valid ? { reference: expected } : { reason: `the reference fails this test (${refOut.code})` }) };
  });
  // A program passes a test when its output equals the test's expected value: the tester's own,
  // else the reference's (an input the reference cannot handle has none, and nobody passes it).
  const expectedOf = (t: AuditTest, j: number): { value: JsonValue } | null =>
    t.expected !== undefined ? { value: t.expected } : ref.tests[j].code === 'ok' ? { value: ref.tests[j].actual ?? null } : null;
  const passes = onTests.map((run) =>
    tests.map((t, j) => {
      const e = expectedOf(t, j);
      return e !== null && run.tests[j].code === 'ok' && outputMatches(run.tests[j].actual, e.value, integerSemantics(s.task.language));
    }),
  );
  const testerRewards = tests.map((t, j) => cureTestReward(passes.map((row) => row[j]), correct, t.valid === true));
  tests.forEach((t, j) => (t.score = testerRewards[j]));
  const cure: CureVerdict = { passRates, passes, correct, tests, coderRewards: passRates, testerRewards };
  const coderTry = s.cfg.zscore ? zscores(passRates) : passRates;
  const testerTry = s.cfg.zscore ? zscores(testerRewards) : testerRewards;
  const coder = seatOf(s, 'coder');
  const tester = seatOf(s, 'auditor');
  const rewards: StepReward[] = [
    ...coderTry.map((value, i) => ({ seat: coder, value, endsTry: true, credits: i })),
    ...testerTry.map((value, j) => ({ seat: tester, value, endsTry: true, credits: k + j })),
  ];
  const next: CodeRepairState = { ...s, tests, cure, solved: correct.some(Boolean), phase: 'done' };
  events.push({ type: 'cure-verdict', visibility: 'public', data: { programs: s.programs, ...(cure as unknown as { [k: string]: JsonValue }) } });
  events.push(endEvent(next));
  return { state: next, events, rewards };
}

function endEvent(s: CodeRepairState): EnvEvent {
  return { type: 'result', visibility: 'public', data: { solved: s.solved, returns: episodeReturns(s), outcome: episodeOutcome(s) } };
}

/** Applies one validated action (or the effect's result). */
export function stepState(s: CodeRepairState, actions: Record<number, unknown>): StepResult<CodeRepairState> {
  const events: EnvEvent[] = [];
  switch (s.phase) {
    case 'code': {
      const r = readProgram(actions[seatOf(s, 'coder')]);
      if (!r.ok) throw new Error(`code-repair-v1 step: ${r.reason}`);
      const revision = s.revisions.length;
      events.push({ type: 'revision', visibility: 'public', data: { revision, program: r.value } });
      return { state: { ...s, revisions: [...s.revisions, r.value], phase: afterCode(s) }, events };
    }
    case 'predict': {
      const r = readProbability(actions[seatOf(s, 'evaluator')]);
      if (!r.ok) throw new Error(`code-repair-v1 step: ${r.reason}`);
      const revision = s.revisions.length - 1;
      events.push({ type: 'prediction', visibility: 'public', data: { revision, p: r.value } });
      return { state: { ...s, predictions: [...s.predictions, { revision, p: r.value }], phase: 'run-code' }, events };
    }
    case 'audit': {
      const r = readTests(actions[seatOf(s, 'auditor')], s.cfg.testsPerRound);
      if (!r.ok) throw new Error(`code-repair-v1 step: ${r.reason}`);
      const round = s.round + 1;
      const proposed = r.value.map((t) => ({ round, ...t }));
      events.push({ type: 'tests', visibility: 'public', data: { round, tests: proposed as unknown as JsonValue } });
      return { state: { ...s, round, proposed, phase: 'run-audit' }, events };
    }
    case 'cure-code': {
      const r = readProgram(actions[seatOf(s, 'coder')]);
      if (!r.ok) throw new Error(`code-repair-v1 step: ${r.reason}`);
      const programs = [...s.programs, r.value];
      events.push({ type: 'program', visibility: { seat: seatOf(s, 'coder') }, data: { index: programs.length - 1, program: r.value } });
      events.push({ type: 'submitted', visibility: 'public', data: { what: 'program', index: programs.length - 1 } });
      return { state: { ...s, programs, phase: programs.length < s.cfg.k ? 'cure-code' : 'cure-test' }, events };
    }
    case 'cure-test': {
      const r = readTests(actions[seatOf(s, 'auditor')], 1);
      if (!r.ok) throw new Error(`code-repair-v1 step: ${r.reason}`);
      const tests = [...s.tests, { round: 1, ...r.value[0] }];
      events.push({ type: 'test', visibility: { seat: seatOf(s, 'auditor') }, data: { index: tests.length - 1, test: r.value[0] as unknown as JsonValue } });
      events.push({ type: 'submitted', visibility: 'public', data: { what: 'test', index: tests.length - 1 } });
      return { state: { ...s, tests, phase: tests.length < s.cfg.k ? 'cure-test' : 'cure-judge' }, events };
    }
    case 'run-code':
      return stepCandidateRun(s, actions[EFFECT_SEAT] as RunsResult, events);
    case 'run-audit':
      return stepAuditRun(s, actions[EFFECT_SEAT] as RunsResult, events);
    case 'cure-judge':
      return stepCure(s, actions[EFFECT_SEAT] as RunsResult, events);
    case 'done':
      throw new Error('code-repair-v1 step: the episode is over');
  }
}

/**
 * Returns per seat (README: formulas). fixaudit: coder = fixer return of the last run, auditor =
 * mean test score, evaluator = mean Brier reward; cure: coder = mean pass rate, tester = mean test
 * reward. Values so far before the end.
 */
export function episodeReturns(s: CodeRepairState): number[] {
  return s.cfg.seats.map((role) => {
    if (s.cfg.reward === 'cure') {
      if (!s.cure) return 0;
      return role === 'coder' ? mean(s.cure.coderRewards) : mean(s.cure.testerRewards);
    }
    if (role === 'auditor') return mean([...s.audit].map((t) => t.score ?? 0));
    if (role === 'evaluator') return mean(s.predictions.filter((p) => p.passed !== undefined).map((p) => brierReward(p.p, p.passed!)));
    const last = s.runs[s.runs.length - 1];
    if (!last) return 0;
    const failedAudit = last.audit.filter((t) => t.code !== 'ok').length;
    return fixerReturn(last.hidden.passed, last.hidden.total, failedAudit, s.cfg.auditPenalty);
  });
}

/** "solved" (a program passes every hidden test), "unsolved", or "" while running. */
export function episodeOutcome(s: CodeRepairState): string {
  if (s.phase !== 'done') return '';
  return s.solved ? 'solved' : 'unsolved';
}
