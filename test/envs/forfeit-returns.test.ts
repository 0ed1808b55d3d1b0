/**
 * Faults cost the faulty seat only (issue 23): what each built-in env does when a seat forfeits
 * (the table in docs/architecture.md, "Forfeits"). One seat plays legally for a while, then
 * answers garbage; the others keep what they had earned. Effects are answered by the envs' own
 * sampled results (no sandbox).
 */
import type { Agent } from '../../src/core/agent';
import type { EffectHandlers } from '../../src/core/effects';
import type { Env } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import { defaultForfeitReturns } from '../../src/core/forfeit';
import { Rng } from '../../src/core/rng';
import { createRegistry } from '../../app/catalog';
import { runMatch } from '../../src/match/runner';
import { scriptedAgent } from '../../agents/scripted';

const registry = createRegistry();

/** Handlers answering every effect with the env's sampled result. */
function sampledEffects(env: Env): EffectHandlers {
  const rng = Rng.fromSeed(3);
  return Object.fromEntries((env.capabilities.effects ?? []).map((kind) => [kind, async (request: JsonValue) => env.sampleEffectResult!(undefined, { kind, request }, rng)]));
}

/** A random player that answers garbage from its `legalFor + 1`-th decision on. */
function flaky(env: Env, legalFor: number): Agent {
  let n = 0;
  return scriptedAgent('flaky', (obs, legal, ctx) => {
    if (n++ >= legalFor) return { garbage: true };
    return legal ? legal[ctx.rng.int(legal.length)] : env.sampleAction!(obs, ctx.rng);
  });
}

const random = (env: Env): Agent => scriptedAgent('random', (obs, legal, ctx) => (legal ? legal[ctx.rng.int(legal.length)] : env.sampleAction!(obs, ctx.rng)));

/** [env, params, the seat that forfeits, its legal decisions first, the rule]. */
const CASES: [string, Record<string, unknown>, number, number, 'returns so far' | 'default'][] = [
  ['kernel-speedup-v1', { task: 'sum', revisions: 2 }, 2, 1, 'returns so far'],
  ['countdown-v1', { roles: 'challenger-solver-evaluator' }, 2, 1, 'returns so far'],
  ['code-repair-v1', { mode: 'repair' }, 1, 1, 'returns so far'],
  ['deal-or-no-deal-v1', {}, 1, 1, 'default'],
  ['werewolf-v1', {}, 3, 1, 'default'],
];

describe('forfeit returns of the built-in envs', () => {
  test.each(CASES)('%s %j: seat %d forfeits after %d legal decision(s); the others keep the %s', async (id, raw, bad, legalFor, rule) => {
    const env = registry.env(id);
    const params = env.resolveParams(raw);
    const seats = env.seats(env.init(params, 1)).length;
    for (let seed = 1; seed <= 20; seed++) {
      const agents = Array.from({ length: seats }, (_, i) => (i === bad ? flaky(env, legalFor) : random(env)));
      const r = await runMatch({ env, params, seed, agents, effects: sampledEffects(env) });
      if (r.code !== 'forfeit') continue; // the episode ended before the seat's bad answer
      expect(r.forfeitedBy).toBe(bad);
      const expected =
        rule === 'default' // forfeiter −1, the others their per-decision rewards (zero-sum: they share +1)
          ? defaultForfeitReturns(seats, bad, env.utilityFor(params) === 'zero-sum', r.rewards)
          : env.returns(r.finalState).map((v: number, i: number) => (i === bad ? -1 : v));
      expect(r.returns).toEqual(expected);
      return;
    }
    throw new Error(`${id}: no seed made seat ${bad} forfeit`);
  });
});

describe('kernel-speedup-v1: a malformed attack costs the attacker only (issue 23: [1, 0, 1] became [0, -1, 0])', () => {
  test('the defender keeps its final revision’s reward, the evaluator its mean score; the attacker −1', async () => {
    const env = registry.env('kernel-speedup-v1');
    const params = env.resolveParams({ task: 'sum', revisions: 2 });
    const los = [3.2, 2.1]; // tiers 1.0, then 0.8: the return is the final revision's (0.8), not the sum
    let k = 0;
    const measure = async (request: JsonValue): Promise<JsonValue> => {
      const lo = los[k++];
      const shape = (request as { shape: Record<string, number> }).shape;
      return { op: 'measure', measurement: { code: 'ok', correct: true, trials: [], checkedCalls: 35, flags: [], timing: { dims: shape, warmup: 5, trials: 30, referenceNs: 2e6, candidateNs: 2e6 / (lo * 1.05), speedup: lo * 1.05, lo, hi: lo * 1.1, cv: 0.02, remeasured: false, noisy: false, referenceTrialsNs: [2e6], candidateTrialsNs: [2e6 / (lo * 1.05)] } } };
    };
    const defender = scriptedAgent('defender', () => ({ js: 'function kernel(inputs, dims) { return { s: new Float32Array(1) }; }' }));
    const certain = scriptedAgent('evaluator', () => ({ '3x': 1 })); // right on the first revision (1.0), wrong on the second (0)
    const malformed = scriptedAgent('attacker', () => 'not json');
    const r = await runMatch({ env, params, seed: 1, agents: [defender, malformed, certain], effects: { 'kernel-measure': measure } });
    expect(r).toMatchObject({ code: 'forfeit', forfeitedBy: 1 });
    expect(r.rewards.map((x) => [x.seat, x.value])).toEqual([
      [0, 1],
      [2, 1],
      [0, 0.8],
      [2, 0],
    ]);
    expect(r.returns).toEqual([0.8, -1, 0.5]);
  });
});
