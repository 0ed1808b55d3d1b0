/**
 * `arena demo` paces each env so a game lasts long enough to watch: the demo's own league
 * configs, played with their baselines (unpaced), take at least `steps × paceMs` of wall time.
 */
import { resolve } from 'node:path';
import { defaultRegistry } from '../../app/catalog';
import { runMatch } from '../../src/match/runner';
import { demoConfigs, DEMO_LEAGUES } from '../../app/cli/commands/demo';

const ROOT = resolve(__dirname, '..', '..');
const GAMES = 20;

test.each(DEMO_LEAGUES.map((name, i) => [name, i] as const))('a %s demo game lasts long enough to watch at the default pace', async (_name, i) => {
  const config = demoConfigs(ROOT, { pace: 300, learners: false })[i];
  const env = defaultRegistry.env(config.env);
  const params = env.resolveParams(config.params);
  const seconds: number[] = [];
  for (let seed = 0; seed < GAMES; seed++) {
    const seats = env.seats(env.init(params, seed));
    const agents = [];
    for (const [k, seat] of seats.entries()) {
      const fits = config.players.filter((p) => !p.roles || p.roles.includes(seat.role));
      agents.push((await defaultRegistry.createAgent(fits[(seed + k) % fits.length].agent, { env, params, seed: seed * 7 + k })).agent);
    }
    const r = await runMatch({ env, params, seed, agents });
    // every step waits for at least one paced decision
    seconds.push((r.length * config.paceMs) / 1000);
  }
  seconds.sort((a, b) => a - b);
  // the median game lasts 8 s or more, and hardly any is over in under 5 s
  expect(seconds[Math.floor(GAMES / 2)]).toBeGreaterThanOrEqual(8);
  expect(seconds[Math.floor(GAMES / 10)]).toBeGreaterThanOrEqual(5);
  // --pace 0 still means full speed
  expect(demoConfigs(ROOT, { pace: 0, learners: false })[i].paceMs).toBe(0);
});
