/**
 * What a text player (an LLM, a human's page) reads in deal-or-no-deal-v1: the observation text
 * without stray punctuation or offer ids, and the note on each action ("worth N to you") that
 * the human seat page shows on its buttons.
 */
import { actionLabel, actionNote, observationText, type PromptContext } from '../../../src/core/prompt';
import { AGREE, OFFERS, describeShare, restOf, valueOf } from '../../../envs/deal-or-no-deal/offers';
import { INSTANCE0, play, start } from './helpers';

const ctx = (seat: number): PromptContext => ({ env: 'deal-or-no-deal-v1', role: 'negotiator', team: 'negotiator', seat, seats: 2, params: {} });

describe('deal-or-no-deal-v1 in words for text players', () => {
  const { env, state: s0 } = start({ instance: INSTANCE0 });
  const first = env.legalActions!(s0, 0)!.find((a) => a !== AGREE && OFFERS[a as number].some((n) => n > 0)) as number;
  const { state } = play(env, s0, [first]);
  const obs1 = env.observe(state, 1);

  test('the agree line ends cleanly (no stray parenthesis) and offers are named without their ids', () => {
    const text = observationText(env, obs1, ctx(1));
    const get = restOf(obs1.pool, OFFERS[first]);
    expect(text).toContain(`  Agreeing to the last offer would give you ${describeShare(get)}, worth ${valueOf(obs1.values!, get)} to you.`);
    expect(text).toMatch(/^  Agreeing .* to you\.$/m);
    expect(text).not.toMatch(/to you\)/);
    expect(text).toContain(`  seat 0 offered to keep ${describeShare(OFFERS[first])}`);
    expect(text).not.toMatch(/offered \d+/);
  });

  test("every legal action carries what it is worth to the seat choosing it, from that seat's values", () => {
    const legal = env.legalActions!(state, 1)!;
    expect(legal).toContain(AGREE);
    for (const a of legal) {
      const note = actionNote(env, obs1, a);
      if (a === AGREE) {
        const get = restOf(obs1.pool, OFFERS[first]);
        expect(note).toBe(`you get ${describeShare(get)}: worth ${valueOf(obs1.values!, get)} to you`);
      } else {
        expect(note).toBe(`worth ${valueOf(obs1.values!, OFFERS[a as number])} to you`);
        expect(actionLabel(env, obs1, a)).toBe(`keep ${describeShare(OFFERS[a as number])}`);
      }
    }
    // the note is the seat's own: seat 0's values give other figures for the same offers
    const obs0 = env.observe(state, 0);
    expect(obs0.values).not.toEqual(obs1.values);
    expect(legal.filter((a) => a !== AGREE).some((a) => actionNote(env, obs0, a) !== actionNote(env, obs1, a))).toBe(true);
  });

  test('a view without values (the public one) gets no note', () => {
    expect(actionNote(env, env.observe(state, 'public'), first)).toBeNull();
  });
});
