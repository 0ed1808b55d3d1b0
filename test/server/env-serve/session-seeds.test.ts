/**
 * The env server's session numbers, which its seeds derive from: creations that overlap while
 * their agents build each get their own number (sessions created at the same time never share
 * agent or episode seeds), and a refused creation takes none.
 */
import { createRegistry } from '../../../app/catalog';
import { deriveSeed } from '../../../src/core/rng';
import { admissionOf } from '../../../app/server/env-serve/admission';
import { SessionTable } from '../../../app/server/env-serve/session-table';

const registry = createRegistry();
const env = registry.env('deal-or-no-deal-v1');
/** The seeds the other seats' agents were built with, in build order. */
const agentSeeds: number[] = [];
const random = registry.agentFactory('random', env.meta.id);
registry.registerAgent({ ...random, name: 'seed-spy', description: 'random, recording its seed', create: (o) => (agentSeeds.push(o.seed), random.create(o)) });

function table(): SessionTable {
  return new SessionTable({ env, params: env.resolveParams({}), registry, agents: ['seed-spy'], admission: admissionOf(['seed-spy']), maxSessions: 8, idleMs: 60_000, wsIdleMs: 0, seed: 11 });
}
beforeEach(() => (agentSeeds.length = 0));

describe('session numbers', () => {
  test('creations started together get distinct numbers, so their episodes draw distinct seeds', async () => {
    const t = table();
    try {
      const entries = await Promise.all([t.create({}, 'http'), t.create({}, 'http'), t.create({}, 'ws')]);
      expect(entries.map((e) => e.index).sort()).toEqual([0, 1, 2]);
      // the other seat's agent of session k drew deriveSeed(seed, "session", k, "agent", 1)
      expect(agentSeeds.sort()).toEqual([0, 1, 2].map((k) => deriveSeed(11, 'session', k, 'agent', 1)).sort());
      const first = await Promise.all(entries.map((e) => t.reset(e, {})));
      expect(first).toHaveLength(3);
      const seeds = entries.map((e) => deriveSeed(11, 'session', e.index, 'episode', 0));
      expect(new Set(seeds).size).toBe(3);
    } finally {
      await t.closeAll();
    }
  });

  test('a creation refused by validation takes no number', async () => {
    const t = table();
    try {
      await expect(t.create({ seat: 9 }, 'http')).rejects.toThrow(/seats/);
      await expect(t.create({ role: 'nobody' }, 'http')).rejects.toThrow(/role/);
      expect((await t.create({}, 'http')).index).toBe(0);
      expect((await t.create({}, 'http')).index).toBe(1);
    } finally {
      await t.closeAll();
    }
  });
});
