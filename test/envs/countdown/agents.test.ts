import { recoverRate } from '../../../envs/countdown/agents/difficulty-targeting';
import { defaultRegistry, make } from '../../../app/catalog';
import { agentsForSeats } from '../../../app/cli/options';
import { runMatch, type MatchResult } from '../../../src/match/runner';

type Summary = {
  numbers: number[];
  target: number;
  verdict: { reachable: boolean; distance: number | null };
  attempts: { score: number; correct: boolean; status: string }[];
  predictions: boolean[] | null;
  unsolvable: boolean;
};

async function series(params: Record<string, unknown>, agents: string, episodes: number, seed = 100): Promise<MatchResult[]> {
  const { env, params: p } = make('countdown-v1', params);
  const seats = env.seats(env.init(p, seed)).length;
  const players = await agentsForSeats(defaultRegistry, env, p, agents.split(/,(?![^{]*})/), seats, seed);
  const out: MatchResult[] = [];
  for (let k = 0; k < episodes; k++) {
    const r = await runMatch({ env, params: p, seed: seed + k, agents: players });
    expect(r.code).toBe('ok');
    expect(r.faults).toEqual([]);
    out.push(r);
  }
  return out;
}

const ukScore = (d: number) => (d === 0 ? 10 : d <= 5 ? 7 : d <= 10 ? 5 : 0);

describe('exact-solver', () => {
  test.each(['text', 'steps'])('uk, %s answers: always the best score the puzzle allows', async (answer) => {
    for (const r of await series({}, `exact-solver:{"answer":"${answer}"}`, 40)) {
      const s = r.summary as Summary;
      expect(s.attempts[0].score).toBe(ukScore(s.verdict.distance!));
      expect(s.attempts[0].correct).toBe(s.verdict.reachable);
    }
  });

  test.each([
    ['tinyzero', 'text'],
    ['tinyzero', 'steps'],
    ['reasoning-gym', 'text'],
    ['reasoning-gym', 'steps'],
  ])('%s, %s answers: solves every (solvable-by-construction) puzzle', async (rules, answer) => {
    for (const r of await series({ rules, answerTag: answer === 'text' }, `exact-solver:{"answer":"${answer}"}`, 12)) {
      expect((r.summary as Summary).attempts[0]).toMatchObject({ correct: true, score: 1 });
    }
  });

  test('as evaluator it agrees with the verifier on every attempt', async () => {
    const results = await series({ roles: 'solver-evaluator', attempts: 4, rules: 'tinyzero' }, 'random,exact-solver', 10);
    for (const r of results) expect(r.returns[1]).toBe(1);
    const steps = await series({ roles: 'solver-evaluator', attempts: 3 }, 'greedy:{"answer":"steps"},exact-solver:{"answer":"steps"}', 5);
    for (const r of steps) expect(r.returns[1]).toBe(1);
  });
});

describe('greedy', () => {
  test('plays legally in both action forms and uses every number under all-numbers rules', async () => {
    for (const answer of ['text', 'steps']) {
      const agent = `greedy:{"answer":"${answer}"}`;
      for (const r of await series({ rules: 'reasoning-gym' }, agent, 8)) expect((r.summary as Summary).attempts[0].status).toBe('ok');
      const uk = await series({}, agent, 20);
      const mean = uk.reduce((s, r) => s + r.returns[0], 0) / uk.length;
      expect(mean).toBeGreaterThan(1); // clearly better than random, clearly below the exact solver
      expect(mean).toBeLessThan(9.5);
    }
  });

  test('text and steps play agree (same greedy line)', async () => {
    const text = await series({}, 'greedy', 15);
    const steps = await series({}, 'greedy:{"answer":"steps"}', 15);
    expect(steps.map((r) => r.returns[0])).toEqual(text.map((r) => r.returns[0]));
  });
});

describe('challengers', () => {
  test.each([
    ['uk', 'text'],
    ['uk', 'steps'],
    ['tinyzero', 'steps'],
    ['reasoning-gym', 'text'],
  ])('random-valid proposes solvable in-contract puzzles (%s, %s)', async (rules, answer) => {
    const results = await series({ rules, roles: 'challenger-solver', attempts: 2 }, `random-valid:{"answer":"${answer}"},greedy`, 10);
    for (const r of results) expect((r.summary as Summary).unsolvable).toBe(false);
  });

  test('difficulty-targeting earns more challenger reward than random-valid against a noisy solver', async () => {
    const params = { rules: 'tinyzero', roles: 'challenger-solver', attempts: 8 };
    const mean = (rs: MatchResult[]) => rs.reduce((s, r) => s + r.returns[0], 0) / rs.length;
    const random = await series(params, 'random-valid,greedy:{"epsilon":0.3}', 120, 7);
    const targeted = await series(params, 'difficulty-targeting,greedy:{"epsilon":0.3}', 120, 7);
    expect(mean(targeted)).toBeGreaterThan(mean(random) + 0.05);
  });

  test('the solve rate is recovered from the returns', () => {
    expect(recoverRate(1, 5, 'uk')).toBe(0.5);
    expect(recoverRate(0.5, 7.5, 'uk')).toBe(0.75);
    expect(recoverRate(0.5, 2.5, 'uk')).toBe(0.25);
    expect(recoverRate(0, 1, 'tinyzero')).toBe(1);
    expect(recoverRate(0, 0.1, 'tinyzero')).toBe(0);
    expect(recoverRate(-1, 0, 'uk')).toBeNull();
  });
});
