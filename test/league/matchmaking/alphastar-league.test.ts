import {
  beatsAllTargets,
  leagueExploiterOpponent,
  mainAgentOpponent,
  mainExploiterOpponent,
  resetsAfterSnapshot,
  snapshotsOf,
  withoutMonotonicSuffix,
  type LeagueView,
} from '../../../league/matchmaking/alphastar-league';
import { Rng } from '../../../src/core/rng';

type P = { id: string };
const ids = (...xs: string[]): P[] => xs.map((id) => ({ id }));

function view(win: Record<string, number>, extra: Partial<LeagueView<P>> = {}): LeagueView<P> {
  const parents: Record<string, string> = { 'main@1': 'main', 'main@2': 'main', 'main@3': 'main', 'mx@1': 'mx' };
  return {
    mains: ids('main'),
    mainExploiters: ids('mx'),
    historical: ids('base', 'main@1', 'main@2', 'main@3', 'mx@1'),
    parentOf: (id) => parents[id],
    winProbability: (a, b) => win[`${a}>${b}`] ?? 0.5,
    ...extra,
  };
}

describe('AlphaStar league rules', () => {
  test('main exploiter plays the main agent while it wins more than 10 % against it', () => {
    const v = view({ 'mx>main': 0.25 });
    expect(mainExploiterOpponent({ id: 'mx' }, v, Rng.fromSeed(1))).toEqual({ opponent: { id: 'main' }, branch: 'main' });
  });

  test('otherwise it trains against the main agent’s snapshots with f_var (curriculum)', () => {
    // P[win] vs main@1..3: 0.5, 0.1, 0.02 -> f_var 0.25, 0.09, 0.0196.
    const v = view({ 'mx>main': 0.05, 'mx>main@1': 0.5, 'mx>main@2': 0.1, 'mx>main@3': 0.02 });
    expect(snapshotsOf(v, 'main').map((p) => p.id)).toEqual(['main@1', 'main@2', 'main@3']);
    const rng = Rng.fromSeed(2);
    const counts: Record<string, number> = {};
    const N = 20000;
    for (let k = 0; k < N; k++) {
      const c = mainExploiterOpponent({ id: 'mx' }, v, rng);
      expect(c.branch).toBe('main-snapshots');
      counts[c.opponent.id] = (counts[c.opponent.id] ?? 0) + 1;
    }
    const total = 0.25 + 0.09 + 0.0196;
    expect(counts['main@1'] / N).toBeCloseTo(0.25 / total, 2);
    expect(counts['main@2'] / N).toBeCloseTo(0.09 / total, 2);
    // Without snapshots it plays the main agent anyway.
    expect(mainExploiterOpponent({ id: 'mx' }, { ...v, historical: ids('base') }, rng).opponent.id).toBe('main');
  });

  test('league exploiter: PFSP over all frozen players with min(0.5, 1 − x)', () => {
    const v = view({ 'lx>base': 0.9, 'lx>main@1': 0.7, 'lx>main@2': 0.2, 'lx>main@3': 0, 'lx>mx@1': 0.6 });
    // weights 0.1, 0.3, 0.5, 0.5, 0.4 over 1.8.
    const rng = Rng.fromSeed(3);
    const counts: Record<string, number> = {};
    const N = 20000;
    for (let k = 0; k < N; k++) {
      const id = leagueExploiterOpponent({ id: 'lx' }, v, rng).opponent.id;
      counts[id] = (counts[id] ?? 0) + 1;
    }
    expect(counts.base / N).toBeCloseTo(0.1 / 1.8, 2);
    expect(counts['main@1'] / N).toBeCloseTo(0.3 / 1.8, 2);
    expect(counts['main@3'] / N).toBeCloseTo(0.5 / 1.8, 2);
  });

  test('main agent: half PFSP against the league, the rest self-play / verification, reproducibly', () => {
    const v = view({ 'main>main': 0.5 });
    const run = (seed: number) => {
      const rng = Rng.fromSeed(seed);
      return Array.from({ length: 4000 }, () => mainAgentOpponent({ id: 'main' }, v, rng).branch);
    };
    const branches = run(4);
    expect(branches).toEqual(run(4));
    const share = (b: string) => branches.filter((x) => x === b).length / branches.length;
    expect(share('pfsp-all')).toBeGreaterThan(0.47);
    expect(share('pfsp-all')).toBeLessThan(0.53);
    // Every snapshot is won at 0.5 < 0.7 but the rates never rise, so nothing counts as forgotten.
    expect(share('verify-forgotten')).toBe(0);
    expect(share('self-play')).toBeGreaterThan(0.47);
  });

  test('main agent verifies against exploiters it loses to, and against forgotten snapshots', () => {
    const lost = view({ 'main>mx@1': 0.2, 'main>main': 0.5 });
    const rng = Rng.fromSeed(5);
    const b = Array.from({ length: 2000 }, () => mainAgentOpponent({ id: 'main' }, lost, rng));
    const verify = b.filter((c) => c.branch === 'verify-exploiters');
    expect(verify.length / b.length).toBeGreaterThan(0.12);
    expect(verify.every((c) => c.opponent.id === 'mx@1')).toBe(true);
    const forgot = view({ 'main>main@1': 0.4, 'main>main@2': 0.6, 'main>main@3': 0.5, 'main>mx@1': 0.9 });
    const f = Array.from({ length: 2000 }, () => mainAgentOpponent({ id: 'main' }, forgot, rng)).filter((c) => c.branch === 'verify-forgotten');
    expect(f.length).toBeGreaterThan(200);
    expect(new Set(f.map((c) => c.opponent.id))).toEqual(new Set(['main@1', 'main@2']));
  });

  test('withoutMonotonicSuffix keeps up to the last rise in win rate', () => {
    expect(withoutMonotonicSuffix([0.4, 0.6, 0.5], ['a', 'b', 'c'])).toEqual(['a', 'b']);
    expect(withoutMonotonicSuffix([0.9, 0.5, 0.3], ['a', 'b', 'c'])).toEqual([]);
    expect(withoutMonotonicSuffix([0.2, 0.3, 0.9], ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
  });

  test('snapshot and reset rules', () => {
    const wp = (a: string, b: string) => (b === 'x' ? 0.75 : 0.71);
    expect(beatsAllTargets('me', ids('x', 'y'), wp)).toBe(true);
    expect(beatsAllTargets('me', ids('x', 'y'), wp, 0.72)).toBe(false);
    expect(beatsAllTargets('me', [], wp)).toBe(false);
    const rng = Rng.fromSeed(6);
    expect(resetsAfterSnapshot('main-exploiter', rng)).toBe(true);
    expect(resetsAfterSnapshot('main', rng)).toBe(false);
    const resets = Array.from({ length: 4000 }, () => resetsAfterSnapshot('league-exploiter', rng)).filter(Boolean).length;
    expect(resets / 4000).toBeCloseTo(0.25, 1);
  });
});
