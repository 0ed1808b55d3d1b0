import type { Env } from '../env';
import { heartbeat } from '../heartbeat';
import type { Params } from '../params';
import { Rng, deriveSeed } from '../rng';
import {
  checkDeterminism,
  checkEncoder,
  checkJsonAndPurity,
  checkLeaks,
  checkLegality,
  checkResume,
  checkTermination,
  checkUtility,
} from './checks';
import { checkCapabilities } from './capabilities-check';
import { verifyGolden, type Golden } from './golden';
import { checkViewStream } from './stream-check';
import { playout, type Trace } from './playout';

/** Options for {@link checkEnv}. */
export interface CheckOptions {
  /** Raw params (resolved and validated first). */
  params?: unknown;
  /** Random playouts to run (default 20). */
  episodes?: number;
  /** Base seed; episode k uses deriveSeed(seed, k). Default 1. */
  seed?: number;
  /** Golden playthroughs to replay. */
  goldens?: { name: string; golden: Golden }[];
  /** Check legality/leaks/encoding at every k-th state (default 1: every state). */
  sampleEvery?: number;
  /** Names of checks to skip. */
  skip?: string[];
}

/** Outcome of one named check. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** What failed and where (episode seed, step, seat). */
  problems: string[];
  /** Informational remarks (what was compared, why something was not applicable). */
  notes?: string[];
  skipped?: boolean;
}

/** Result of a conformance run: `ok` only when every check passed. */
export interface CheckReport {
  env: string;
  params: Params | null;
  episodes: number;
  ok: boolean;
  checks: CheckResult[];
}

/** The check names, in the order they run. */
export const CHECK_NAMES = [
  'params',
  'termination',
  'json-purity',
  'determinism',
  'legality',
  'resume',
  'leak',
  'view-stream',
  'capabilities',
  'utility',
  'encoder',
  'golden',
] as const;

/**
 * The conformance kit: runs random playouts and checks the env contract on them —
 * termination within maxLength, determinism by seed, legality and rejection reasons,
 * serialize/resume, the private-information leak check, the per-view stream check (content,
 * count and numbering of each view's events independent of what it cannot see), declared
 * capabilities, declared utility, encoder, and golden playthroughs. Never throws: an exception inside the env becomes a failed check.
 */
export function checkEnv(subject: Env, options: CheckOptions = {}): CheckReport {
  // Watched (the CLI's worker): every member marks the heartbeat, so a hang names it and the check.
  const hb = heartbeat();
  const env = hb ? hb.watchEnv(subject) : subject;
  const episodes = options.episodes ?? 20;
  const baseSeed = options.seed ?? 1;
  const every = Math.max(1, options.sampleEvery ?? 1);
  const skip = new Set(options.skip ?? []);
  const checks: CheckResult[] = [];
  const report = (): CheckReport => ({ env: env.meta.id, params, episodes, ok: checks.every((c) => c.ok), checks });
  const run = (name: string, f: () => string[] | { problems: string[]; notes: string[] }) => {
    if (skip.has(name)) {
      checks.push({ name, ok: true, problems: [], skipped: true });
      return;
    }
    hb?.context({ check: name });
    try {
      const r = f();
      const problems = Array.isArray(r) ? r : r.problems;
      checks.push({ name, ok: problems.length === 0, problems, ...(Array.isArray(r) ? {} : { notes: r.notes }) });
    } catch (e) {
      checks.push({ name, ok: false, problems: [`threw: ${e instanceof Error ? e.stack ?? e.message : String(e)}`] });
    }
  };

  let params: Params | null = null;
  run('params', () => {
    params = env.resolveParams(options.params);
    return [];
  });
  if (!params) return report();
  const p: Params = params;

  let traces: Trace[] = [];
  run('termination', () => {
    const limit = env.maxLengthFor(p);
    traces = Array.from({ length: episodes }, (_, k) => {
      const seed = deriveSeed(baseSeed, 'episode', k);
      return playout(env, p, seed, Rng.fromSeed(deriveSeed(seed, 'actions')), { limit, keepStates: true });
    });
    return checkTermination(env, traces);
  });
  run('json-purity', () => checkJsonAndPurity(env, traces));
  run('determinism', () => checkDeterminism(env, traces));
  run('legality', () => checkLegality(env, traces, every));
  run('resume', () => checkResume(env, traces));
  run('leak', () => checkLeaks(env, traces, every));
  run('view-stream', () => checkViewStream(env, traces, every));
  run('capabilities', () => checkCapabilities(env, traces));
  run('utility', () => checkUtility(env, traces));
  run('encoder', () => checkEncoder(env, traces, every));
  run('golden', () => (options.goldens ?? []).flatMap(({ name, golden }) => verifyGolden(env, golden).map((m) => `${name}: ${m}`)));
  return report();
}

/** Human-readable report: one line per check, then its problems indented. */
export function formatReport(r: CheckReport): string {
  const lines = [`${r.env}: ${r.ok ? 'PASS' : 'FAIL'} (${r.episodes} random playouts, params ${JSON.stringify(r.params)})`];
  for (const c of r.checks) {
    lines.push(`  ${c.skipped ? '-' : c.ok ? '✓' : '✗'} ${c.name}${c.skipped ? ' (skipped)' : ''}`);
    for (const p of c.problems) lines.push(`      ${p}`);
    for (const n of c.notes ?? []) lines.push(`      (${n})`);
  }
  return lines.join('\n');
}
