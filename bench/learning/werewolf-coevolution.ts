/**
 * Werewolf co-evolution through the league (issue 17, "Also"): examples/leagues/
 * werewolf-coevolution.json — villagers (villager + seer + doctor, one network) and wolves as
 * learners, each training against the other's current policy, PFSP over the other's snapshots
 * and the rule-based side. Reported over time: each side's training win rate against each
 * source (the other side now, its snapshots, rule-based), and the probes: each learner's side
 * against the rule-based side on fresh games (greedy-free: policies sample, as in training).
 * The goal is a rising, non-cycling curve; cycling shows as win rates against the snapshots
 * that fall while those against the current opponent hold.
 *
 * Flags: --rounds=N (default 100), --episodes=N (default 48), --probe=N (probe games, default
 * 200), --seed=N (default 1).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '../../app/catalog';
import { Store } from '../../src/store/store';
import { parseLeagueConfig } from '../../league/config';
import { runLeague } from '../../league/league-run';
import { cpuSeconds, type TaskReport } from './common';

const EXAMPLE = join(resolve(__dirname, '..', '..', '..'), 'examples', 'leagues', 'werewolf-coevolution.json');

const flag = (name: string, dflt: number): number => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.slice(name.length + 3)) : dflt;
};

type Row = { iteration: number; role: string; metrics: Record<string, any> };
const f3 = (x: number | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(3) : '—');
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export async function werewolfCoevolution(quick: boolean): Promise<TaskReport> {
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  const rounds = flag('rounds', quick ? 2 : 100);
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, any>;
  const config = parseLeagueConfig({
    ...example,
    seed: flag('seed', 1),
    training: { ...example.training, episodes: flag('episodes', quick ? 6 : 48) },
    probes: example.probes.map((p: Record<string, unknown>) => ({ ...p, episodes: flag('probe', quick ? 4 : 200), every: quick ? 1 : p.every })),
    budget: { matches: rounds * example.training.every },
  });
  const dir = mkdtempSync(join(tmpdir(), 'arena-werewolf-coevo-'));
  const store = new Store(join(dir, 'league.db'));
  await runLeague({ config, store, registry: createRegistry(), log: (l) => console.error(l) });
  const rows = store.trainingMetrics(config.name) as Row[];
  store.close();
  const win = (role: string, group: string, source: string, it: number) => rows.find((r) => r.role === role && r.iteration === it)?.metrics.learners?.[group]?.winRate?.[source] as number | undefined;
  const probe = (id: string, team: string, it: number) => rows.find((r) => r.role === `probe:${id}` && r.iteration === it)?.metrics.envStats?.winRate?.[team] as number | undefined;
  const V = 'villager+seer+doctor';
  const W = 'werewolf';
  const every = config.probes[0]?.every ?? 5;
  console.log('\n### Werewolf co-evolution through the league (arena preset)\n');
  console.log(`${rounds} rounds x ${config.training.episodes} training games per side; training win rates are means over the ${every} rounds up to the one shown; probes: ${config.probes[0].episodes} games against the rule-based side.\n`);
  console.log('| round | villagers vs wolves (now) | vs wolf snapshots | vs rule-based wolves (training) | villagers vs rule-based (probe) | wolves vs villagers (now) | vs villager snapshots | vs rule-based villagers (training) | wolves vs rule-based (probe) |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const avg = (f: (it: number) => number | undefined, it: number) => mean(Array.from({ length: every }, (_, k) => f(it - k)).filter((x): x is number => typeof x === 'number'));
  const probeRounds: number[] = [];
  for (let it = every; it <= rounds; it += every) {
    probeRounds.push(it);
    console.log(
      `| ${it} | ${f3(avg((i) => win('villagers', V, 'wolves', i), it))} | ${f3(avg((i) => win('villagers', V, 'wolves-snapshots', i), it))} | ${f3(avg((i) => win('villagers', V, 'players', i), it))} | ${f3(probe('villagers-vs-rule-based', 'villagers', it))} | ${f3(avg((i) => win('wolves', W, 'villagers', i), it))} | ${f3(avg((i) => win('wolves', W, 'villagers-snapshots', i), it))} | ${f3(avg((i) => win('wolves', W, 'players', i), it))} | ${f3(probe('wolves-vs-rule-based', 'werewolves', it))} |`,
    );
  }
  const first = probeRounds[0] ?? 1;
  const last = probeRounds[probeRounds.length - 1] ?? rounds;
  const v0 = probe('villagers-vs-rule-based', 'villagers', first) ?? NaN;
  const v1 = probe('villagers-vs-rule-based', 'villagers', last) ?? NaN;
  const w0 = probe('wolves-vs-rule-based', 'werewolves', first) ?? NaN;
  const w1 = probe('wolves-vs-rule-based', 'werewolves', last) ?? NaN;
  return {
    task: `Werewolf co-evolution through the league (${rounds} rounds)`,
    targets: [
      { name: 'villagers vs rule-based wolves (probe), last minus first', value: v1 - v0, goal: '> 0', pass: v1 > v0 },
      { name: 'wolves vs rule-based villagers (probe), last minus first', value: w1 - w0, goal: '> 0', pass: w1 > w0 },
    ],
    notes: [`probe rounds ${first} -> ${last}: villagers ${f3(v0)} -> ${f3(v1)}, wolves ${f3(w0)} -> ${f3(w1)}`],
    wallSeconds: (performance.now() - wall0) / 1000,
    cpuSeconds: cpuSeconds() - cpu0,
    iterations: rounds,
    curve: rows.filter((r) => r.role.startsWith('probe:')).map((r) => ({ round: r.iteration, probe: r.role, winRate: r.metrics.envStats?.winRate ?? null })),
  };
}
