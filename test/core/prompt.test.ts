/** Text players' view of an env (src/core/prompt.ts) and the built-in envs' templates. */
import { defaultRegistry } from '../../app/catalog';
import { fillPlaceholders, labelActions, observationText, openAnswer, systemPrompt, type PromptContext } from '../../src/core/prompt';
import { normalizeEnv } from '../../src/core/normalize-env';
import { rps } from '../fixtures/load';

const ctx = (env: string, role: string, seat = 0, seats = 2, params = {}): PromptContext => ({ env, role, team: role, seat, seats, params });

test('an env without a template: a generic system prompt, its render, JSON labels made unique', () => {
  const env = rps();
  expect(systemPrompt(env, ctx(env.meta.id, 'player'))).toMatch(/^You are playing rock-paper-scissors-v1, seat 0 of 2, as the player\./);
  const params = env.resolveParams({});
  const s = env.init(params, 1);
  const obs = env.observe(s, 0);
  expect(observationText(env, obs, ctx(env.meta.id, 'player'))).toBe(env.render(obs));
  expect(labelActions(env, obs, [0, 1, 'x', 'x', 'x']).map((l) => l.label)).toEqual(['0', '1', '"x"', '"x" #2', '"x" #3']);
  expect(openAnswer(env, obs, ctx(env.meta.id, 'player')).schema).toEqual({});
  // a template that throws for one action falls back to JSON for it
  const thrower = normalizeEnv({ ...rps(), prompt: { label: (a: unknown) => { if (a === 1) throw new Error('no'); return `move ${String(a)}`; } } });
  expect(labelActions(thrower, obs, [0, 1]).map((l) => l.label)).toEqual(['move 0', '1']);
});

test('overrides: role text wins over the shared one; placeholders are filled', () => {
  const env = defaultRegistry.env('countdown-v1');
  const c = ctx(env.meta.id, 'solver', 1, 3);
  expect(systemPrompt(env, c, { system: 'Play {env} as {role} ({seat}/{seats}, team {team}).' })).toBe('Play countdown-v1 as solver (1/3, team solver).');
  expect(systemPrompt(env, c, { system: 'shared', roles: { solver: 'just the solver' } })).toBe('just the solver');
  expect(systemPrompt(env, c, { roles: { challenger: 'x' } })).toMatch(/You are the solver/);
  expect(fillPlaceholders('{unknown} {role}', c)).toBe('{unknown} solver');
});

test('every legal action of the built-in finite envs has a unique name, over whole random games', () => {
  for (const [id, raw] of [['deal-or-no-deal-v1', {}], ['werewolf-v1', { preset: 'arena' }], ['werewolf-v1', { preset: 'witch-guard' }]] as const) {
    const env = defaultRegistry.env(id);
    const params = env.resolveParams(raw);
    for (let seed = 0; seed < 5; seed++) {
      let s = env.init(params, seed);
      for (let k = 0; k < 400 && !env.isTerminal(s); k++) {
        const actions: Record<number, unknown> = {};
        for (const seat of env.toAct(s)) {
          const legal = env.legalActions!(s, seat)!;
          const labels = labelActions(env, env.observe(s, seat), legal).map((l) => l.label);
          expect(new Set(labels).size).toBe(labels.length);
          for (const l of labels) expect(l).not.toMatch(/#\d+$/);
          actions[seat] = legal[(seed * 31 + k * 7 + seat) % legal.length];
        }
        s = env.step(s, actions).state;
      }
    }
  }
});
