/**
 * The one projection of code-repair-v1. Every view sees the spec, the public tests and the
 * auditor's tests with their verdicts; never the reference, the hidden tests (only how many the
 * current program passes), the check, or which buggy variant started the episode. CURE's
 * programs and tests are sealed until the verdict: the coder sees its own programs only (each is
 * an independent try, so not even those while writing), the tester its own tests; spectators
 * see submissions as they come.
 */
import type { Viewer } from '../../src/core/visibility';
import { ENV_ID } from './config';
import { actingSeats, episodeOutcome, episodeReturns } from './flow';
import type { CodeRepairObservation, CodeRepairState, PublicTask, Role } from './types';

function publicTask(s: CodeRepairState): PublicTask {
  const t = s.task;
  return {
    id: t.id,
    language: t.language,
    spec: t.spec,
    entry: t.entry,
    signature: t.signature,
    publicTests: t.publicTests,
    generator: t.generator ?? null,
    properties: t.properties ?? [],
    hiddenTests: t.hiddenTests.length + (t.check ? 1 : 0),
  };
}

/** What the seat to act must answer, in words. */
function ask(s: CodeRepairState, role: Role): string {
  const lang = s.task.language === 'js' ? 'JavaScript' : 'Python';
  switch (s.phase) {
    case 'code':
      return s.revisions.length
        ? `Answer with the whole revised ${lang} program defining ${s.task.entry}: make it pass every test (public, the auditor's, and the hidden ones).`
        : `Answer with a ${lang} program defining ${s.task.signature} that meets the spec.`;
    case 'cure-code':
      return `Answer with a ${lang} program defining ${s.task.signature} that meets the spec (program ${s.programs.length + 1} of ${s.cfg.k}; each is judged on its own).`;
    case 'audit':
      return `Answer with up to ${s.cfg.testsPerRound} unit tests as JSON: [{"input": [arguments...], "expected": output}] ("expected" may be left out: the reference's output is used). A test scores +1 when valid and the candidate fails it, 0 when valid and passed, -1 when the reference fails it.`;
    case 'cure-test':
      return `Answer with one unit test as JSON: {"input": [arguments...], "expected": output} (test ${s.tests.length + 1} of ${s.cfg.k}): it should reject wrong programs and pass correct ones.`;
    case 'predict':
      return 'Answer with the probability (0 to 1) that the current program passes every hidden test.';
    default:
      return role ? '' : '';
  }
}

export function observeState(s: CodeRepairState, viewer: Viewer): CodeRepairObservation {
  const done = s.phase === 'done';
  const role: Role | null = typeof viewer === 'number' ? (s.cfg.seats[viewer] ?? null) : null;
  const cure = s.cfg.reward === 'cure';
  const spectator = viewer === 'public' || viewer === 'omniscient';
  let revisions = s.revisions;
  if (cure) revisions = done || spectator ? s.programs : [];
  const tests = cure && !(done || spectator || role === 'auditor') ? [] : cure ? s.tests : s.audit;
  const toAct = actingSeats(s);
  return {
    env: ENV_ID,
    view: viewer,
    role,
    mode: s.cfg.mode,
    reward: s.cfg.reward,
    phase: s.phase,
    round: s.round,
    rounds: s.cfg.rounds,
    task: publicTask(s),
    candidate: cure ? null : (s.revisions[s.revisions.length - 1] ?? null),
    revisions,
    lastRun: s.runs[s.runs.length - 1] ?? null,
    audit: tests,
    predictions: s.predictions,
    cure: done ? s.cure : null,
    ask: typeof viewer === 'number' && toAct.includes(viewer) && role ? ask(s, role) : null,
    returns: done ? episodeReturns(s) : null,
    outcome: episodeOutcome(s),
  };
}
