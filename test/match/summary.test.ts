import { ENV_SAMPLE, SeriesTally, summarize } from '../../src/match/summary';
import type { MatchResult } from '../../src/match/runner';
import type { JsonValue } from '../../src/core/json';
import { rps } from '../fixtures/load';

const result = (i: number, code: 'ok' | 'forfeit' = 'ok'): MatchResult =>
  ({ returns: [i % 2, -(i % 2)], outcome: i % 2 ? 'player0' : 'tie', code, length: 3, decisions: 6, faults: [], summary: { i } }) as unknown as MatchResult;

describe('series summary (issue 15 item 6: constant memory over any number of episodes)', () => {
  test('counts and means match the batch summary', () => {
    const env = rps();
    const results = Array.from({ length: 9 }, (_, i) => result(i, i === 4 ? 'forfeit' : 'ok'));
    const tally = new SeriesTally(env);
    for (const r of results) tally.add(r);
    expect(tally.summary()).toEqual(summarize(env, results));
    expect(tally.summary()).toMatchObject({ episodes: 9, meanReturns: [4 / 9, -4 / 9], codes: { ok: 8, forfeit: 1 }, meanLength: 3, meanDecisions: 6 });
  });

  test('the env aggregate sees every completed episode up to ENV_SAMPLE, then a uniform sample of that many', () => {
    const seen: number[] = [];
    const env = { ...rps(), aggregate: (s: readonly JsonValue[]) => (seen.push(s.length), { n: s.length, mean: s.reduce((t: number, x) => t + (x as { i: number }).i, 0) / s.length }) };
    const tally = new SeriesTally(env);
    for (let i = 0; i < 100; i++) tally.add(result(i));
    expect(tally.summary().env).toEqual({ n: 100, mean: 49.5 });
    expect(tally.summary().envEpisodes).toBeUndefined();
    const total = 3 * ENV_SAMPLE;
    for (let i = 100; i < total; i++) tally.add(result(i));
    const s = tally.summary();
    expect(s.episodes).toBe(total);
    expect(s.envEpisodes).toBe(ENV_SAMPLE);
    expect(s.env!.n).toBe(ENV_SAMPLE); // memory bounded: not every summary is kept
    expect(Math.abs((s.env!.mean as number) - (total - 1) / 2)).toBeLessThan(total * 0.02); // a uniform sample
  });
});
