import { actionOf, canonicalProposal, DEAL_TEXT, offerId, type DialogueObservation } from '../../../envs/deal-or-no-deal';
import { play, rejection, start } from './helpers';

// Instance: pool [1 book, 4 hats, 1 ball]; seat 0 values [4,1,2]; seat 1 values [2,2,0].
const LINE = '1,4,1 4,1,2 2,2,0';
const say = (text: string) => ({ type: 'message', text });
const SELECTION = { type: 'selection' };
const choose = (keep: number[], give?: number[]) => ({ type: 'choose', keep, ...(give ? { give } : {}) });
const obs = (env: ReturnType<typeof start>['env'], s: ReturnType<typeof start>['state'], v: number | 'public' | 'omniscient') =>
  env.observe(s, v) as DialogueObservation;

describe('dialogue protocol', () => {
  test('talk, move to selection, complementary private selections: agreement scored on own values', () => {
    const { env, state } = start({ protocol: 'dialogue', instance: LINE });
    const proposal = canonicalProposal(offerId([1, 0, 1]));
    expect(proposal).toBe("I'd like 1 book, 0 hats and 1 ball; you get the rest.");
    const talk = play(env, state, [say('hello! books matter to me.'), say('what do you want?'), say(proposal), say(DEAL_TEXT)]);
    expect(talk.events.map((e) => [e.type, e.visibility, e.data])).toEqual([
      ['message', 'public', { seat: 0, text: 'hello! books matter to me.' }],
      ['message', 'public', { seat: 1, text: 'what do you want?' }],
      ['message', 'public', { seat: 0, text: proposal }],
      ['message', 'public', { seat: 1, text: DEAL_TEXT }],
    ]);
    const o = obs(env, talk.state, 1);
    expect(o.proposal).toEqual({ seat: 0, keep: [1, 0, 1] });
    expect(o.accepted).toEqual({ seat: 0, keep: [1, 0, 1] });
    expect(o.phase).toBe('talk');

    const sel = play(env, talk.state, [SELECTION]);
    expect(sel.events).toEqual([{ type: 'selection', visibility: 'public', data: { seat: 0, reason: 'moved' } }]);
    expect(env.toAct(sel.state)).toEqual([0]);
    const first = play(env, sel.state, [choose([1, 0, 1], [0, 4, 0])]);
    expect(env.actionVisibility(sel.state, 0, choose([1, 0, 1]))).toEqual({ seat: 0 });
    // Seat 0's selection is private until both chose.
    expect(obs(env, first.state, 0).myChoice).toEqual({ keep: [1, 0, 1], give: [0, 4, 0] });
    expect(obs(env, first.state, 1).myChoice).toBeNull();
    expect(obs(env, first.state, 1).choices).toBeNull();
    expect(obs(env, first.state, 'public').chosen).toEqual([true, false]);
    expect(obs(env, first.state, 'omniscient').choices?.[0]).toEqual({ keep: [1, 0, 1], give: [0, 4, 0] });

    const end = play(env, first.state, [choose([0, 4, 0])]);
    expect(env.isTerminal(end.state)).toBe(true);
    expect(env.outcome(end.state)).toBe('agreement');
    expect(env.returns(end.state)).toEqual([4 + 2, 4 * 2]);
    expect(obs(env, end.state, 'public').choices).toEqual([
      { keep: [1, 0, 1], give: [0, 4, 0] },
      { keep: [0, 4, 0], give: [1, 0, 1] },
    ]);
    expect(obs(env, end.state, 'public').values).toBeNull();
  });

  test('selections that do not add up to the pool are a disagreement: 0 for both', () => {
    const { env, state } = start({ protocol: 'dialogue', instance: LINE });
    const end = play(env, state, [say('give me everything'), SELECTION, choose([1, 4, 1]), choose([0, 4, 0])]);
    expect(env.outcome(end.state)).toBe('disagreement');
    expect(env.returns(end.state)).toEqual([0, 0]);
    // Nothing said binds: a "Deal." does not make mismatched selections agree, and no talk is needed to agree.
    const silent = play(env, state, [SELECTION, choose([1, 0, 0]), choose([0, 4, 1])]);
    expect(env.outcome(silent.state)).toBe('agreement');
    expect(env.returns(silent.state)).toEqual([4, 8]);
  });

  test('no-agreement: only after max_turns messages, when the selection starts by itself', () => {
    const { env, state } = start({ protocol: 'dialogue', instance: LINE, max_turns: 2 });
    const early = play(env, state, [SELECTION]).state;
    expect(rejection(env, early, 0, { type: 'no-agreement' })).toMatch(/only after 2 messages/);
    const talk = play(env, state, [say('a'), say('b')]);
    expect(talk.events[talk.events.length - 1]).toEqual({ type: 'selection', visibility: 'public', data: { seat: null, reason: 'max_turns' } });
    expect(obs(env, talk.state, 0).phase).toBe('choose');
    expect(obs(env, talk.state, 0).noAgreementAllowed).toBe(true);
    expect(rejection(env, talk.state, 0, say('c'))).toMatch(/in the selection/);
    const end = play(env, talk.state, [{ type: 'no-agreement' }, choose([0, 4, 0])]);
    expect(env.outcome(end.state)).toBe('no-agreement');
    expect(env.returns(end.state)).toEqual([0, 0]);
  });

  test('rejects malformed actions with reasons', () => {
    const { env, state } = start({ protocol: 'dialogue', instance: LINE });
    expect(rejection(env, state, 0, say('   '))).toMatch(/non-empty "text"/);
    expect(rejection(env, state, 0, say('x'.repeat(1001)))).toMatch(/at most 1000 characters/);
    expect(rejection(env, state, 0, 'hello')).toMatch(/talk phase/);
    expect(rejection(env, state, 0, choose([1, 0, 0]))).toMatch(/talk phase/);
    expect(rejection(env, state, 1, say('hi'))).toMatch(/not to act/);
    const sel = play(env, state, [SELECTION]).state;
    expect(rejection(env, sel, 0, choose([2, 0, 0]))).toMatch(/within the pool \[1,4,1\]/);
    expect(rejection(env, sel, 0, choose([1, 0, 0], [0, 3, 1]))).toMatch(/"give" must be the rest of the pool, \[0,4,1\]/);
    expect(rejection(env, sel, 0, choose([1, 0, 0], [0, 4, 1]))).toBe('');
    expect(rejection(env, sel, 0, { type: 'choose' })).toMatch(/"keep" must be 3 item counts/);
  });

  test('coop mixes the dialogue scores too', () => {
    for (const [coop, expected] of [
      [1, [14, 14]],
      [-1, [-2, 2]],
    ] as const) {
      const { env, state } = start({ protocol: 'dialogue', instance: LINE, coop });
      const end = play(env, state, [SELECTION, choose([1, 0, 1]), choose([0, 4, 0])]).state;
      expect(env.returns(end)).toEqual(expected);
    }
  });

  test('max length: max_turns messages plus the two selections', () => {
    const { env, state } = start({ protocol: 'dialogue', instance: LINE, max_turns: 3 });
    const end = play(env, state, [say('a'), say('b'), say('c'), choose([0, 0, 0]), { type: 'no-agreement' }]).state;
    expect(env.isTerminal(end)).toBe(true);
    expect(env.maxLengthFor(env.resolveParams({ protocol: 'dialogue', max_turns: 3 }))).toBe(5);
  });

  test('the seat view shows own values only; the public view none; render speaks to text agents', () => {
    const { env, state } = start({ protocol: 'dialogue', instance: LINE });
    expect(obs(env, state, 0).values).toEqual([4, 1, 2]);
    expect(obs(env, state, 1).values).toEqual([2, 2, 0]);
    expect(obs(env, state, 0).allValues).toBeNull();
    expect(obs(env, state, 'public').values).toBeNull();
    expect(obs(env, state, 'omniscient').allValues).toEqual([[4, 1, 2], [2, 2, 0]]);
    const text = env.render(obs(env, state, 0));
    expect(text).toMatch(/Pool: 1 book, 4 hats and 1 ball\./);
    expect(text).toMatch(/Your values \(per item\): book 4, hat 1, ball 2/);
    expect(text).toMatch(/"type":"message"/);
    expect(env.render(obs(env, state, 'public'))).not.toMatch(/values/i);
  });

  test('observations list the encoder indices of the canonical legal actions (for masks)', () => {
    const { env, state } = start({ protocol: 'dialogue', instance: LINE, max_turns: 1 });
    const talk = obs(env, state, 0).legal;
    expect(talk).toHaveLength(2 * 5 * 2 + 2); // proposals fitting [1,4,1], "Deal.", selection
    expect(obs(env, state, 1).legal).toEqual([]);
    for (const i of talk) expect(env.validateAction(state, 0, actionOf(i)).ok).toBe(true);
    const choosing = play(env, state, [say('hi')]).state; // max_turns 1: selection starts, no-agreement allowed
    const sel = obs(env, choosing, 0).legal;
    expect(sel).toHaveLength(20 + 1);
    expect(sel).toContain(363);
    for (const i of sel) expect(env.validateAction(choosing, 0, actionOf(i)).ok).toBe(true);
  });
});
