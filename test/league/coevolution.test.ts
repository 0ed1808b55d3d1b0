import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EventBus } from '../../src/bus/event-bus';
import { createRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import { Rng } from '../../src/core/rng';
import { Store } from '../../src/store/store';
import { FixedAgents } from '../../src/train/fixed-agents';
import { LeagueConfigError, parseLeagueConfig } from '../../league/config';
import { LearnerSources } from '../../league/episode-sources';
import { runLeague } from '../../league/league-run';
import { HeadToHead } from '../../league/matchmaking/head-to-head';

const PARAMS = { rules: 'tinyzero', roles: 'challenger-solver', attempts: 2, contract: { count: 3 } };

function raw(budget: number, extra: Record<string, unknown> = {}) {
  return {
    name: 'coevo',
    env: 'countdown-v1',
    params: PARAMS,
    seed: 4,
    players: [
      { id: 'random-valid', agent: 'random-valid', roles: ['challenger'] },
      { id: 'greedy', agent: 'greedy', roles: ['solver'] },
    ],
    learners: [
      {
        id: 'challenger',
        roles: ['challenger'],
        algorithm: 'grpo',
        options: { hidden: [8], groupSize: 1, actions: { challenger: [[91, 190], [191, 1189]] } },
        sources: [
          { kind: 'learner', of: 'solver' },
          { kind: 'snapshots', of: 'solver' },
        ],
        reward: { repetition: 0.5, invalidOutcomes: ['unsolvable'] },
      },
      {
        id: 'solver',
        roles: ['solver'],
        algorithm: 'grpo',
        options: { hidden: [8], groupSize: 1, actions: { solver: [[0, 90]] } },
        sources: [
          { kind: 'learner', of: 'challenger' },
          { kind: 'snapshots', of: 'challenger', pfsp: 'var' },
          { kind: 'generator', params: { roles: 'solver', attempts: 3 } },
        ],
      },
    ],
    training: { every: 4, episodes: 6, snapshotEvery: 1 },
    probes: [{ id: 'greedy', every: 1, episodes: 10, players: { challenger: 'challenger', solver: 'greedy' }, exclude: ['unsolvable'] }],
    matchmaking: { mode: 'random' },
    budget: { matches: budget },
    ...extra,
  };
}

type Row = { iteration: number; role: string; metrics: Record<string, unknown> };
const rowsOf = (store: Store): Row[] => store.trainingMetrics('coevo') as Row[];
/** What a run must reproduce (timings left out). */
const stable = (rows: Row[]) =>
  rows.map((r) => ({
    iteration: r.iteration,
    role: r.role,
    sources: r.metrics.sources,
    learners: r.metrics.learners,
    envStats: r.metrics.envStats,
  }));

describe('co-evolution through the league (Countdown challenger and solver)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arena-coevo-'));
  });

  test('learners train on their weighted sources, snapshot sources join once there are snapshots, probes are recorded, and a resumed league ends identical', async () => {
    const bus = new EventBus();
    const probeEvents: string[] = [];
    bus.ofType('training.iteration').subscribe((e) => {
      if (String(e.run).includes('probe:')) probeEvents.push(`${e.run}@${e.seq}`);
    });
    const store = new Store(join(dir, 'one.db'));
    await runLeague({ config: parseLeagueConfig(raw(12)), store, registry: createRegistry(), bus, backend: 'cpu' });
    const rows = rowsOf(store);
    const at = (role: string, it: number) => rows.find((r) => r.role === role && r.iteration === it)!.metrics as Record<string, any>;
    // round 1: no snapshot yet, so the snapshot source is left out and its share goes to the others
    expect(at('solver', 1).sources).toMatchObject({ challenger: { episodes: 3 }, generator: { episodes: 3 } });
    expect(at('solver', 1).sources['challenger-snapshots']).toBeUndefined();
    expect(at('challenger', 1).sources).toMatchObject({ solver: { episodes: 6 } });
    // later rounds: three sources, two episodes each
    for (const it of [2, 3]) {
      expect(at('solver', it).sources).toMatchObject({ challenger: { episodes: 2 }, 'challenger-snapshots': { episodes: 2 }, generator: { episodes: 2 } });
      expect(at('challenger', it).sources).toMatchObject({ solver: { episodes: 3 }, 'solver-snapshots': { episodes: 3 } });
    }
    // the generator's episodes are played under its params: no challenger, 3 attempts (the league's have 2)
    expect(at('solver', 2).sources.generator.envStats).toMatchObject({ puzzles: 2, attempts: 6, unsolvableProposals: 0 });
    expect(at('solver', 2).sources.challenger.envStats).toMatchObject({ puzzles: 2 });
    // the challenger's proposer reward ran on each batch
    for (const it of [1, 2, 3]) expect(at('challenger', it).learners.challenger.reward).toEqual(expect.objectContaining({ valid: expect.any(Number), meanPenalty: expect.any(Number) }));
    // probes: after every round, 10 episodes, the unsolvable ones left out of the aggregate
    for (const it of [1, 2, 3]) {
      const p = at('probe:greedy', it);
      expect(p.episodes).toBe(10);
      expect(p.kept).toBe(10 - (p.outcomes.unsolvable ?? 0));
      if (p.kept) expect(p.envStats).toMatchObject({ puzzles: p.kept, unsolvableProposals: 0 });
    }
    expect(probeEvents).toEqual(['coevo/probe:greedy@1', 'coevo/probe:greedy@2', 'coevo/probe:greedy@3']);
    const snaps = store.players('coevo').filter((p) => p.kind === 'snapshot').map((p) => p.id);
    expect(snaps).toEqual(['challenger-v1', 'solver-v1', 'challenger-v2', 'solver-v2', 'challenger-v3', 'solver-v3']);

    // the same league in two runs (a restart after 6 matches) records the same training
    const split = new Store(join(dir, 'two.db'));
    await runLeague({ config: parseLeagueConfig(raw(12)), store: split, registry: createRegistry(), backend: 'cpu', maxMatches: 6 });
    split.close();
    const resumed = new Store(join(dir, 'two.db'));
    await runLeague({ config: parseLeagueConfig(raw(12)), store: resumed, registry: createRegistry(), backend: 'cpu' });
    expect(stable(rowsOf(resumed))).toEqual(stable(rows));
    resumed.close();

    // PFSP over the snapshot population: with "var" the solver plays the challenger snapshot it
    // beats half the time far more often than the one it always beats
    const players = store.players('coevo');
    const registry = createRegistry();
    const { env, params } = registry.make('countdown-v1', PARAMS);
    const chSnaps = players.filter((p) => p.id.startsWith('challenger-v')).slice(0, 2);
    const h2h = new HeadToHead();
    h2h.record('solver', chSnaps[0].id, 1, 40);
    h2h.record('solver', chSnaps[1].id, 0.5, 40);
    const spec = parseLeagueConfig(raw(12)).learners[1];
    const sources = new LearnerSources({ ...spec, sources: [{ kind: 'snapshots', of: 'challenger', weight: 1, pfsp: 'var', p: 2 }] }, 1, {
      env,
      params,
      learnerModel: () => {
        throw new Error('not used');
      },
      learnerRoles: () => ['challenger'],
      snapshotsOf: () => chSnaps,
      baselines: [],
      fixed: await FixedAgents.create(registry, env, params, [], 2, 1),
    });
    const [snapSource] = sources.sources(h2h);
    const rng = Rng.fromSeed(9);
    const picks = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      const a = snapSource.opponent!(0, 'challenger', rng) as Agent;
      picks.set(a.name, (picks.get(a.name) ?? 0) + 1);
    }
    // weights: x(1 − x) with x = (40 + 0.5) / 41 ≈ 0.988 -> 0.012, and x = 0.5 -> 0.25: about 5% and 95%
    expect(picks.get(chSnaps[0].id) ?? 0).toBeLessThan(40);
    expect(picks.get(chSnaps[1].id) ?? 0).toBeGreaterThan(360);
    expect(snapSource.opponent!(1, 'solver', rng)).toBeNull(); // a challenger snapshot cannot sit in the solver's seat

    // the newest `last` snapshots only; "uniform" ignores the results
    const none = await FixedAgents.create(registry, env, params, [], 2, 1);
    const pick = (src: { kind: 'snapshots'; of: string; weight: number; pfsp: 'var' | 'uniform'; p: number; last?: number }) => {
      const [one] = new LearnerSources({ ...spec, sources: [src] }, 1, { env, params, learnerModel: () => { throw new Error('not used'); }, learnerRoles: () => ['challenger'], snapshotsOf: () => chSnaps, baselines: [], fixed: none }).sources(h2h);
      const n = new Map<string, number>();
      for (let i = 0; i < 400; i++) {
        const a = one.opponent!(0, 'challenger', rng) as Agent;
        n.set(a.name, (n.get(a.name) ?? 0) + 1);
      }
      return n;
    };
    expect([...pick({ kind: 'snapshots', of: 'challenger', weight: 1, pfsp: 'var', p: 2, last: 1 }).keys()]).toEqual([chSnaps[1].id]);
    const uniform = pick({ kind: 'snapshots', of: 'challenger', weight: 1, pfsp: 'uniform', p: 2 });
    expect(uniform.get(chSnaps[0].id)).toBeGreaterThan(150);
    expect(uniform.get(chSnaps[1].id)).toBeGreaterThan(150);

    // baselines: only the named players, only in seats of their roles; another learner only in its roles
    const baselines = players.filter((p) => p.kind === 'baseline');
    const fixed = await FixedAgents.create(registry, env, params, baselines.map((p) => p.agent), 2, 1);
    const mixed = new LearnerSources(
      { ...spec, sources: [{ kind: 'players', weight: 1, ids: ['random-valid'] }, { kind: 'learner', of: 'challenger', weight: 1 }] },
      1,
      { env, params, learnerModel: () => { throw new Error('not used'); }, learnerRoles: () => ['challenger'], snapshotsOf: () => [], baselines, fixed },
    ).sources(h2h);
    expect(mixed.map((x) => x.label)).toEqual(['players', 'challenger']);
    expect(mixed[0].opponent!(0, 'challenger', rng)).toBe(fixed.get('random-valid', 0, 'challenger'));
    expect(mixed[0].opponent!(1, 'solver', rng)).toBeNull(); // greedy plays the solver but is not named
    expect(mixed[1].opponent!(1, 'solver', rng)).toBeNull();
    store.close();
  });

  test('bad sources and probes are one-line config errors naming the field', async () => {
    const withLearner = (i: number, patch: Record<string, unknown>) => {
      const r = raw(4);
      r.learners[i] = { ...r.learners[i], ...patch } as (typeof r.learners)[number];
      return r;
    };
    expect(() => parseLeagueConfig(withLearner(1, { sources: [{ kind: 'learner', of: 'solver' }] }))).toThrow('learners.1.sources.0.of: "solver" is not another learner of this league (challenger)');
    expect(() => parseLeagueConfig(withLearner(1, { sources: [{ kind: 'snapshots', of: 'nobody' }] }))).toThrow('learners.1.sources.0.of: "nobody" is not a learner');
    expect(() => parseLeagueConfig(withLearner(1, { sources: [{ kind: 'players', ids: ['exact'] }] }))).toThrow('learners.1.sources.0.ids: "exact" is not a player');
    expect(() => parseLeagueConfig(withLearner(1, { sources: [{ kind: 'generator', weight: 0 }] }))).toThrow('learners.1.sources: every weight is 0');
    expect(() => parseLeagueConfig(withLearner(1, { sources: [{ kind: 'teacher' }] }))).toThrow(LeagueConfigError);
    expect(() => parseLeagueConfig(withLearner(1, { sources: [{ kind: 'generator', weight: -1 }] }))).toThrow('learners.1.sources.0.weight');
    expect(() => parseLeagueConfig(withLearner(0, { reward: { similarity: 2 } }))).toThrow('learners.0.reward.similarity');
    expect(() => parseLeagueConfig(raw(4, { probes: [{ id: 'p', players: { solver: 'nobody' } }] }))).toThrow('probes.0.players.solver: "nobody" is not a player or learner');

    const run = (r: Record<string, unknown>) => runLeague({ config: parseLeagueConfig(r), store: new Store(join(dir, `bad-${Math.random()}.db`)), registry: createRegistry(), backend: 'cpu' });
    await expect(run(withLearner(1, { sources: [{ kind: 'generator', params: { attempts: 99 } }] }))).rejects.toThrow(/^league config: learners\.1\.sources\.0\.params: .*attempts/);
    await expect(run(raw(4, { probes: [{ id: 'p', players: { challenger: 'challenger' } }] }))).rejects.toThrow('league config: probes.0.players: no player for role "solver"');
    await expect(run(raw(4, { probes: [{ id: 'p', players: { challenger: 'challenger', solver: 'greedy', evaluator: 'greedy' } }] }))).rejects.toThrow('probes.0.players.evaluator: not a role with a seat here');
  });

  test('examples/leagues/countdown-coevolution.json runs: both learners train on their sources, the probe is recorded', async () => {
    const example = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'examples', 'leagues', 'countdown-coevolution.json'), 'utf8')) as Record<string, any>;
    const small = (l: Record<string, any>) => ({ ...l, options: { ...l.options, hidden: [8] } });
    const config = parseLeagueConfig({
      ...example,
      learners: example.learners.map(small),
      training: { ...example.training, every: 5, episodes: 8 },
      probes: example.probes.map((p: Record<string, unknown>) => ({ ...p, every: 1, episodes: 5 })),
      budget: { matches: 10 },
    });
    const store = new Store(join(dir, 'example.db'));
    await runLeague({ config, store, registry: createRegistry(), backend: 'cpu' });
    const rows = (store.trainingMetrics(config.name) as Row[]).filter((r) => r.iteration === 2);
    store.close();
    expect(rows.map((r) => r.role).sort()).toEqual(['challenger', 'probe:greedy', 'solver']);
    const solver = rows.find((r) => r.role === 'solver')!.metrics as Record<string, any>;
    expect(Object.keys(solver.sources).sort()).toEqual(['challenger', 'generator']); // no snapshot before round 5
  });

  test('examples/leagues/werewolf-coevolution.json runs: villagers and wolves train against each other, their snapshots and the rule-based side', async () => {
    const example = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'examples', 'leagues', 'werewolf-coevolution.json'), 'utf8')) as Record<string, any>;
    const config = parseLeagueConfig({
      ...example,
      learners: example.learners.map((l: Record<string, any>) => ({ ...l, options: { ...l.options, hidden: [8] } })),
      training: { ...example.training, every: 3, episodes: 6, snapshotEvery: 1 },
      probes: example.probes.map((p: Record<string, unknown>) => ({ ...p, every: 2, episodes: 4 })),
      budget: { matches: 6 },
    });
    const store = new Store(join(dir, 'werewolf.db'));
    await runLeague({ config, store, registry: createRegistry(), backend: 'cpu' });
    const rows = store.trainingMetrics(config.name) as Row[];
    store.close();
    const at = (role: string, it: number) => rows.find((r) => r.role === role && r.iteration === it)?.metrics as Record<string, any> | undefined;
    expect(Object.keys(at('villagers', 1)!.learners['villager+seer+doctor'].winRate).sort()).toEqual(['players', 'wolves']);
    expect(Object.keys(at('villagers', 2)!.sources).sort()).toEqual(['players', 'wolves', 'wolves-snapshots']);
    expect(Object.keys(at('wolves', 2)!.learners.werewolf.winRate).sort()).toEqual(['players', 'villagers', 'villagers-snapshots']);
    expect(at('probe:villagers-vs-rule-based', 1)).toBeUndefined();
    expect(at('probe:villagers-vs-rule-based', 2)!.envStats).toMatchObject({ games: 4, winRate: { villagers: expect.any(Number), werewolves: expect.any(Number) } });
    expect(at('probe:wolves-vs-rule-based', 2)!.episodes).toBe(4);
    // roles are dealt per game (hidden roles): each seat's player is chosen by the seat's role in that game, so nobody forfeits
    for (const id of ['villagers-vs-rule-based', 'wolves-vs-rule-based']) expect(at(`probe:${id}`, 2)!.outcomes.forfeit).toBeUndefined();
  });
});
