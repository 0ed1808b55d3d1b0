/**
 * The payoff experiment's plumbing (bench/learning/payoff): three arms derived from one
 * example league at equal samples, exploitability and a held-out panel per arm, and a killed
 * run that continues where it stopped and ends with the results of an uninterrupted one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '../../app/catalog';
import { armConfig, episodesPerRound } from '../../bench/learning/payoff/arms';
import { payoffSteps, runPayoff, runStep, type ArmResult, type PayoffEnvSpec, type PayoffRun, type PayoffScale } from '../../bench/learning/payoff/experiment';
import { parseLeagueConfig } from '../../league/config';
import { checkScale, exampleFlag } from '../../bench/learning/payoff/index';
import { exploiterCurves } from '../../bench/learning/payoff/exploiter-curve';

const RPS = resolve(__dirname, '..', '..', 'examples', 'rock-paper-scissors.js');
const example = {
  name: 'rps-payoff',
  env: RPS,
  params: { rounds: 2 },
  seed: 1,
  players: [{ id: 'counter-last', agent: 'counter-last' }],
  learners: [
    {
      id: 'main',
      roles: ['player'],
      options: { hidden: [8], episodesPerIteration: 12 },
      sources: [
        { kind: 'self', weight: 1 },
        { kind: 'snapshots', of: 'main', weight: 1 },
        { kind: 'snapshots', of: 'exploiter', weight: 1 },
      ],
    },
    { id: 'exploiter', roles: ['player'], type: 'main-exploiter', snapshotEvery: 2, reset: { winRate: 1, timeout: 2 }, options: { hidden: [8], episodesPerIteration: 4 }, sources: [{ kind: 'learner', of: 'main', weight: 1 }] },
  ],
  training: { every: 3, episodes: 16, snapshotEvery: 2 },
  probes: [{ id: 'x', players: { player: 'main' } }],
  matchmaking: { mode: 'pfsp' },
  budget: { matches: 99 },
};
const scale: PayoffScale = { rounds: 4, episodes: 16, every: 3, equal: 'total', exploit: { iterations: 10, episodes: 8, evalEpisodes: 20 }, panelEpisodes: 6 };

let file: string;
const spec = (): PayoffEnvSpec => ({
  key: 'rps',
  title: 'rock-paper-scissors',
  example: file,
  mains: ['main'],
  scripted: ['counter-last'],
  selfPlay: () => [{ kind: 'self', weight: 1 }],
  exploitOptions: { hidden: [8] },
  panel: [{ name: 'random', refs: ['random'] }],
});
beforeAll(() => {
  file = join(mkdtempSync(join(tmpdir(), 'arena-payoff-ex-')), 'rps-payoff.json');
  writeFileSync(file, JSON.stringify(example));
});

describe('the three arms', () => {
  test('fixed: scripted players only; self-play: the latest self; league: the example; equal total samples', () => {
    const s = spec();
    const fixed = armConfig(example, s, 'fixed', 2, scale);
    expect(fixed.learners.map((l: { id: string }) => l.id)).toEqual(['main']);
    expect(fixed.learners[0].sources).toEqual([{ kind: 'players', weight: 1, ids: ['counter-last'] }]);
    expect(fixed).toMatchObject({ name: 'rps-payoff-fixed-2', seed: 2, probes: [], budget: { matches: 12 }, training: { every: 3, episodes: 16 } });
    const self = armConfig(example, s, 'self-play', 2, scale);
    expect(self.learners[0].sources).toEqual([{ kind: 'self', weight: 1 }]);
    const league = armConfig(example, s, 'league', 2, scale);
    expect(league.learners.map((l: { id: string }) => l.id)).toEqual(['main', 'exploiter']);
    for (const c of [fixed, self, league]) expect(() => parseLeagueConfig(c)).not.toThrow();
    expect([fixed, self, league].map((c) => episodesPerRound(c, s))).toEqual([
      { main: 16, total: 16 },
      { main: 16, total: 16 },
      { main: 12, total: 16 },
    ]);
    // equal main samples: the league's exploiter trains on top
    expect(episodesPerRound(armConfig(example, s, 'league', 2, { ...scale, equal: 'main' }), s)).toEqual({ main: 16, total: 20 });
    // scaled: the example's 12 + 4 of 16 become 24 + 8 of 32
    expect(episodesPerRound(armConfig(example, s, 'league', 2, { ...scale, episodes: 32 }), s)).toEqual({ main: 24, total: 32 });
  });

  test('steps: every arm trains, then is exploited; the panels wait for every training', () => {
    const steps = payoffSteps([1, 2]);
    expect(steps).toHaveLength(18);
    expect(steps.find((x) => x.key === 'exploit-league-2')!.after).toEqual(['train-league-2']);
    expect(steps.find((x) => x.key === 'panel-fixed-1')!.after).toHaveLength(6);
  });
});

describe('a payoff run', () => {
  const file = (p: string) => p.split('/').pop();
  const strip = (rs: ArmResult[]) =>
    rs.map((r) => ({ ...r, train: { ...r.train, cpu: 0, policies: r.train.policies.map(file) }, exploit: { ...r.exploit, cpu: 0, target: file(r.exploit.target) }, panel: { ...r.panel, cpu: 0 } }));

  test('killed during a league and during an exploiter, rerun twice: it resumes, skips finished steps, and ends with the uninterrupted results', async () => {
    const registry = createRegistry();
    const base = (dir: string, signal?: AbortSignal, log?: (l: string) => void): PayoffRun => ({ spec: spec(), scale, seeds: [1, 2], dir, registry, backend: 'cpu', signal, log });
    const wholeDir = mkdtempSync(join(tmpdir(), 'arena-payoff-whole-'));
    const whole = (await runPayoff(base(wholeDir)))!;
    expect(whole.map((r) => `${r.arm}-${r.seed}`)).toEqual(['fixed-1', 'self-play-1', 'league-1', 'fixed-2', 'self-play-2', 'league-2']);
    for (const r of whole) {
      expect(r.train.episodes).toEqual(r.arm === 'league' ? { main: 48, total: 64 } : { main: 64, total: 64 });
      expect(r.exploit.trainingEpisodes).toBe(80);
      expect(r.exploit.episodes).toBe(20);
      // seed 1's panel: the scripted member and the three final policies of seed 2
      expect(Object.keys(r.panel.members)).toEqual(['random', ...['fixed', 'self-play', 'league'].map((a) => `${a}-seed${3 - r.seed}`)]);
    }

    const dir = mkdtempSync(join(tmpdir(), 'arena-payoff-cut-'));
    const cut = (pattern: RegExp) => {
      const stop = new AbortController();
      return base(dir, stop.signal, (l) => pattern.test(l) && stop.abort());
    };
    expect(await runPayoff(cut(/league-2: \d+\/12 league matches/))).toBeNull(); // inside the league arm of seed 2
    expect(await runPayoff(cut(/exploit self-play-1: iteration 10/))).toBeNull(); // after the exploiter's training, before its evaluation
    const ran: string[] = [];
    const r = base(dir);
    const resumed = (await runPayoff(r, 1, (key) => (ran.push(key), runStep(r, key))))!;
    expect(ran).not.toContain('train-fixed-1'); // finished before the first kill
    expect(ran).toContain('exploit-self-play-1');
    expect(strip(resumed)).toEqual(strip(whole));

    // the league arm's exploiter, read back from the league databases: reset by its timeout (2) at iterations 2 and 4
    const curves = exploiterCurves(wholeDir, (seed) => `rps-payoff-league-${seed}`, [1, 2, 3], [{ id: 'exploiter', targets: ['main'] }], 2);
    expect(curves.map((c) => c.seed)).toEqual([1, 2]); // seed 3 has no database
    for (const c of curves) {
      expect(c.resets).toEqual([{ iteration: 2, reason: 'timeout', winRate: expect.any(Number) }, { iteration: 4, reason: 'timeout', winRate: expect.any(Number) }]);
      expect(c.means).toHaveLength(2);
      for (const x of [...c.means, ...c.resets.map((r) => r.winRate)]) expect(x >= 0 && x <= 1).toBe(true);
    }
    expect(exploiterCurves(wholeDir, (seed) => `rps-payoff-league-${seed}`, [1], [{ id: 'nobody', targets: ['main'] }])).toEqual([]);
  });
});

describe('payoff flags', () => {
  const scale: PayoffScale = { rounds: 2, episodes: 4, every: 2, equal: 'total', exploit: { iterations: 1, episodes: 4, evalEpisodes: 4 }, panelEpisodes: 2 };

  test('--example needs exactly one env and an existing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-payoff-flag-'));
    const file = join(dir, 'variant.json');
    writeFileSync(file, '{}');
    expect(exampleFlag(['dond'], undefined)).toBeUndefined();
    expect(exampleFlag(['dond'], file)).toBe(file);
    expect(() => exampleFlag(['dond', 'werewolf'], file)).toThrow(/--example: give one --env/);
    expect(() => exampleFlag(['dond'], join(dir, 'missing.json'))).toThrow(/--example: no file .*missing\.json/);
  });

  test('a run folder refuses another scale or another example, and accepts the same again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-payoff-scale-'));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(a, '{"name":"a"}');
    writeFileSync(b, '{"name":"b"}');
    checkScale(join(dir, 'run'), scale, [1], a);
    expect(() => checkScale(join(dir, 'run'), scale, [1], a)).not.toThrow();
    expect(() => checkScale(join(dir, 'run'), scale, [1], b)).toThrow(/another scale or example/);
    expect(() => checkScale(join(dir, 'run'), scale, [1])).toThrow(/another scale or example/);
    expect(() => checkScale(join(dir, 'run'), { ...scale, rounds: 3 }, [1], a)).toThrow(/another scale or example/);
  });
});
