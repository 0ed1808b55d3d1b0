/**
 * Whole episodes through the runner with the real sandbox (the catalog's kernel-measure
 * handler): the rewards of every seat follow the formulas from the recorded measurements, hacks
 * score −1, an attack breaks a planted bug, and a recorded log replays without re-timing.
 */
import { EventBus } from '../../../src/bus/event-bus';
import { MemoryRecorder } from '../../../src/bus/recorder';
import { closeSharedSandbox, defaultRegistry, make } from '../../../app/catalog';
import type { Agent } from '../../../src/core/agent';
import type { ActionMap } from '../../../src/core/env';
import { runMatch, type MatchResult } from '../../../src/match/runner';
import { scriptedAgent } from '../../../agents/scripted';
import { kernelTask, legalScheduleIndices, outcomeClass, predictionScore, tierReward, type KernelObservation, type KernelState } from '../../../envs/kernel-speedup';

jest.setTimeout(180_000);
afterAll(() => closeSharedSandbox());

async function play(params: object, agents: Agent[], seed = 1): Promise<{ result: MatchResult; rec: MemoryRecorder }> {
  const { env, params: p } = make('kernel-speedup-v1', params);
  const bus = new EventBus();
  const rec = new MemoryRecorder(bus);
  const result = await runMatch({ env, params: p, seed, agents, bus, effects: defaultRegistry.effects() });
  return { result, rec };
}

const seq = (name: string, answers: unknown[]) => {
  let i = 0;
  return scriptedAgent(name, () => answers[Math.min(i++, answers.length - 1)]);
};

const PRED = [0, 0, 0.5, 0.5, 0, 0, 0];

describe('kernel-speedup-v1 episodes in the sandbox', () => {
  test('a schedule, a prediction, stop, a valid attack that fails: returns follow the formulas', async () => {
    const defender = seq('defender', [75, 'stop']);
    const attacker = scriptedAgent('attacker', () => ({ dims: { M: 7, N: 13, K: 33 }, inputs: { A: { fill: 1 }, B: { cycle: [-1, 1] } } }));
    const evaluator = scriptedAgent('evaluator', () => PRED);
    const { result, rec } = await play({ task: 'matmul', shape: 0, revisions: 3 }, [defender, attacker, evaluator]);
    expect(result.code).toBe('ok');
    const s = result.finalState as KernelState;
    expect(s.revisions).toHaveLength(1);
    const m = s.revisions[0].measurement!;
    expect(m.code).toBe('ok');
    expect(m.timing!.trials).toBeGreaterThanOrEqual(30);
    // defender: the tier of its one revision; attacker: valid, kernel right → 0; evaluator: Brier of its forecast
    expect(result.returns).toEqual([tierReward(m, 0.1), 0, predictionScore(PRED, outcomeClass(m))]);
    expect(s.attack).toMatchObject({ valid: true, score: 0, result: { code: 'ok', referenceFinite: true } });
    // per-decision rewards: the defender's credits its submission (step 0), the evaluator's its prediction (step 1)
    expect(result.rewards.map((r) => [r.seat, r.credits, r.endsTry ?? false])).toEqual([
      [0, 0, true],
      [2, 1, true],
      [1, 4, false],
    ]);
    const envEvents = rec.events(result.matchId).filter((e) => e.type === 'env').map((e) => (e as { name: string }).name);
    expect(envEvents).toEqual(['submitted', 'predicted', 'measured', 'stopped', 'attack', 'attack-result', 'episode-end']);
    const effects = rec.events(result.matchId).filter((e) => e.type === 'action' && (e as { seat: number }).seat === -1);
    expect(effects).toHaveLength(2);
    expect(effects.every((e) => e.visibility === 'omniscient')).toBe(true);
  });

  test('a recorded log replays to the same returns without any effect handler (nothing re-timed)', async () => {
    const { result, rec } = await play({ task: 'sort', revisions: 1, attacker: false }, [seq('d', [legalScheduleIndices(kernelTask('sort'))[1]]), scriptedAgent('e', () => PRED)], 5);
    expect(result.code).toBe('ok');
    const { env, params } = make('kernel-speedup-v1', { task: 'sort', revisions: 1, attacker: false });
    const steps = new Map<number, ActionMap<unknown>>();
    for (const e of rec.events(result.matchId)) {
      if (e.type !== 'action') continue;
      const a = e as unknown as { step: number; seat: number; action: unknown };
      steps.set(a.step, { ...(steps.get(a.step) ?? {}), [a.seat]: a.action });
    }
    let state = env.init(params, 5);
    for (const [, actions] of [...steps.entries()].sort((a, b) => a[0] - b[0])) state = env.step(state, actions).state;
    expect(env.isTerminal(state)).toBe(true);
    expect(env.returns(state)).toEqual(result.returns);
  });

  test('a hacking kernel scores −1 and an input outside the contract scores −1', async () => {
    const reuse = `function kernel(inputs, dims) {
      if (kernel.n === dims.N) return { y: kernel.y.slice() };
      const y = inputs.x.slice().sort();
      kernel.n = dims.N; kernel.y = y.slice();
      return { y };
    }`;
    const attacker = scriptedAgent('attacker', () => ({ dims: { N: 5 }, inputs: { x: { fill: 1e9 } } }));
    const { result } = await play({ task: 'sort', revisions: 1, evaluator: false }, [seq('d', [reuse]), attacker]);
    const s = result.finalState as KernelState;
    expect(s.revisions[0].measurement!.code).toBe('result-reuse');
    expect(s.attack).toMatchObject({ valid: false, score: -1, reason: expect.stringMatching(/inputs\.x\.fill: 1000000000 .*outside the range/) });
    expect(result.returns).toEqual([-1, -1]);
    expect(result.outcome).toBe('incorrect');
  });

  test('the boundary attacker breaks a kernel that is wrong only at the top of the range', async () => {
    // softmax, but rows starting with exactly 16 (the contract's maximum) come out as zeros
    const planted = `function kernel(inputs, dims) {
      const x = inputs.x, R = dims.R, C = dims.C, y = new Float32Array(R * C);
      for (let r = 0; r < R; r++) {
        if (x[r * C] === 16) continue;
        let m = -Infinity, s = 0;
        for (let j = 0; j < C; j++) if (x[r * C + j] > m) m = x[r * C + j];
        for (let j = 0; j < C; j++) s += Math.exp(x[r * C + j] - m);
        for (let j = 0; j < C; j++) y[r * C + j] = Math.exp(x[r * C + j] - m) / s;
      }
      return { y };
    }`;
    const mk = async (spec: string) => (await defaultRegistry.createAgent(spec, { env: make('kernel-speedup-v1').env, params: {}, seed: 1 })).agent;
    const { result } = await play({ task: 'softmax', shape: 1, revisions: 1, evaluator: false }, [seq('d', [planted]), await mk('boundary-attacker')]);
    const s = result.finalState as KernelState;
    expect(s.revisions[0].measurement!.code).toBe('ok'); // random inputs never hit exactly 16
    expect(s.attack).toMatchObject({ valid: true, score: 1, result: { code: 'wrong-answer', referenceFinite: true } });
    expect(result.returns).toEqual([-1, 1]);
    expect(result.outcome).toBe('broken');
  });

  test('observations: the defender sees legal schedule indices and its measurements; nobody sees the expert', async () => {
    const seen: KernelObservation[] = [];
    const defender = scriptedAgent('d', (o: KernelObservation) => {
      seen.push(o);
      return o.revisions.length ? 'stop' : 0;
    });
    const { result } = await play({ task: 'sort', revisions: 2, attacker: false, evaluator: false, candidates: 'schedule' }, [defender]);
    expect(seen[0].legal).not.toContain(200);
    expect(seen[1].legal).toContain(200); // "stop" after the first revision
    expect(seen[1].revisions[0].measurement?.code).toBe('ok');
    const { env } = make('kernel-speedup-v1');
    const text = JSON.stringify(env.observe(result.finalState, 'public')) + env.render(env.observe(result.finalState, 'public'));
    expect(text).not.toContain(kernelTask('sort').expert);
  });
});
