/**
 * Bradley–Terry benchmark: fit + bootstrap intervals on a synthetic league table.
 * Default: 100 players, 100,000 matches (~8 % ties), 1,000 resamples; several timed runs.
 * Usage: npm run bench:bt [-- --players 100 --matches 100000 --resamples 1000 --runs 5]
 */
import { Rng } from '../src/core/rng';
import { bootstrapBradleyTerry } from '../league/ratings/bt-bootstrap';
import { ELO_PER_LOGIT, fitBradleyTerry } from '../league/ratings/bradley-terry';
import { PairCounts, type PairResultRow } from '../league/ratings/pair-counts';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : dflt;
}

/** Synthetic league: true ratings N(1500, 200²) Elo points; uniform random pairs; about 8 % ties. */
function synthesize(players: number, matches: number, seed: number): { truth: number[]; rows: PairResultRow[] } {
  const rng = Rng.fromSeed(seed);
  const truth = Array.from({ length: players }, () => 1500 + 200 * Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next()));
  const rows: PairResultRow[] = [];
  for (let m = 0; m < matches; m++) {
    const a = rng.int(players);
    let b = rng.int(players - 1);
    if (b >= a) b++;
    const p = 1 / (1 + Math.exp(-(truth[a] - truth[b]) / ELO_PER_LOGIT));
    // Ties with probability 0.4·p(1 − p) (about 8 %), taken evenly from wins and losses, so the
    // expected score stays p: the "ties as half wins" model the fit assumes.
    const tie = 0.4 * p * (1 - p);
    const u = rng.next();
    const score = u < p - tie / 2 ? 1 : u < p + tie / 2 ? 0.5 : 0;
    rows.push({ a: `p${a}`, b: `p${b}`, score });
  }
  return { truth, rows };
}

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

function main(): void {
  const players = arg('players', 100);
  const matches = arg('matches', 100000);
  const resamples = arg('resamples', 1000);
  const runs = arg('runs', 5);
  const { truth, rows } = synthesize(players, matches, 7);
  console.log(`Bradley–Terry fit + bootstrap: ${players} players, ${matches.toLocaleString('en-US')} matches (~8 % ties), ${resamples} resamples, node ${process.version}, one thread\n`);
  console.log('| run | aggregate ms | fit ms (sweeps) | bootstrap ms (sweeps/resample) | fit + bootstrap ms | fit + bootstrap CPU ms | MAE vs truth (Elo) | 95 % CI coverage | mean CI width (Elo) |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const totals: number[] = [];
  const cpus: number[] = [];
  for (let r = 1; r <= runs; r++) {
    const t0 = process.hrtime.bigint();
    const table = PairCounts.from(rows).table();
    const tAgg = ms(t0);
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage();
    const fit = fitBradleyTerry(table);
    const tFit = ms(t1);
    const t2 = process.hrtime.bigint();
    const boot = bootstrapBradleyTerry(table, { resamples, seed: r });
    const tBoot = ms(t2);
    const c2 = process.cpuUsage(c1);
    const cpu = (c2.user + c2.system) / 1000;
    totals.push(tFit + tBoot);
    cpus.push(cpu);
    const idx = table.ids.map((id) => Number(id.slice(1)));
    const meanTruth = idx.reduce((s, k) => s + truth[k], 0) / idx.length;
    let mae = 0;
    let covered = 0;
    let width = 0;
    idx.forEach((k, i) => {
      const t = truth[k] - meanTruth + 1500;
      mae += Math.abs(fit.ratings[i] - t);
      if (boot.lo[i] <= t && t <= boot.hi[i]) covered++;
      width += boot.hi[i] - boot.lo[i];
    });
    const f = (x: number) => x.toFixed(0);
    console.log(`| ${r} | ${f(tAgg)} | ${f(tFit)} (${fit.iterations}) | ${f(tBoot)} (${boot.meanIterations.toFixed(1)}) | ${f(tFit + tBoot)} | ${f(cpu)} | ${(mae / idx.length).toFixed(1)} | ${((100 * covered) / idx.length).toFixed(0)} % | ${(width / idx.length).toFixed(1)} |`);
  }
  const line = (name: string, xs: number[]) => {
    const s = xs.slice().sort((a, b) => a - b);
    return `${name}: best ${s[0].toFixed(0)} ms, median ${s[Math.floor(s.length / 2)].toFixed(0)} ms, worst ${s[s.length - 1].toFixed(0)} ms`;
  };
  console.log(`\n${line('fit + bootstrap wall', totals)}; ${line('CPU', cpus)} (target <= 2000 ms on one core)`);
}

main();
