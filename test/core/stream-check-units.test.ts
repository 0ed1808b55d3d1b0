/**
 * The view-stream check in detail (issue 20): exact problems and notes on the seer fixtures,
 * which viewers are compared (the public and seats outside the owner's team), sampling, and
 * variants whose continuation cannot be played.
 */
import { playout, type Trace } from '../../src/core/conformance/playout';
import { checkViewStream } from '../../src/core/conformance/stream-check';
import type { Env } from '../../src/core/env';
import type { MatchEvent } from '../../src/core/events';
import { normalizeEnv } from '../../src/core/normalize-env';
import { Rng } from '../../src/core/rng';
import { canSee, type TeamOf, type Viewer } from '../../src/core/visibility';
import { makeHiddenCardTs, makeSeerEnv } from './conformance-fixtures';

const tracesOf = (env: Env, seeds = [1, 2, 3]): Trace[] => seeds.map((seed) => playout(env, {}, seed, Rng.fromSeed(seed), { limit: 4, keepStates: true }));
/** The pre-issue-15 projection: a filter that keeps the log's global numbers. */
const globalNumbers = (events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf) => events.filter((e) => canSee(e.visibility, viewer, teamOf));
/** The seer env with every seat on a team of its own (so other seats are compared too). */
const ownTeams = (env: Env): Env => ({ ...env, seats: () => [0, 1, 2].map((i) => ({ role: 'player', team: `t${i}` })) });

test('nothing to compare: perfect information, or no private variants', () => {
  const card = makeHiddenCardTs({});
  const perfect = normalizeEnv({ ...card, meta: { ...card.meta, information: 'perfect' } } as never);
  expect(checkViewStream(perfect, [], 1)).toEqual({ problems: [], notes: ['perfect information: nothing to hide'] });
  const blind = normalizeEnv({ ...card, privateVariants: undefined } as never);
  expect(checkViewStream(blind, [], 1)).toEqual({ problems: [], notes: ['no privateVariants: see the leak check'] });
});

test('a public turn that names only the seer: every problem, with the step, event and owner (at most 8)', () => {
  const loud = makeSeerEnv(false);
  const r = checkViewStream(loud, tracesOf(loud), 1);
  const at = (seed: number, step: number, turnStep: number, event: number, owner: number) =>
    `episode seed ${seed} step ${step}: the public stream asks different seats to act at step ${turnStep} (event ${event}) before that seat acted differently, when only seat ${owner}'s private information changes`;
  expect(r).toEqual({
    problems: [at(1, 0, 0, 0, 1), at(1, 1, 1, 2, 1), at(1, 2, 0, 0, 1), at(2, 0, 0, 0, 2), at(2, 1, 1, 2, 2), at(2, 2, 0, 0, 2), at(3, 0, 0, 0, 0), at(3, 1, 1, 2, 0)],
    notes: ['10 state/variant pairs played 40 steps on and compared per view'],
  });
});

test('the quiet seer passes; sampleEvery thins the sampled states', () => {
  const quiet = makeSeerEnv(true);
  const traces = tracesOf(quiet);
  expect(checkViewStream(quiet, traces, 1)).toEqual({ problems: [], notes: ['12 state/variant pairs played 40 steps on and compared per view'] });
  expect(checkViewStream(quiet, traces, 2).notes).toEqual(['6 state/variant pairs played 40 steps on and compared per view']);
  expect(checkViewStream(quiet, traces, 4).notes).toEqual(['3 state/variant pairs played 40 steps on and compared per view']);
});

test('numbering that counts hidden events is caught for the public view first', () => {
  const quiet = makeSeerEnv(true);
  const r = checkViewStream(quiet, tracesOf(quiet, [1]), 1, globalNumbers);
  expect(r.problems[0]).toBe("episode seed 1 step 0: the public stream numbers event 1 (turn) 5 vs 4, so its numbering counts hidden events, when only seat 1's private information changes");
});

test('seats outside the owner\'s team are compared too; the owner\'s team mates are not', () => {
  const noPublic = (events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf) => (viewer === 'public' ? [] : globalNumbers(events, viewer, teamOf));
  const quiet = makeSeerEnv(true);
  expect(checkViewStream(quiet, tracesOf(quiet, [1]), 1, noPublic).problems).toEqual([]);
  const split = ownTeams(quiet);
  const r = checkViewStream(split, tracesOf(split, [1]), 1, noPublic);
  expect(r.problems[0]).toBe("episode seed 1 step 0: the seat 0 stream numbers event 2 (turn) 5 vs 4, so its numbering counts hidden events, when only seat 1's private information changes");
  expect(r.problems.some((p) => p.includes('the seat 1 stream'))).toBe(false);
});

test('a variant whose step refuses stops that comparison; the real state\'s step failing is an error', () => {
  const quiet = makeSeerEnv(true);
  const picky = { ...quiet, step: (s: { seer: number }, a: Record<number, unknown>) => { if (s.seer < 0) throw new Error('no seer'); return quiet.step(s, a); } };
  expect(checkViewStream(picky, tracesOf(quiet), 1).problems).toEqual([]);
  let calls = 0;
  const broken = { ...quiet, step: (s: unknown, a: Record<number, unknown>) => { if (++calls > 0) throw new Error('real step broke'); return quiet.step(s, a); } };
  expect(() => checkViewStream(broken, tracesOf(quiet), 1)).toThrow('real step broke');
});

test('no sampled state (states not kept): nothing compared', () => {
  const quiet = makeSeerEnv(true);
  const t = tracesOf(quiet, [1]).map((tr) => ({ ...tr, states: [] }));
  expect(checkViewStream(quiet, t, 1)).toEqual({ problems: [], notes: ['0 state/variant pairs played 40 steps on and compared per view'] });
});

test('a phase label (turn events) named after a secret is caught; one named after public facts passes', () => {
  const quiet = makeSeerEnv(true);
  type S = { seer: number; night: boolean; round: number };
  const telling = normalizeEnv({ ...quiet, meta: { ...quiet.meta }, phase: (s: S) => (s.night ? `night, seer ${s.seer >= 0 ? 'alive' : 'gone'}` : 'day') } as never);
  const r = checkViewStream(telling, tracesOf(telling, [1]), 1);
  expect(r.problems[0]).toBe(
    'episode seed 1 step 0: the public stream labels step 0 (event 0) with phase "night, seer alive" vs "night, seer gone" before that seat acted differently, when only seat 1\'s private information changes',
  );
  const honest = normalizeEnv({ ...quiet, meta: { ...quiet.meta }, phase: (s: S) => `${s.night ? 'night' : 'day'} ${s.round + 1}` } as never);
  expect(checkViewStream(honest, tracesOf(honest), 1).problems).toEqual([]);
});
