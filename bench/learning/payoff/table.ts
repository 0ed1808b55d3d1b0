/**
 * The payoff tables: per seed and arm, the exploiter's win rate against the arm's final policy
 * (lower: harder to exploit) and the policy's win rate against the held-out panel (higher:
 * better), each with its bootstrap interval over episodes; then the paired differences of the
 * league arm against each other arm over seeds (mean and 95% t interval), and the goal check.
 */
import { relative } from 'node:path';
import { formatEstimate, tInterval, type Estimate } from '../../../league/exploit/interval';
import { ARMS, type Arm } from './arms';
import type { ArmResult, PayoffEnvSpec, PayoffScale } from './experiment';

const f = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const interval = (e: Estimate) => `${f(e.mean)} [${f(e.lo)}, ${f(e.hi)}]`;

/** Paired differences `a − b` of a measure over the seeds both arms have. */
function paired(results: readonly ArmResult[], a: Arm, b: Arm, measure: (r: ArmResult) => number): Estimate {
  const seeds = [...new Set(results.map((r) => r.seed))];
  const d = seeds.flatMap((s) => {
    const x = results.find((r) => r.seed === s && r.arm === a);
    const y = results.find((r) => r.seed === s && r.arm === b);
    return x && y ? [measure(x) - measure(y)] : [];
  });
  return tInterval(d);
}

/** Whether the issue's goal holds: the league arm less exploitable than both others (paired 95% excluding 0) and not worse on the panel. */
export function goalMet(results: readonly ArmResult[]): { exploit: boolean; panel: boolean } {
  const ex = (['fixed', 'self-play'] as Arm[]).map((b) => paired(results, 'league', b, (r) => r.exploit.winRate.mean));
  const pa = (['fixed', 'self-play'] as Arm[]).map((b) => paired(results, 'league', b, (r) => r.panel.overall.winRate.mean));
  return { exploit: ex.every((e) => e.hi < 0), panel: pa.every((e) => !(e.hi < 0)) };
}

/** Prints the tables of one env's run. */
export function printPayoff(spec: PayoffEnvSpec, scale: PayoffScale, results: readonly ArmResult[], load: string): void {
  console.log(`\n### Payoff: ${spec.title}\n`);
  console.log(
    `Arms derived from ${relative(process.cwd(), spec.example)}. Each arm: ${scale.rounds} training rounds x ${scale.episodes} episodes per main learner (equal ${scale.equal === 'total' ? 'total samples: the league arm\'s exploiters take their share of them' : 'main-learner samples: the league arm\'s exploiters train on top'}), ${scale.every} league matches a round. ` +
      `Exploitability: a fresh exploiter, ${scale.exploit.iterations} x ${scale.exploit.episodes} episodes, then ${scale.exploit.evalEpisodes} evaluation episodes (its win rate, ties ½; lower is better). ` +
      `Held-out panel: ${spec.panel.map((p) => p.name).join(', ')} and the other seeds' final policies of every arm, ${scale.panelEpisodes} episodes each (the policy's win rate; higher is better). Load average: ${load}.\n`,
  );
  console.log('| seed | arm | exploiter win rate [95%] | exploiter margin | panel win rate [95%] | panel margin | training episodes (main / all) | CPU-s (train / exploit / panel) |');
  console.log('|---:|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.seed} | ${r.arm} | ${interval(r.exploit.winRate)} | ${f(r.exploit.margin.mean, 2)} | ${interval(r.panel.overall.winRate)} | ${f(r.panel.overall.margin.mean, 2)} | ${r.train.episodes.main} / ${r.train.episodes.total} | ${f(r.train.cpu, 0)} / ${f(r.exploit.cpu, 0)} / ${f(r.panel.cpu, 0)} |`);
  }
  console.log('\n| arm | exploiter win rate, mean over seeds | panel win rate, mean over seeds |');
  console.log('|---|---:|---:|');
  for (const a of ARMS) {
    const mine = results.filter((r) => r.arm === a);
    console.log(`| ${a} | ${formatEstimate(tInterval(mine.map((r) => r.exploit.winRate.mean)))} | ${formatEstimate(tInterval(mine.map((r) => r.panel.overall.winRate.mean)))} |`);
  }
  console.log('\nPaired differences over seeds (league − other), mean [95% t interval]:\n');
  console.log('| comparison | exploiter win rate (negative: league harder to exploit) | panel win rate (positive: league better) |');
  console.log('|---|---|---|');
  for (const b of ['fixed', 'self-play'] as Arm[]) {
    console.log(`| league − ${b} | ${formatEstimate(paired(results, 'league', b, (r) => r.exploit.winRate.mean))} | ${formatEstimate(paired(results, 'league', b, (r) => r.panel.overall.winRate.mean))} |`);
  }
  const members = Object.keys(results[0]?.panel.members ?? {});
  if (members.length) {
    console.log('\nPanel win rate per member (mean over seeds; members that are another seed\'s policy are absent from that seed\'s own panel):\n');
    console.log(`| arm | ${members.filter((m) => !/-seed\d+$/.test(m)).join(' | ')} | other seeds' fixed | other seeds' self-play | other seeds' league |`);
    console.log(`|---|${members.filter((m) => !/-seed\d+$/.test(m)).map(() => '---:').join('|')}|---:|---:|---:|`);
    for (const a of ARMS) {
      const mine = results.filter((r) => r.arm === a);
      const m = (pred: (name: string) => boolean) => {
        const xs = mine.flatMap((r) => Object.entries(r.panel.members).filter(([k]) => pred(k)).map(([, v]) => v.winRate.mean));
        return f(xs.reduce((s, x) => s + x, 0) / xs.length);
      };
      const scripted = members.filter((x) => !/-seed\d+$/.test(x)).map((x) => m((k) => k === x));
      console.log(`| ${a} | ${scripted.join(' | ')} | ${ARMS.map((o) => m((k) => k.startsWith(`${o}-seed`))).join(' | ')} |`);
    }
  }
  const g = goalMet(results);
  console.log(`\nGoal (league less exploitable than both, paired 95% excluding 0; not worse on the panel): exploitability ${g.exploit ? 'met' : 'NOT met'}, panel ${g.panel ? 'met' : 'NOT met'}.`);
}
