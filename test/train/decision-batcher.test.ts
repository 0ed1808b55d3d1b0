/** DecisionBatcher: one forward pass per network per round, answers equal to one decision at a time. */
import { Rng } from '../../src/core/rng';
import { DecisionBatcher } from '../../src/train/decision-batcher';
import { initMlp } from '../../src/train/mlp';
import { PolicyLayoutError, PolicyModel, type PolicyStep } from '../../src/train/policy-model';
import { fixtureEnv } from './fixtures/load';

const env = fixtureEnv('teams-env');
const params = env.resolveParams({});

function model(seed: number): PolicyModel {
  const encoder = env.encoder!;
  const roles = env.meta.roles.map((r) => r.name);
  const layout = { env: env.meta.id, roles, roleInput: true, obsSize: encoder.size, numActions: encoder.numActions };
  return new PolicyModel(layout, encoder, initMlp({ inputSize: encoder.size + roles.length, hidden: [16], outputSize: encoder.numActions + 1, activation: 'relu' }, seed, 0.5));
}

/** Observations and legal actions of the seats of a few states. */
function decisions(n: number): { obs: unknown; legal: readonly unknown[]; role: string }[] {
  const out: { obs: unknown; legal: readonly unknown[]; role: string }[] = [];
  for (let s = 0; out.length < n; s++) {
    const state = env.init(params, s);
    for (const seat of env.toAct(state)) {
      const legal = env.legalActions!(state, seat);
      if (legal && out.length < n) out.push({ obs: env.observe(state, seat), legal, role: env.seats(state)[seat].role });
    }
  }
  return out;
}

const pick = (s: PolicyStep) => [s.index, s.action, s.logp, s.value, s.entropy];

describe('DecisionBatcher', () => {
  test('decisions asked in one turn share one pass per network; each answer equals model.decide with the same sampler', async () => {
    const a = model(1);
    const b = model(2);
    const ds = decisions(6);
    const batcher = new DecisionBatcher();
    const sunk: number[][] = [];
    const answers = ds.map((d, i) =>
      batcher.decide(i % 2 ? b : a, d.obs, d.legal, d.role, Rng.fromSeed(i), (_step, input) => sunk.push([i, ...input])),
    );
    const got = await Promise.all(answers);
    expect(batcher.stats).toEqual({ passes: 2, decisions: 6, largest: 3 });
    ds.forEach((d, i) => {
      const m = i % 2 ? b : a;
      m.prepare(d.obs, d.legal, d.role);
      expect(pick(got[i])).toEqual(pick(m.decide(Rng.fromSeed(i))));
      // the sink saw this decision's own input
      expect(sunk.find((s) => s[0] === i)!.slice(1)).toEqual([...m.input]);
    });
    // greedy (no sampler)
    const g = await batcher.decide(a, ds[0].obs, ds[0].legal, ds[0].role, null);
    a.prepare(ds[0].obs, ds[0].legal, ds[0].role);
    expect(pick(g)).toEqual(pick(a.decide(null)));
    expect(batcher.stats.passes).toBe(3);
  });

  test('a decision that cannot be prepared throws at once; a failing row rejects alone; a failing pass rejects its network only', async () => {
    const a = model(1);
    const b = model(2);
    const [d0, d1] = decisions(2);
    const batcher = new DecisionBatcher();
    expect(() => batcher.decide(a, d0.obs, d0.legal, 'nobody', null)).toThrow(PolicyLayoutError);
    const bad = batcher.decide(a, d0.obs, d0.legal, d0.role, null, () => {
      throw new Error('sink broke');
    });
    const good = batcher.decide(a, d1.obs, d1.legal, d1.role, null);
    await expect(bad).rejects.toThrow('sink broke');
    await expect(good).resolves.toMatchObject({ action: expect.anything() });
    b.forwardRows = () => {
      throw new Error('forward broke');
    };
    const lost = batcher.decide(b, d0.obs, d0.legal, d0.role, null);
    const kept = batcher.decide(a, d0.obs, d0.legal, d0.role, null);
    await expect(lost).rejects.toThrow('forward broke');
    await expect(kept).resolves.toMatchObject({ action: expect.anything() });
  });

  test('queues grow past their first size', async () => {
    const a = model(3);
    const ds = decisions(40);
    const batcher = new DecisionBatcher();
    const got = await Promise.all(ds.map((d, i) => batcher.decide(a, d.obs, d.legal, d.role, Rng.fromSeed(i))));
    expect(batcher.stats.largest).toBe(40);
    ds.forEach((d, i) => {
      a.prepare(d.obs, d.legal, d.role);
      expect(pick(got[i])).toEqual(pick(a.decide(Rng.fromSeed(i))));
    });
  });
});
