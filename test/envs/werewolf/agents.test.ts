import { ruleBasedAgent, ruleBasedPolicy } from '../../../envs/werewolf/agents/rule-based';
import { randomAgent } from '../../../agents/random';
import type { AgentContext } from '../../../src/core/agent';
import { Rng } from '../../../src/core/rng';
import { runMatch } from '../../../src/match/runner';
import { createRegistry, make } from '../../../app/catalog';
import { REVEAL_WOLF, T, game, legal, next, publicLog } from './helpers';

type Kind = 'random' | 'rule';

async function series(preset: string, villagers: Kind, wolves: Kind, games: number) {
  const { env, params } = make('werewolf-v1', { preset });
  const factory = (k: Kind) => (k === 'rule' ? ruleBasedAgent : randomAgent);
  const results = [];
  for (let seed = 0; seed < games; seed++) {
    results.push(
      await runMatch({
        env,
        params,
        seed,
        agents: (seats) => seats.map((s, i) => factory(s.team === 'werewolves' ? wolves : villagers).create({ env, params, seed: i })),
      }),
    );
  }
  return { env, results, agg: env.aggregate!(results.map((r) => r.summary)) as { winRate: { villagers: number; werewolves: number } } };
}

const ctx = (seat: number) => ({ seat, rng: Rng.fromSeed(seat) }) as unknown as AgentContext;

describe('werewolf-v1 agents', () => {
  test.each(['arena', 'lspo', 'witch-guard'])('random and rule-based play %s without faults; random uses every kind of speech act', async (preset) => {
    for (const [v, w] of [
      ['random', 'random'],
      ['rule', 'rule'],
    ] as [Kind, Kind][]) {
      const { results } = await series(preset, v, w, 25);
      for (const r of results) {
        expect(r.code).toBe('ok');
        expect(r.faults).toEqual([]);
        expect(['werewolves', 'villagers', 'draw']).toContain(r.outcome);
      }
      if (v === 'random') {
        const acts = new Set<string>();
        for (const r of results) for (const e of (r.finalState as { pub: { log: { type: string; act?: string }[][] } }).pub.log.flat()) if (e.type === 'speech') acts.add(e.act!);
        expect([...acts].sort()).toEqual(['accuse', 'agree', 'claim', 'defend', 'reveal', 'silent']);
      }
    }
  });

  test('rule-based villagers beat random villagers against random wolves', async () => {
    for (const preset of ['arena', 'witch-guard']) {
      const random = await series(preset, 'random', 'random', 120);
      const rule = await series(preset, 'rule', 'random', 120);
      expect(rule.agg.winRate.villagers).toBeGreaterThan(random.agg.winRate.villagers + 0.1);
    }
  });

  test('epsilon: that share of decisions is random among the legal ones; 0 is the plain policy; a bad value names the option', async () => {
    const { env, params } = make('werewolf-v1', { preset: 'arena' });
    const legalSet = [T(0), T(1), T(2), T(3)];
    // a doctor with no claimed seer protects itself (seat 0): the plain policy always answers T(0)
    const obs = { ask: 'protect', seat: 0, role: 'doctor', wolves: [], private: [], public: { alive: [1, 1, 1, 1, 1], log: [], round: 1 } } as never;
    const pick = (epsilon: number) => {
      const a = ruleBasedAgent.create({ env, params, seed: 0, options: { epsilon } });
      const rng = Rng.fromSeed(3);
      return Array.from({ length: 400 }, () => a.act(obs, legalSet, { seat: 0, rng } as unknown as AgentContext) as number);
    };
    const plain = ruleBasedAgent.create({ env, params, seed: 0 });
    const rng = Rng.fromSeed(3);
    expect(pick(0)).toEqual(Array.from({ length: 400 }, () => plain.act(obs, legalSet, { seat: 0, rng } as unknown as AgentContext)));
    expect(new Set(pick(0))).toEqual(new Set([T(0)]));
    const noisy = pick(1);
    for (const a of legalSet) expect(noisy.filter((x) => x === a).length).toBeGreaterThan(60);
    const some = pick(0.5).filter((x) => x !== T(0)).length; // half random, of which 3/4 not T(0)
    expect(some).toBeGreaterThan(110);
    expect(some).toBeLessThan(190);
    await expect(createRegistry().createAgent('rule-based:{"epsilon":2}', { env, params, seed: 0 })).rejects.toThrow(/option "epsilon"/);
  });

  test('rule-based werewolves never vote for each other', async () => {
    const { results } = await series('lspo', 'random', 'rule', 60);
    let votes = 0;
    for (const r of results) {
      const wolves = r.seats.flatMap((s, i) => (s.team === 'werewolves' ? [i] : []));
      for (const e of (r.finalState as { pub: { log: { type: string; votes?: (number | null)[] }[][] } }).pub.log.flat()) {
        if (e.type !== 'votes') continue;
        for (const w of wolves) {
          const t = e.votes![w];
          if (t === null) continue;
          votes++;
          expect(wolves).not.toContain(t);
        }
      }
    }
    expect(votes).toBeGreaterThan(30);
  });

  test('the seer reveals a found wolf; villagers follow; the doctor protects the claimed seer; wolves target it', () => {
    // seats 0,3 werewolves; 2 seer; 4 doctor; 1,5,6 villagers
    const { env, init } = game({ preset: 'lspo', roles: ['werewolf', 'villager', 'seer', 'werewolf', 'doctor', 'villager', 'villager'] });
    let s = init(1);
    expect(ruleBasedPolicy(env.observe(s, 2), legal(env, s, 2), ctx(2))).not.toBe(T(2));
    s = next(env, s, { 0: T(6), 2: T(3), 4: T(4) });
    s = next(env, s, { 3: T(6) });
    // day 1: P0, P1 speak first, then the seer
    s = next(env, s, { 0: ruleBasedPolicy(env.observe(s, 0), legal(env, s, 0), ctx(0)) });
    s = next(env, s, { 1: ruleBasedPolicy(env.observe(s, 1), legal(env, s, 1), ctx(1)) });
    const seerSays = ruleBasedPolicy(env.observe(s, 2), legal(env, s, 2), ctx(2));
    expect(seerSays).toBe(REVEAL_WOLF + 3);
    s = next(env, s, { 2: seerSays });
    expect(publicLog(s).pop()).toMatchObject({ act: 'reveal', target: 3, werewolf: true });
    while (s.pub.phase === 'speak') s = next(env, s, {});
    for (const v of [1, 4, 5]) expect(ruleBasedPolicy(env.observe(s, v), legal(env, s, v), ctx(v))).toBe(T(3));
    expect(ruleBasedPolicy(env.observe(s, 0), legal(env, s, 0), ctx(0))).not.toBe(T(3));
    s = next(env, s, { 1: T(3), 2: T(3), 4: T(3), 5: T(3) });
    expect(s.pub.alive[3]).toBe(0);
    expect(ruleBasedPolicy(env.observe(s, 4), legal(env, s, 4), ctx(4))).toBe(T(2));
    expect(ruleBasedPolicy(env.observe(s, 0), legal(env, s, 0), ctx(0))).toBe(T(2));
  });
});
