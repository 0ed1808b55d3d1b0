/**
 * Golden playthroughs: a JSONL file per episode that pins an env's behaviour.
 *
 *   {"golden":1,"env":"countdown-v1","params":{...},"seed":7,"observe":{"0":...,"public":...}}
 *   {"actions":{"0":17},"observe":{"0":...,"public":...}}      one line per step
 *   {"returns":[10],"outcome":"solved"}
 *
 * `observe` holds each seat's and the public view's observation after the step (the header's
 * are the initial ones). Replaying must reproduce every observation and the returns exactly.
 */
import type { ActionMap, Env } from '../env';
import { jsonEqual, type JsonValue } from '../json';
import type { Params } from '../params';
import type { Viewer } from '../visibility';

export interface GoldenHeader {
  golden: 1;
  env: string;
  params: Params;
  seed: number;
  observe: Record<string, JsonValue>;
}
export interface GoldenStep {
  actions: ActionMap<JsonValue>;
  observe: Record<string, JsonValue>;
}
export interface GoldenEnd {
  returns: number[];
  outcome: string;
}
export interface Golden {
  header: GoldenHeader;
  steps: GoldenStep[];
  end: GoldenEnd;
}

function viewsOf(env: Env, state: unknown): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  const n = env.seats(state).length;
  const viewers: Viewer[] = [...Array.from({ length: n }, (_, i) => i), 'public'];
  for (const v of viewers) out[String(v)] = env.observe(state, v) as JsonValue;
  return out;
}

/** Records a golden playthrough of the given actions. Throws if an action is illegal or the episode does not end. */
export function recordGolden(env: Env, params: Params, seed: number, actions: readonly ActionMap<JsonValue>[]): Golden {
  let state = env.init(params, seed);
  const header: GoldenHeader = { golden: 1, env: env.meta.id, params, seed, observe: viewsOf(env, state) };
  const steps: GoldenStep[] = [];
  for (const [i, step] of actions.entries()) {
    for (const [seat, a] of Object.entries(step)) {
      const check = env.validateAction(state, Number(seat), a);
      if (!check.ok) throw new Error(`golden step ${i}: seat ${seat}: ${check.reason}`);
    }
    state = env.step(state, step).state;
    steps.push({ actions: step, observe: viewsOf(env, state) });
  }
  if (!env.isTerminal(state)) throw new Error(`golden: episode not terminal after ${actions.length} steps`);
  return { header, steps, end: { returns: env.returns(state), outcome: env.outcome(state) } };
}

/** JSONL text of a golden playthrough. */
export function formatGolden(g: Golden): string {
  return [g.header, ...g.steps, g.end].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** Parses golden JSONL; throws with the line number on malformed input. */
export function parseGolden(text: string): Golden {
  const lines = text.split('\n').filter((l) => l.trim());
  const parsed = lines.map((l, i) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`golden line ${i + 1}: ${(e as Error).message}`);
    }
  });
  if (parsed.length < 2 || parsed[0].golden !== 1) throw new Error('golden: first line must be a header with "golden": 1');
  const end = parsed[parsed.length - 1];
  if (!Array.isArray(end.returns)) throw new Error('golden: last line must hold "returns"');
  return {
    header: parsed[0] as unknown as GoldenHeader,
    steps: parsed.slice(1, -1) as unknown as GoldenStep[],
    end: end as unknown as GoldenEnd,
  };
}

function firstDiff(where: string, expected: Record<string, JsonValue>, actual: Record<string, JsonValue>): string | null {
  for (const k of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (!jsonEqual(expected[k], actual[k])) {
      return `${where}: observation of viewer ${k} differs: expected ${JSON.stringify(expected[k])}, got ${JSON.stringify(actual[k])}`;
    }
  }
  return null;
}

/** Replays a golden playthrough; returns the mismatches (empty when it replays exactly). */
export function verifyGolden(env: Env, g: Golden): string[] {
  const problems: string[] = [];
  if (g.header.env !== env.meta.id) problems.push(`golden is for ${g.header.env}, not ${env.meta.id}`);
  let state = env.init(env.resolveParams(g.header.params), g.header.seed);
  const d0 = firstDiff('initial state', g.header.observe, viewsOf(env, state));
  if (d0) problems.push(d0);
  for (const [i, s] of g.steps.entries()) {
    if (env.isTerminal(state)) {
      problems.push(`step ${i}: episode already ended`);
      return problems;
    }
    for (const [seat, a] of Object.entries(s.actions)) {
      const check = env.validateAction(state, Number(seat), a);
      if (!check.ok) {
        problems.push(`step ${i}: seat ${seat}'s action ${JSON.stringify(a)} rejected: ${check.reason}`);
        return problems;
      }
    }
    state = env.step(state, s.actions).state;
    const d = firstDiff(`step ${i}`, s.observe, viewsOf(env, state));
    if (d) problems.push(d);
  }
  if (!env.isTerminal(state)) problems.push('episode not terminal at the end of the golden file');
  else {
    const r = env.returns(state);
    if (!jsonEqual(r, g.end.returns)) problems.push(`returns: expected ${JSON.stringify(g.end.returns)}, got ${JSON.stringify(r)}`);
    const o = env.outcome(state);
    if (o !== g.end.outcome) problems.push(`outcome: expected "${g.end.outcome}", got "${o}"`);
  }
  return problems;
}
