import { arena, jsonLines } from '../../cli/helpers';
import { bruteUk } from './brute-force';

// The CLI runs the compiled dist/ (built by `npm ci` / `npm run build`).


type Line = {
  episode: number;
  summary: {
    numbers: number[];
    target: number;
    verdict: { reachable: boolean; value: number; distance: number; expression: string; nodes: number };
    attempts: { answer: string; score: number; correct: boolean }[];
  };
};

describe('arena play countdown-v1 (CLI)', () => {
  test('--agents exact-solver --episodes 1000 --json agrees with an independent brute-force count', () => {
    const r = arena(['play', 'countdown-v1', '--agents', 'exact-solver', '--episodes', '1000', '--json'], { timeout: 180_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(1001);
    const episodes = lines.slice(0, 1000) as unknown as Line[];
    let bruteReachable = 0;
    let reachable = 0;
    let solved = 0;
    const mismatches: string[] = [];
    for (const { episode, summary: s } of episodes) {
      // each line carries the puzzle, each answer with its score, and the exact solver's verdict
      expect(s.numbers).toHaveLength(6);
      expect(s.target).toBeGreaterThanOrEqual(100);
      expect(s.attempts).toHaveLength(1);
      expect(typeof s.attempts[0].answer).toBe('string');
      expect(typeof s.verdict.expression).toBe('string');
      const d = bruteUk(s.numbers, s.target);
      if (d === 0) bruteReachable++;
      if (s.verdict.reachable) reachable++;
      if (s.attempts[0].correct && s.attempts[0].score === 10) solved++;
      if (d !== s.verdict.distance) mismatches.push(`episode ${episode}: ${s.numbers.join(' ')} -> ${s.target}: brute force ${d}, solver ${s.verdict.distance}`);
    }
    expect(mismatches).toEqual([]);
    expect(reachable).toBe(bruteReachable);
    expect(solved).toBe(bruteReachable);
    const summary = (lines[1000] as { summary: { episodes: number; env: { reachableByExactSolver: number; solveRate: number } } }).summary;
    expect(summary.episodes).toBe(1000);
    expect(summary.env.reachableByExactSolver).toBe(bruteReachable);
    expect(summary.env.solveRate).toBeCloseTo(bruteReachable / 1000);
    // random television draws: most but not all are solvable
    expect(bruteReachable).toBeGreaterThan(800);
    expect(bruteReachable).toBeLessThan(1000);
  });

  test('arena check passes for solver-only and full challenger setups', () => {
    for (const params of ['{}', '{"roles":"challenger-solver-evaluator","rules":"tinyzero","attempts":4}']) {
      const r = arena(['check', 'countdown-v1', '--params', params, '--episodes', '10']);
      expect(r.stdout).toMatch(/countdown-v1: PASS/);
      expect(r.code).toBe(0);
    }
  });

  test('bad params and out-of-contract proposals get clear messages', () => {
    const bad = arena(['play', 'countdown-v1', '--agents', 'random', '--params', '{"rules":"us"}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('arena: countdown-v1: param "rules" must be one of "uk", "tinyzero", "reasoning-gym" (got "us")');
    const replay = arena(['replay', 'countdown-v1', '--params', '{"roles":"challenger-solver"}', '--actions', '[{"0":{"numbers":[1,2,3],"target":500}}]']);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/the contract asks for 6 numbers, got 3/);
  });
});
