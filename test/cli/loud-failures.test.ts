/**
 * Issue 28, failures are loud: a run in which a seat's every decision failed (an unreachable LLM
 * endpoint) exits non-zero, and the reason ("connection error ...") is in the text output, not
 * only in --json. A seat that merely timed out stays a recorded result (test/cli/watchdog.test.ts).
 */
import { arena, jsonLines } from './helpers';

const UNREACHABLE = 'llm:{"baseURL":"http://127.0.0.1:1/v1","model":"nowhere","retries":0}';

test('an unreachable LLM endpoint: the episode lines say why, and the run exits 1 naming the seat and the reason', () => {
  const r = arena(['play', 'deal-or-no-deal-v1', '--agents', `${UNREACHABLE},fair-split`, '--episodes', '2']);
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^episode 0 seed 0: forfeit returns \[-1,0\] in 0 steps \(forfeit: seat 0 llm:nowhere: connection error \(/m);
  expect(r.stderr).toMatch(/^arena: seat 0 \(llm:nowhere\) failed every decision it was asked \(2 faults, none answered\): connection error \(/m);
  expect(r.stderr).not.toMatch(/\n\s+at /);
});

test('--json: the same exit status and the same line on stderr; stdout stays JSON', () => {
  const r = arena(['play', 'deal-or-no-deal-v1', '--agents', `${UNREACHABLE},fair-split`, '--episodes', '1', '--json']);
  expect(r.code).toBe(1);
  expect(jsonLines(r.stdout)[0]).toMatchObject({ code: 'forfeit', faults: [{ seat: 0, kind: 'error' }] });
  expect(r.stderr).toMatch(/^arena: seat 0 \(llm:nowhere\) failed every decision it was asked \(1 fault, none answered\): connection error/m);
});

test('an agent in a role it cannot play is the same kind of failure', () => {
  const r = arena(['play', 'countdown-v1', '--agents', 'random-valid', '--episodes', '1']);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('(forfeit: seat 0 random-valid: random-valid plays the challenger role only (asked to play solver))');
});
