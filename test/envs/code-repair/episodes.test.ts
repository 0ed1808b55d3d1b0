/**
 * Whole episodes through the runner with the real sandbox (the catalog's effect handler):
 * hand-computed returns for scripted seats, the baselines repairing a bug, and no hidden test
 * in any view.
 */
import { EventBus } from '../../../src/bus/event-bus';
import { MemoryRecorder } from '../../../src/bus/recorder';
import { defaultRegistry, make, closeSharedSandbox } from '../../../app/catalog';
import type { Agent } from '../../../src/core/agent';
import { runMatch, type MatchResult } from '../../../src/match/runner';
import { scriptedAgent } from '../../../agents/scripted';
import { bundledTasks, type CodeRepairObservation } from '../../../envs/code-repair';

afterAll(() => closeSharedSandbox());

const task = bundledTasks('js').find((t) => t.id === 'js/collatz-steps')!;
const buggy = (id: string) => task.buggy!.find((b) => b.id === id)!.source;

async function play(params: object, agents: Agent[], seed = 1): Promise<{ result: MatchResult; bus: MemoryRecorder }> {
  const { env, params: p } = make('code-repair-v1', params);
  const bus = new EventBus();
  const rec = new MemoryRecorder(bus);
  const result = await runMatch({ env, params: p, seed, agents, bus, effects: defaultRegistry.effects() });
  return { result, bus: rec };
}

const echo = scriptedAgent('echo', (o: CodeRepairObservation) => o.candidate!);

describe('code-repair-v1 episodes in the sandbox', () => {
  test('FixAudit by hand: invalid, failed and failed tests; an echo fixer keeps the bug', async () => {
    const rounds = [
      JSON.stringify([{ input: [6], expected: 999 }, { input: [1] }]),
      JSON.stringify([{ input: [6] }]),
    ];
    let r = 0;
    const auditor = scriptedAgent('auditor', () => rounds[r++]);
    const { result } = await play({ task: 'js/collatz-steps', variant: 0, rounds: 2 }, [echo, auditor]);
    expect(result.code).toBe('ok');
    expect(result.outcome).toBe('unsolved');
    // auditor: (-1 invalid, +1 buggy returns 1 for n=1, +1 buggy returns 9 for n=6) / 3
    // fixer: 0 of 11 hidden tests, minus 0.1 for each of the 2 valid auditor tests its program fails
    expect(result.returns[0]).toBeCloseTo(-0.2);
    expect(result.returns[1]).toBeCloseTo(1 / 3);
    // per-round rewards of the auditor: round 1 mean (−1 + 1) / 2 = 0, round 2: 1
    expect(result.rewards.filter((x) => x.seat === 1).map((x) => x.value)).toEqual([0, 1]);
    expect(result.length).toBe(9);
  });

  test('a fixed program ends the episode as solved with the full hidden share', async () => {
    const fixer = scriptedAgent('fixer', () => task.reference);
    const auditor = scriptedAgent('auditor', () => JSON.stringify([{ input: [6] }]));
    const { result } = await play({ task: 'js/collatz-steps', variant: 1, rounds: 3 }, [fixer, auditor]);
    expect(result.outcome).toBe('solved');
    // the auditor's test (n = 6) was run against the do-while bug, which is right there: score 0
    expect(result.returns).toEqual([1, 0]);
    expect(result.length).toBe(5);
  });

  test('baselines: the mutation-search fixer repairs a single-mutation bug the fuzz auditor exposes', async () => {
    const mk = async (spec: string, seed: number) => (await defaultRegistry.createAgent(spec, { env: make('code-repair-v1').env, params: {}, seed })).agent;
    const { result } = await play({ task: 'js/collatz-steps', variant: 0, rounds: 2 }, [await mk('mutation-fixer', 1), await mk('fuzz-auditor', 2)]);
    expect(result.outcome).toBe('solved');
    expect(result.returns[0]).toBe(1);
  });

  test('CURE by hand: k = 2 programs (correct, wrong) and 2 tests (discriminating, invalid)', async () => {
    const programs = [task.reference, buggy('steps-one')];
    const tests = [JSON.stringify({ input: [1] }), JSON.stringify({ input: [6], expected: 9 })];
    let i = 0;
    let j = 0;
    const coder = scriptedAgent('coder', () => programs[i++]);
    const tester = scriptedAgent('tester', () => tests[j++]);
    const { result } = await play({ mode: 'generate', reward: 'cure', k: 2, task: 'js/collatz-steps', zscore: true }, [coder, tester]);
    // coder: pass rates 1 and 0 -> 0.5; tester: +1 (rejects the wrong one), -1 (the reference fails it, the wrong one passes) -> 0
    expect(result.returns).toEqual([0.5, 0]);
    // per-try rewards, z-scored within the episode, each crediting its own decision
    expect(result.rewards.map((x) => [x.seat, x.value, x.credits, x.endsTry])).toEqual([
      [0, 1, 0, true],
      [0, -1, 1, true],
      [1, 1, 2, true],
      [1, -1, 3, true],
    ]);
  });

  test('no view ever holds a hidden test or the reference; effect results stay omniscient', async () => {
    const auditor = scriptedAgent('auditor', () => JSON.stringify([{ input: [3] }]));
    const { result, bus } = await play({ task: 'js/collatz-steps', variant: 2, rounds: 2 }, [echo, auditor]);
    const { env, params } = make('code-repair-v1', { task: 'js/collatz-steps', variant: 2, rounds: 2 });
    const state = result.finalState as never;
    // values only hidden tests have (public tests use 6, 7, 2, 3, 27)
    const secrets = ['"input":[871]', '"expected":152', '"input":[97]', 'n !== 1'];
    for (const viewer of ['public', 0, 1] as const) {
      const text = JSON.stringify(env.observe(state, viewer)) + env.render(env.observe(state, viewer));
      for (const s of secrets) expect(text).not.toContain(s);
    }
    void params;
    const events = bus.events(result.matchId);
    const effects = events.filter((e) => e.type === 'action' && e.seat === -1);
    expect(effects.length).toBeGreaterThan(0);
    expect(effects.every((e) => e.visibility === 'omniscient')).toBe(true);
    const visible = JSON.stringify(events.filter((e) => e.visibility !== 'omniscient'));
    for (const s of secrets) expect(visible).not.toContain(s);
  });
});
