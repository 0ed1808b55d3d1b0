/**
 * Every built-in env has words for every step event it emits (its `prompt.event`, the describe
 * table its render shares) and states its rules (`prompt.rules`), so spectators never see an
 * event's data as JSON. Played straight through the env API with random actions (and sampled
 * effect results), over the param settings that change which events exist. The helpers that
 * read these members never throw, whatever an env's template does.
 */
import { defaultRegistry } from '../../app/catalog';
import { EFFECT_SEAT, type Env, type EnvEvent } from '../../src/core/env';
import { actionLabel, envEventText, rulesText } from '../../src/core/prompt';
import { Rng } from '../../src/core/rng';
import { normalizeEnv } from '../../src/core/normalize-env';
import { rps } from '../fixtures/load';

function playout(env: Env, raw: Record<string, unknown>, seed: number): { events: EnvEvent[]; first: unknown } {
  const params = env.resolveParams(raw);
  const rng = Rng.fromSeed(seed);
  let state = env.init(params, seed);
  const first = env.observe(state, 'public');
  const events: EnvEvent[] = [];
  for (let n = 0; !env.isTerminal(state) && n < 5000; n++) {
    const effect = env.effect(state);
    const actions: Record<number, unknown> = {};
    if (effect) actions[EFFECT_SEAT] = env.sampleEffectResult!(state, effect, rng);
    else
      for (const seat of env.toAct(state)) {
        const legal = env.legalActions ? env.legalActions(state, seat) : null;
        actions[seat] = legal && legal.length ? legal[rng.int(legal.length)] : env.sampleAction!(env.observe(state, seat), rng);
      }
    const r = env.step(state, actions);
    events.push(...r.events);
    state = r.state;
  }
  return { events, first };
}

const SETTINGS: [string, Record<string, unknown>][] = [
  ['werewolf-v1', { preset: 'arena' }],
  ['werewolf-v1', { preset: 'lspo' }],
  ['werewolf-v1', { preset: 'witch-guard' }],
  ['deal-or-no-deal-v1', { protocol: 'openspiel' }],
  ['deal-or-no-deal-v1', { protocol: 'dialogue' }],
  ['countdown-v1', { rules: 'uk', roles: 'challenger-solver-evaluator', attempts: 2 }],
  ['countdown-v1', { rules: 'tinyzero', roles: 'solver-evaluator' }],
  ['code-repair-v1', { mode: 'repair', reward: 'fixaudit', rounds: 2 }],
  ['code-repair-v1', { mode: 'generate', reward: 'cure' }],
];

describe('built-in envs put their events and rules in words', () => {
  test.each(SETTINGS)('%s %j', (id, raw) => {
    const env = defaultRegistry.env(id);
    const names = new Set<string>();
    for (let seed = 1; seed <= 4; seed++) {
      const { events, first } = playout(env, raw, seed);
      for (const e of events) {
        if (e.type === 'message') continue; // speech: the arena's own event, with its text
        const text = envEventText(env, e.type, e.data, e.visibility);
        expect({ name: e.type, text }).toEqual({ name: e.type, text: expect.stringMatching(/^[A-Z]/) });
        expect(text).not.toMatch(/\{"|^\[/);
        names.add(e.type);
      }
      expect(rulesText(env, first)?.length).toBeGreaterThan(60);
    }
    expect(names.size).toBeGreaterThan(1);
  });

  test('werewolf rules say whether votes are announced; countdown whether numbers are tiles', () => {
    const words = (id: string, raw: Record<string, unknown>) => rulesText(defaultRegistry.env(id), playout(defaultRegistry.env(id), raw, 1).first)!;
    expect(words('werewolf-v1', { preset: 'arena' })).toMatch(/votes stay secret: only the exile is announced/);
    expect(words('werewolf-v1', { preset: 'lspo' })).toMatch(/who voted for whom is announced/);
    expect(words('werewolf-v1', { preset: 'witch-guard' })).toMatch(/one after another, in public/);
    expect(words('countdown-v1', { rules: 'uk' })).toMatch(/large tiles/);
    expect(words('countdown-v1', { rules: 'reasoning-gym' })).toMatch(/no large or small tiles/);
  });
});

describe('the prompt helpers never throw', () => {
  const broken = normalizeEnv({
    ...rps(),
    prompt: {
      label: () => {
        throw new Error('label');
      },
      event: () => {
        throw new Error('event');
      },
      rules: () => {
        throw new Error('rules');
      },
    },
  });
  test('a throwing template falls back: JSON or the text itself for a label, null for event words and rules', () => {
    expect(actionLabel(broken, {}, 2)).toBe('2');
    expect(actionLabel(broken, {}, 'rock')).toBe('rock');
    expect(envEventText(broken, 'x', {}, 'public')).toBeNull();
    expect(rulesText(broken, {})).toBeNull();
  });
  test('an env without a template has no words but labels its actions as JSON', () => {
    const plain = normalizeEnv({ ...rps(), prompt: undefined });
    expect(actionLabel(plain, {}, { a: 1 })).toBe('{"a":1}');
    expect(envEventText(plain, 'x', {}, 'public')).toBeNull();
    expect(rulesText(plain, {})).toBeNull();
  });
});
