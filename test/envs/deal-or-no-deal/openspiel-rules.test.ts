import { AGREE, offerId, OFFERS, legalActionIds, type OpenSpielObservation, type OpenSpielState } from '../../../envs/deal-or-no-deal';
import { ParamError } from '../../../src/core/params';
import { make } from '../../../app/catalog';
import { jsonClone } from '../../../src/core/json';
import { ID, INSTANCE0, play, rejection, start } from './helpers';

// Instance 0: pool [1 book, 2 hats, 3 balls]; seat 0 values [8,1,0]; seat 1 values [4,0,2].

describe('openspiel protocol: OpenSpiel offer table', () => {
  test('120 offers in CreateOffers order (books count fastest), Agree = 120', () => {
    expect(OFFERS).toHaveLength(120);
    expect(AGREE).toBe(120);
    expect(OFFERS[0]).toEqual([0, 0, 0]);
    expect(OFFERS[1]).toEqual([1, 0, 0]);
    expect(OFFERS[7]).toEqual([7, 0, 0]);
    expect(OFFERS[8]).toEqual([0, 1, 0]);
    expect(OFFERS[14]).toEqual([6, 1, 0]);
    expect(OFFERS[15]).toEqual([0, 2, 0]);
    expect(OFFERS[16]).toEqual([1, 2, 0]);
    expect(OFFERS[35]).toEqual([0, 7, 0]);
    expect(OFFERS[36]).toEqual([0, 0, 1]);
    expect(OFFERS[85]).toEqual([0, 0, 3]);
    expect(OFFERS[119]).toEqual([0, 0, 7]);
    // Every count vector with sum <= 7, each exactly once, ordered by (balls, hats, books).
    const keys = OFFERS.map((o) => o[2] * 64 + o[1] * 8 + o[0]);
    for (let i = 1; i < keys.length; i++) expect(keys[i]).toBeGreaterThan(keys[i - 1]);
    expect(OFFERS.every((o) => o[0] + o[1] + o[2] <= 7)).toBe(true);
    expect(offerId([1, 2, 0])).toBe(16);
    expect(offerId([8, 0, 0])).toBe(-1);
  });
});

describe('openspiel protocol: legality and turn order', () => {
  test('offers that fit the pool, in id order; Agree only once an offer is on the table', () => {
    const { env, state } = start({ instance: INSTANCE0 });
    expect(env.toAct(state)).toEqual([0]);
    const legal = legalActionIds(state, 0);
    expect(legal).toHaveLength(2 * 3 * 4);
    expect(legal.slice(0, 4)).toEqual([0, 1, 8, 9]);
    expect(legal).not.toContain(AGREE);
    expect(legalActionIds(state, 1)).toEqual([]);
    expect((env.observe(state, 0) as OpenSpielObservation).legal).toEqual(legal);
    for (let a = 0; a <= AGREE; a++) expect(env.validateAction(state, 0, a).ok).toBe(legal.includes(a));
    expect(rejection(env, state, 0, AGREE)).toMatch(/needs an offer on the table/);
    expect(rejection(env, state, 0, 2)).toMatch(/more than the pool \[1,2,3\]/);
    expect(rejection(env, state, 1, 0)).toMatch(/not to act/);
    expect(rejection(env, state, 0, 121)).toMatch(/expected an action id/);
    expect(rejection(env, state, 0, '1')).toMatch(/expected an action id/);

    const after = play(env, state, [1]).state;
    expect(env.toAct(after)).toEqual([1]);
    const legal1 = legalActionIds(after, 1);
    expect(legal1[legal1.length - 1]).toBe(AGREE);
    expect(legal1.slice(0, -1)).toEqual(legal);
    expect(env.validateAction(after, 1, AGREE).ok).toBe(true);
    expect(rejection(env, after, 0, 0)).toMatch(/seat 0 is not to act/);
  });

  test('seats alternate from seat 0; step leaves its input untouched', () => {
    const { env, state } = start({ instance: INSTANCE0 });
    const before = JSON.stringify(state);
    let s = state;
    const order: number[] = [];
    for (let i = 0; i < 5; i++) {
      order.push(env.toAct(s)[0]);
      s = env.step(s, { [env.toAct(s)[0]]: 0 }).state;
    }
    expect(order).toEqual([0, 1, 0, 1, 0]);
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe('openspiel protocol: observations', () => {
  test('a seat sees its own values and the offer on the table; the public view no values', () => {
    const { env, state } = start({ instance: INSTANCE0 });
    const s = play(env, state, [85]).state;
    const o1 = env.observe(s, 1) as OpenSpielObservation;
    expect(o1).toMatchObject({ seat: 1, toAct: 1, pool: [1, 2, 3], values: [4, 0, 2], allValues: null, turn: 1, offers: [85] });
    expect(o1.lastOffer).toEqual({ seat: 0, keep: [0, 0, 3] });
    expect(o1.legal[o1.legal.length - 1]).toBe(AGREE);
    expect((env.observe(s, 0) as OpenSpielObservation).legal).toEqual([]);
    expect(env.observe(s, 'public')).toMatchObject({ values: null, allValues: null, legal: [] });
    expect((env.observe(s, 'omniscient') as OpenSpielObservation).allValues).toEqual([[8, 1, 0], [4, 0, 2]]);
    const text = env.render(o1);
    expect(text).toMatch(/120 = Agree to the last offer \(you would get 1 book, 2 hats and 0 balls, worth 4 to you\)/);
    expect(text).toMatch(/16 = offer to keep 1 book, 2 hats and 0 balls \(worth 4 to you\)/);
  });
});

describe('openspiel protocol: returns', () => {
  test('agreement: the proposer gets its value of what it keeps, the accepter its value of the rest', () => {
    const { env, state } = start({ instance: INSTANCE0 });
    // Seat 0 keeps the book (worth 8 to it); seat 1 agrees and gets 2 hats + 3 balls (0 + 6).
    const r1 = play(env, state, [1, AGREE]);
    expect(env.isTerminal(r1.state)).toBe(true);
    expect(env.outcome(r1.state)).toBe('agreement');
    expect(env.returns(r1.state)).toEqual([8, 6]);
    expect(r1.events.map((e) => e.type)).toEqual(['offer', 'agree', 'end']);
    // Seat 1 counters keeping the 3 balls (6); seat 0 agrees and gets book + 2 hats (8 + 2).
    const r2 = play(env, state, [1, 85, AGREE]);
    expect(env.returns(r2.state)).toEqual([10, 6]);
    // the deal as the summary states it: seat 1 proposed last, so it keeps the offer's items
    expect(env.summary(r2.state)).toMatchObject({ deal: [[1, 2, 0], [0, 0, 3]], scores: [10, 6] });
    expect(env.summary(r1.state)).toMatchObject({ deal: [[1, 0, 0], [0, 2, 3]], scores: [8, 6] });
    // offer and agree events carry who did what
    expect(r2.events.map((e) => [e.type, e.data])).toEqual([
      ['offer', { seat: 0, offer: 1, keep: [1, 0, 0] }],
      ['offer', { seat: 1, offer: 85, keep: [0, 0, 3] }],
      ['agree', { seat: 0, offer: 85 }],
      ['end', { outcome: 'agreement', offer: 85, keep: [0, 0, 3] }],
    ]);
  });

  test('discount applies exactly as OpenSpiel applies it (every action from the third on)', () => {
    // OpenSpiel's BargainingDiscountTest: four [0,0,0] offers, then seat 0 agrees: 0.9^3 * 10.
    const { env, state } = start({ instance: INSTANCE0, discount: 0.9 });
    const r = play(env, state, [0, 0, 0, 0, AGREE]).state;
    expect(env.returns(r)).toEqual([0.9 * 0.9 * 0.9 * 10, 0]);
    expect(env.returns(r)[0]).toBeCloseTo(7.29, 12);
    // Agreeing at the 2nd action: no discount; at the 3rd: one factor.
    expect(env.returns(play(env, state, [1, AGREE]).state)).toEqual([8, 6]);
    expect(env.returns(play(env, state, [1, 85, AGREE]).state)).toEqual([10 * 0.9, 6 * 0.9]);
    expect((env.observe(play(env, state, [1, 85, 1]).state, 0) as OpenSpielObservation).multiplier).toBe(0.9);
  });

  test('max_turns offers end the game without agreement, returns (0, 0)', () => {
    const { env, state } = start({ instance: INSTANCE0 });
    const ten = play(env, state, Array(10).fill(1));
    expect(env.isTerminal(ten.state)).toBe(true);
    expect(env.toAct(ten.state)).toEqual([]);
    expect(env.outcome(ten.state)).toBe('no-agreement');
    expect(env.returns(ten.state)).toEqual([0, 0]);
    expect(ten.events[ten.events.length - 1]).toEqual({ type: 'end', visibility: 'public', data: { outcome: 'no-agreement' } });
    const nine = play(env, state, Array(9).fill(1)).state;
    expect(env.validateAction(nine, 1, AGREE).ok).toBe(true);
    const one = start({ instance: INSTANCE0, max_turns: 1 });
    expect(one.env.isTerminal(play(one.env, one.state, [9]).state)).toBe(true);
    expect(make(ID, { max_turns: 7 }).env.maxLengthFor(make(ID, { max_turns: 7 }).params)).toBe(7);
  });
});

describe('openspiel protocol: prob_end chance ending', () => {
  test('prob_end = 1 ends the game at the first chance node: after the second offer', () => {
    const { env, state } = start({ instance: INSTANCE0, prob_end: 1 });
    const first = play(env, state, [1]);
    expect(first.events.map((e) => e.type)).toEqual(['offer']);
    expect(env.isTerminal(first.state)).toBe(false);
    const second = play(env, first.state, [85]);
    expect(second.events.map((e) => [e.type, e.data.outcome])).toEqual([['offer', undefined], ['chance', 'end'], ['end', 'chance-end']]);
    expect(env.outcome(second.state)).toBe('chance-end');
    expect(env.returns(second.state)).toEqual([0, 0]);
    // Agreeing before any chance node still works.
    expect(env.returns(play(env, state, [1, AGREE]).state)).toEqual([8, 6]);
  });

  test('chance nodes follow offers 2..max_turns-1, draw from the state rng, end with probability prob_end', () => {
    const { env, params } = make(ID, { prob_end: 0.25, max_turns: 10 });
    let chances = 0;
    let ends = 0;
    for (let seed = 0; seed < 1500; seed++) {
      let s = env.init(params, seed) as OpenSpielState;
      while (!env.isTerminal(s)) {
        const n = s.offers.length;
        const r = env.step(s, { [s.toAct]: 0 });
        const chance = r.events.filter((e) => e.type === 'chance');
        expect(chance.length).toBe(n >= 1 && n + 1 < 10 ? 1 : 0);
        chances += chance.length;
        ends += chance.filter((e) => e.data.outcome === 'end').length;
        s = r.state;
      }
    }
    const rate = ends / chances;
    expect(rate).toBeGreaterThan(0.22);
    expect(rate).toBeLessThan(0.28);
  });

  test('the chance outcome is a function of the state: same after a JSON round trip', () => {
    const { env, state } = start({ instance: INSTANCE0, prob_end: 0.5 }, 42);
    const mid = play(env, state, [1]).state;
    const a = env.step(mid, { 1: 85 });
    const b = env.step(jsonClone(mid), { 1: 85 });
    expect(b.events).toEqual(a.events);
    expect(b.state).toEqual(a.state);
  });
});

describe('coop objective', () => {
  test.each([
    [0, [8, 6]],
    [1, [14, 14]],
    [-1, [2, -2]],
    [0.5, [11, 10]],
  ])('coop %p: reward_i = own_i + coop * other_i on the (8, 6) agreement', (coop, expected) => {
    const { env, state } = start({ instance: INSTANCE0, coop });
    expect(env.returns(play(env, state, [1, AGREE]).state)).toEqual(expected);
    expect(env.returns(play(env, state, Array(10).fill(0)).state)).toEqual([0, 0]);
  });

  test('utility follows coop: zero-sum exactly at -1, general-sum otherwise', () => {
    const { env } = make(ID);
    expect(env.utilityFor(env.resolveParams({ coop: -1 }))).toBe('zero-sum');
    for (const coop of [-0.5, 0, 0.5, 1]) expect(env.utilityFor(env.resolveParams({ coop }))).toBe('general-sum');
  });

  test('coop mixes the discounted scores', () => {
    const { env, state } = start({ instance: INSTANCE0, coop: -1, discount: 0.5 });
    const r = env.returns(play(env, state, [1, 85, AGREE]).state);
    expect(r).toEqual([5 - 3, 3 - 5]);
    expect(r[0] + r[1]).toBe(0);
  });
});

describe('params', () => {
  test('bad params name the field and the allowed values', () => {
    expect(() => make(ID, { protocol: 'chat' })).toThrow(/param "protocol" must be one of "openspiel", "dialogue"/);
    expect(() => make(ID, { coop: 2 })).toThrow(/param "coop" must be a number in \[-1, 1\]/);
    expect(() => make(ID, { instance: 1000 })).toThrow(/param "instance" must be an index 0..999/);
    expect(() => make(ID, { instance: '1,2,3 8,1,0' })).toThrow(/param "instance" must look like/);
    expect(() => make(ID, { instance: '1,2,3 8,1,1 4,0,2' })).toThrow(/player 0's values must total 10/);
    expect(() => make(ID, { max_turns: 0 })).toThrow(/param "max_turns"/);
    const { env, params } = make(ID, { protocol: 'dialogue', discount: 0.9 });
    expect(() => env.init(params, 1)).toThrow(ParamError);
    expect(() => env.init(params, 1)).toThrow(/param "discount" applies only to protocol "openspiel"/);
  });

  test('instance by index, by line, or drawn from the seed', () => {
    expect(start({ instance: 0 }).state.inst.line).toBe(INSTANCE0);
    expect(start({ instance: 9 }).state.inst.line).toBe('1,2,2 2,3,1 4,0,3');
    expect(start({ instance: '1,4,1 4,1,2 2,2,0' }).state.inst.pool).toEqual([1, 4, 1]);
    const drawn = new Set(Array.from({ length: 50 }, (_, k) => start({}, k).state.inst.line));
    expect(drawn.size).toBeGreaterThan(40);
    expect(start({}, 5).state).toEqual(start({}, 5).state);
  });
});
