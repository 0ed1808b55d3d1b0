import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Agent } from '../../src/core/agent';
import { Registry } from '../../src/core/registry';
import { deriveSeed } from '../../src/core/rng';
import { createRegistry } from '../../app/catalog';
import { perSeat, SeatAgentError, seatAgents, seatAgentsNow } from '../../src/match/seat-agents';

const ROOT = resolve(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'league-agents.js');

async function setup() {
  const registry: Registry = createRegistry();
  const env = await registry.resolveEnv(join(ROOT, 'examples', 'rock-paper-scissors.js'));
  const params = env.resolveParams({});
  const seeds: { name: string; seed: number; options: unknown }[] = [];
  registry.registerAgent({
    name: 'spy',
    description: 'records how it was made',
    create: (o) => {
      seeds.push({ name: 'spy', seed: o.seed, options: o.options });
      return { name: `spy-${o.seed}`, act: (_obs, legal) => legal![0] };
    },
  });
  return { registry, env, params, seeds };
}

describe('seatAgents: the agents of a match\'s seats', () => {
  test('one agent per seat, each seeded deriveSeed(seed, "agent", seat); options passed on', async () => {
    const { registry, env, params, seeds } = await setup();
    const agents = await seatAgents({ registry, env, params, seats: ['spy', 'spy:{"k":1}'], seed: 9 });
    expect(agents.map((a) => a.name)).toEqual([`spy-${deriveSeed(9, 'agent', 0)}`, `spy-${deriveSeed(9, 'agent', 1)}`]);
    expect(seeds.map((s) => s.options)).toEqual([undefined, { k: 1 }]);
  });

  test('custom seeds, empty seats and ready agents', async () => {
    const { registry, env, params } = await setup();
    const ready: Agent = { name: 'ready', act: (_o, legal) => legal![0] };
    const agents = await seatAgents({ registry, env, params, seats: [null, ready, 'spy'], seedOf: (seat) => 100 + seat });
    expect(agents[0]).toBeNull();
    expect(agents[1]).toBe(ready);
    expect(agents[2]!.name).toBe('spy-102');
  });

  test('a module reference is loaded first; paced agents keep their names', async () => {
    const { registry, env, params } = await setup();
    const agents = await seatAgents({ registry, env, params, seats: [`${FIXTURES}#first-legal`, 'spy'], seed: 1, paceMs: 5 });
    expect(agents.map((a) => a.name)).toEqual(['first-legal', `spy-${deriveSeed(1, 'agent', 1)}`]);
    const started = Date.now();
    await agents[0].act(null, ['rock', 'paper'], {} as never);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4);
  });

  test('errors name the seat: a malformed reference, an unknown agent, a module that does not load (without Node\'s require stack)', async () => {
    const { registry, env, params } = await setup();
    const fail = (seats: string[]) => seatAgents({ registry, env, params, seats, seed: 1 }).then(
      () => null,
      (e: unknown) => e as SeatAgentError,
    );
    const bad = await fail(['spy', 'spy:{oops']);
    expect(bad).toBeInstanceOf(SeatAgentError);
    expect(bad!.seat).toBe(1);
    expect(bad!.message).toMatch(/agent "spy": options are not valid JSON/);
    const unknown = await fail(['nobody', 'spy']);
    expect(unknown!.seat).toBe(0);
    expect(unknown!.message).toMatch(/unknown agent "nobody"/);
    const dir = mkdtempSync(join(tmpdir(), 'arena-seat-'));
    writeFileSync(join(dir, 'broken.js'), "require('./not-there');\n");
    const missing = await fail(['spy', join(dir, 'broken.js')]);
    expect(missing!.seat).toBe(1);
    expect(missing!.message).toMatch(/^cannot load module .*broken\.js: Cannot find module '\.\/not-there'/);
    // Node's message lists this process's files after "Require stack:": cut (jest words its own message differently)
    writeFileSync(join(dir, 'stack.js'), "throw new Error('boom\\nRequire stack:\\n- /secret/server/path.js');\n");
    const stack = await fail([join(dir, 'stack.js'), 'spy']);
    expect(stack!.seat).toBe(0);
    expect(stack!.message).toMatch(/^cannot load module .*stack\.js: boom$/);
  });

  test('seatAgentsNow: synchronous for loaded references, refuses a module not loaded yet', async () => {
    const { registry, env, params } = await setup();
    expect(() => seatAgentsNow({ registry, env, params, seats: [`${FIXTURES}#first-legal`], seed: 1 })).toThrow(/is not loaded yet/);
    await registry.loadModuleOnce(FIXTURES);
    expect(seatAgentsNow({ registry, env, params, seats: [`${FIXTURES}#first-legal`, 'spy'], seed: 1 }).map((a) => a.name)).toEqual(['first-legal', `spy-${deriveSeed(1, 'agent', 1)}`]);
  });

  test('without seed or seedOf: refused', async () => {
    const { registry, env, params } = await setup();
    await expect(seatAgents({ registry, env, params, seats: ['spy'] })).rejects.toThrow(/give seed or seedOf/);
  });
});

test('perSeat: one spec fills every seat, else one per seat', () => {
  expect(perSeat(['a'], 3)).toEqual(['a', 'a', 'a']);
  expect(perSeat(['a', 'b'], 2)).toEqual(['a', 'b']);
  expect(perSeat(['a', 'b'], 3)).toBeNull();
});
