import { arena, jsonLines } from './helpers';

const RPS = './examples/rock-paper-scissors.js';

describe('arena CLI', () => {
  test('check passes the example env (exit 0)', () => {
    const r = arena(['check', RPS, '--episodes', '5']);
    expect(r.stdout).toMatch(/rock-paper-scissors-v1: PASS/);
    expect(r.code).toBe(0);
  });

  test.each([
    ['test/fixtures/leaky-env.js', /✗ leak\n\s+.*seat 1's observation changes when only seat 0's private information changes/],
    ['test/fixtures/nondeterministic-env.js', /✗ determinism\n\s+.*init gives different states for the same seed/],
    ['test/fixtures/accepts-illegal-env.js', /✗ legality\n\s+.*illegal action .* was accepted/],
  ])('check fails %s with a clear message (exit 1)', (file, message) => {
    const r = arena(['check', `./${file}`, '--episodes', '10']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/: FAIL/);
    expect(r.stdout).toMatch(message);
  });

  test('play --json prints one line per episode and a summary', () => {
    const r = arena(['play', RPS, '--agents', 'random,counter-last', '--episodes', '4', '--seed', '10', '--json', '--params', '{"rounds":5}']);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(5);
    expect(lines.slice(0, 4).map((l) => l.seed)).toEqual([10, 11, 12, 13]);
    for (const l of lines.slice(0, 4)) {
      expect(Object.keys(l)).toEqual(expect.arrayContaining(['seed', 'returns', 'length', 'outcome', 'summary']));
      expect(l.length).toBe(5);
    }
    const summary = lines[4].summary as { episodes: number; meanReturns: number[]; outcomes: Record<string, number>; meanLength: number };
    expect(summary.episodes).toBe(4);
    expect(summary.meanLength).toBe(5);
    expect(Object.values(summary.outcomes).reduce((a, b) => a + b, 0)).toBe(4);
    const mean0 = lines.slice(0, 4).reduce((s, l) => s + (l.returns as number[])[0], 0) / 4;
    expect(summary.meanReturns[0]).toBeCloseTo(mean0);
    // the same command is reproducible
    expect(arena(['play', RPS, '--agents', 'random,counter-last', '--episodes', '4', '--seed', '10', '--json', '--params', '{"rounds":5}']).stdout).toBe(r.stdout);
  });

  test('replay reports each step and stops at an illegal action with the reason', () => {
    const ok = arena(['replay', RPS, '--params', '{"rounds":2}', '--actions', '[{"0":0,"1":2},{"0":1,"1":1}]', '--json']);
    expect(ok.code).toBe(0);
    const lines = jsonLines(ok.stdout);
    expect(lines[0]).toMatchObject({ step: 0, toAct: [0, 1], actions: [{ seat: 0, action: 0, legal: true }, { seat: 1, action: 2, legal: true }] });
    expect(lines[2]).toMatchObject({ end: { terminal: true, returns: [1, -1], outcome: 'player0' } });

    const bad = arena(['replay', RPS, '--actions', '[{"0":0,"1":5}]']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/seat 1: 5 ILLEGAL: 5 is not a legal action/);
  });

  test('bad input gets a one-line error naming the problem (exit 2)', () => {
    const p = arena(['play', RPS, '--agents', 'random', '--params', '{"rounds":"x"}']);
    expect(p.code).toBe(2);
    expect(p.stderr.trim()).toBe('arena: rock-paper-scissors-v1: param "rounds" must be an integer in [1, 99] (got "x")');
    expect(arena(['play', RPS, '--agents', 'random', '--params', '{oops']).stderr).toMatch(/--params: not valid JSON/);
    expect(arena(['play', RPS, '--agents', 'nobody']).stderr).toMatch(/unknown agent "nobody" for rock-paper-scissors-v1 \(known: .*random/);
    expect(arena(['play', RPS, '--agents', 'random,random,random']).stderr).toMatch(/has 2 seats; give 1 agent \(for all seats\) or 2, not 3/);
    expect(arena(['play', 'no-such-env', '--agents', 'random']).stderr).toMatch(/unknown env "no-such-env"/);
  });

  test('golden records a playthrough that check then replays', () => {
    const g = arena(['golden', RPS, '--seed', '3', '--agents', 'random']);
    expect(g.code).toBe(0);
    const lines = jsonLines(g.stdout);
    expect(lines[0]).toMatchObject({ golden: 1, env: 'rock-paper-scissors-v1', seed: 3 });
    expect(lines).toHaveLength(5);
  });

  test('envs --json lists registered envs with their params', () => {
    const r = arena(['envs', '--json']);
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });
});
