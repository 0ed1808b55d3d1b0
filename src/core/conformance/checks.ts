/**
 * The individual conformance checks. Each takes the recorded random playouts (with states)
 * and returns a list of problems (empty = pass). Problems name the episode, step and seat.
 */
import { EFFECT_SEAT, type Env } from '../env';
import { jsonEqual, nonJsonPath, jsonClone } from '../json';
import { containsAction } from '../normalize-env';
import { Rng, deriveSeed } from '../rng';
import type { Viewer } from '../visibility';
import { replay, type Trace } from './playout';

const MAX_PROBLEMS = 8;
const GARBAGE: unknown[] = [null, undefined, -1, 1e9, 0.5, NaN, 'x', '', {}, [], { bogus: true }, [1, 2, 3], true];

function where(t: Trace, step: number, seat?: number): string {
  return `episode seed ${t.seed} step ${step}${seat === undefined ? '' : ` seat ${seat}`}`;
}

function safe<T>(f: () => T): { value?: T; error?: string } {
  try {
    return { value: f() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** Playouts end within meta.maxLength; toAct is well-formed; sequential envs have one actor per step. */
export function checkTermination(env: Env, traces: Trace[]): string[] {
  const out: string[] = [];
  for (const t of traces) {
    if (t.problem) out.push(`episode seed ${t.seed}: ${t.problem}`);
    const n = t.states.length ? env.seats(t.states[0]).length : 0;
    t.steps.forEach((s, i) => {
      const effectStep = s.toAct.length === 1 && s.toAct[0] === EFFECT_SEAT;
      if (!effectStep && (new Set(s.toAct).size !== s.toAct.length || s.toAct.some((x) => !Number.isInteger(x) || x < 0 || x >= n))) {
        out.push(`${where(t, i)}: toAct ${JSON.stringify(s.toAct)} is not a set of seat indices 0..${n - 1}`);
      }
      if (effectStep && t.states[i] !== undefined && env.toAct(t.states[i]).length) {
        out.push(`${where(t, i)}: an effect is pending while toAct names seats (toAct must be empty then)`);
      }
      if (env.meta.dynamics === 'sequential' && s.toAct.length !== 1) {
        out.push(`${where(t, i)}: sequential env asks ${s.toAct.length} seats at once`);
      }
    });
    const last = t.states[t.states.length - 1];
    if (t.terminal && last !== undefined && env.toAct(last).length) out.push(`episode seed ${t.seed}: terminal state still names seats to act`);
  }
  return out.slice(0, MAX_PROBLEMS);
}

/** States, observations and events are plain JSON, and `step` leaves its input untouched. */
export function checkJsonAndPurity(env: Env, traces: Trace[]): string[] {
  const out: string[] = [];
  for (const t of traces) {
    for (let i = 0; i < t.states.length && out.length < MAX_PROBLEMS; i++) {
      const s = t.states[i];
      const p = nonJsonPath(s);
      if (p) out.push(`${where(t, i)}: state is not plain JSON at ${p}`);
      const n = env.seats(s).length;
      for (const v of [...Array.from({ length: n }, (_, k) => k as Viewer), 'public' as Viewer, 'omniscient' as Viewer]) {
        const op = nonJsonPath(env.observe(s, v));
        if (op) out.push(`${where(t, i)}: observation for ${v} is not plain JSON at ${op}`);
      }
      if (i < t.steps.length) {
        const ep = nonJsonPath(t.steps[i].events);
        if (ep) out.push(`${where(t, i)}: events are not plain JSON at ${ep}`);
        const before = JSON.stringify(s);
        env.step(s, t.steps[i].actions);
        if (JSON.stringify(s) !== before) out.push(`${where(t, i)}: step mutated its input state`);
      }
    }
  }
  return out.slice(0, MAX_PROBLEMS);
}

/**
 * Same seed + same actions = same states, observations, events, rewards, returns and outcome;
 * init is deterministic. Every episode is replayed twice and compared state by state, so an env
 * that draws from an unseeded source anywhere in its state is caught even with few episodes.
 */
export function checkDeterminism(env: Env, traces: Trace[]): string[] {
  const out: string[] = [];
  for (const t of traces) {
    if (!jsonEqual(env.init(t.params, t.seed), env.init(t.params, t.seed))) out.push(`episode seed ${t.seed}: init gives different states for the same seed`);
    for (let round = 0; round < 2 && out.length < MAX_PROBLEMS; round++) {
      const again = replay(env, t.params, t.seed, t.steps.map((s) => s.actions), true);
      const problem = firstDifference(env, t, again);
      if (problem) {
        out.push(problem);
        break;
      }
    }
    if (out.length >= MAX_PROBLEMS) break;
  }
  return out.slice(0, MAX_PROBLEMS);
}

/** Where a replay first departs from the recorded playout, or null. */
function firstDifference(env: Env, t: Trace, again: Trace): string | null {
  for (let i = 0; i < t.states.length; i++) {
    if (!jsonEqual(t.states[i], again.states[i])) return `${where(t, i)}: replaying the same actions gave a different state`;
    if (!jsonEqual(env.observe(t.states[i], 'public'), env.observe(again.states[i], 'public'))) {
      return `${where(t, i)}: replaying the same actions gave a different public observation`;
    }
    if (i < t.steps.length) {
      if (!jsonEqual(t.steps[i].events, again.steps[i]?.events)) return `${where(t, i)}: replaying the same actions gave different events`;
      if (!jsonEqual(t.steps[i].rewards ?? [], again.steps[i]?.rewards ?? [])) return `${where(t, i)}: replaying the same actions gave different rewards`;
    }
  }
  if (!jsonEqual(t.returns, again.returns) || t.outcome !== again.outcome) {
    return `episode seed ${t.seed}: replay ended with returns ${JSON.stringify(again.returns)} "${again.outcome}" instead of ${JSON.stringify(t.returns)} "${t.outcome}"`;
  }
  return null;
}

/**
 * Legal actions validate; garbage and out-of-turn actions are rejected with a reason; no
 * validation or legal-action query throws on bad input.
 */
export function checkLegality(env: Env, traces: Trace[], sampleEvery: number): string[] {
  const out: string[] = [];
  for (const t of traces) {
    for (let i = 0; i < t.steps.length && out.length < MAX_PROBLEMS; i += sampleEvery) {
      const s = t.states[i];
      const n = env.seats(s).length;
      const acting = new Set(t.steps[i].toAct);
      for (let seat = -1; seat <= n; seat++) {
        const legalR: { value?: readonly unknown[] | null; error?: string } = env.legalActions
          ? safe(() => env.legalActions!(s, seat))
          : { value: null };
        if (legalR.error) {
          out.push(`${where(t, i, seat)}: legalActions threw: ${legalR.error}`);
          continue;
        }
        const legal = legalR.value as readonly unknown[] | null;
        if (!acting.has(seat) && legal && legal.length) out.push(`${where(t, i, seat)}: seat not to act has ${legal.length} legal actions`);
        if (acting.has(seat) && legal) {
          for (const a of legal) {
            const r = safe(() => env.validateAction(s, seat, a));
            if (r.error || !r.value?.ok) {
              out.push(`${where(t, i, seat)}: legal action ${JSON.stringify(a)} rejected: ${r.error ?? (r.value as { reason: string }).reason}`);
              break;
            }
          }
        }
        const candidates = acting.has(seat) ? GARBAGE : [...GARBAGE, t.steps[i].actions[t.steps[i].toAct[0]]];
        for (const g of candidates) {
          if (acting.has(seat) && legal && containsAction(legal, g)) continue;
          const r = safe(() => env.validateAction(s, seat, g));
          if (r.error) out.push(`${where(t, i, seat)}: validateAction threw on ${JSON.stringify(g) ?? String(g)}: ${r.error}`);
          else if (r.value?.ok && (!acting.has(seat) || legal)) {
            out.push(`${where(t, i, seat)}: illegal action ${JSON.stringify(g) ?? String(g)} was accepted`);
          } else if (r.value && !r.value.ok && !(typeof r.value.reason === 'string' && r.value.reason.length)) {
            out.push(`${where(t, i, seat)}: rejection of ${JSON.stringify(g) ?? String(g)} gives no reason`);
          }
          if (out.length >= MAX_PROBLEMS) break;
        }
      }
    }
  }
  return out.slice(0, MAX_PROBLEMS);
}

/** Serializing a mid-episode state and continuing gives the same future. */
export function checkResume(env: Env, traces: Trace[]): string[] {
  const out: string[] = [];
  for (const t of traces) {
    if (t.steps.length < 2) continue;
    const mid = Math.floor(t.steps.length / 2);
    let state: unknown = jsonClone(t.states[mid]);
    for (let i = mid; i < t.steps.length; i++) {
      const r = env.step(state, jsonClone(t.steps[i].actions));
      if (!jsonEqual(r.events, t.steps[i].events)) {
        out.push(`${where(t, i)}: after a JSON round trip at step ${mid}, the events differ`);
        break;
      }
      state = jsonClone(r.state);
    }
    if (t.terminal && !jsonEqual(env.returns(state), t.returns)) out.push(`episode seed ${t.seed}: resumed episode ends with different returns`);
    if (out.length >= MAX_PROBLEMS) break;
  }
  return out;
}

/**
 * Leak check: changing only one seat's private information (the env's privateVariants) must
 * change neither another seat's observation or legal actions nor the public view.
 */
export function checkLeaks(env: Env, traces: Trace[], sampleEvery: number): { problems: string[]; notes: string[] } {
  const out: string[] = [];
  if (env.meta.information === 'perfect') return { problems: [], notes: ['perfect information: nothing to hide'] };
  if (!env.privateVariants) {
    return { problems: ['imperfect-information env has no privateVariants(state, seat, rng), so the leak check cannot run'], notes: [] };
  }
  let variantsSeen = 0;
  for (const t of traces) {
    const rng = Rng.fromSeed(deriveSeed(t.seed, 'leak'));
    for (let i = 0; i < t.states.length && out.length < MAX_PROBLEMS; i += sampleEvery) {
      const s = t.states[i];
      const n = env.seats(s).length;
      for (let owner = 0; owner < n; owner++) {
        for (const variant of env.privateVariants(s, owner, rng)) {
          variantsSeen++;
          for (const v of [...Array.from({ length: n }, (_, k) => k as Viewer), 'public' as Viewer]) {
            if (v === owner) continue;
            if (!jsonEqual(env.observe(s, v), env.observe(variant, v))) {
              out.push(`${where(t, i)}: ${v === 'public' ? 'the public view' : `seat ${v}'s observation`} changes when only seat ${owner}'s private information changes`);
            } else if (typeof v === 'number' && env.legalActions && !jsonEqual(env.legalActions(s, v), env.legalActions(variant, v))) {
              out.push(`${where(t, i)}: seat ${v}'s legal actions change when only seat ${owner}'s private information changes`);
            }
          }
        }
      }
    }
  }
  const notes = [`${variantsSeen} private variants compared`];
  if (variantsSeen === 0) notes.push('privateVariants returned no variant: the env declares no private state between steps');
  return { problems: out.slice(0, MAX_PROBLEMS), notes };
}

/** Returns: one finite number per seat; zero-sum sums to 0, constant-sum to a constant. */
export function checkUtility(env: Env, traces: Trace[]): string[] {
  const out: string[] = [];
  let constant: number | undefined = env.meta.constantSum;
  for (const t of traces) {
    if (!t.returns) continue;
    const n = env.seats(t.states[0]).length;
    const u = env.utilityFor(t.params);
    if (t.returns.length !== n || t.returns.some((r) => typeof r !== 'number' || !Number.isFinite(r))) {
      out.push(`episode seed ${t.seed}: returns ${JSON.stringify(t.returns)} are not ${n} finite numbers`);
      continue;
    }
    const sum = t.returns.reduce((a, b) => a + b, 0);
    if (u === 'zero-sum' && Math.abs(sum) > 1e-9) out.push(`episode seed ${t.seed}: zero-sum env returned ${JSON.stringify(t.returns)} (sum ${sum})`);
    if (u === 'constant-sum') {
      constant ??= sum;
      if (Math.abs(sum - constant) > 1e-9) out.push(`episode seed ${t.seed}: constant-sum env returned sum ${sum}, expected ${constant}`);
    }
    if (out.length >= MAX_PROBLEMS) break;
  }
  return out;
}

/** Encoder: fixed size, finite values, every legal action maps to an index and back. */
export function checkEncoder(env: Env, traces: Trace[], sampleEvery: number): string[] {
  const enc = env.encoder;
  if (!enc) return [];
  const out: string[] = [];
  for (const t of traces) {
    for (let i = 0; i < t.steps.length && out.length < MAX_PROBLEMS; i += sampleEvery) {
      const s = t.states[i];
      for (const seat of t.steps[i].toAct) {
        if (seat === EFFECT_SEAT) continue;
        const x = enc.encode(env.observe(s, seat), new Float32Array(enc.size));
        if (x.length !== enc.size) out.push(`${where(t, i, seat)}: encoding has length ${x.length}, declared ${enc.size}`);
        if (x.some((v) => !Number.isFinite(v))) out.push(`${where(t, i, seat)}: encoding has non-finite values`);
        for (const a of env.legalActions?.(s, seat) ?? [t.steps[i].actions[seat]]) {
          const k = enc.actionIndex(a);
          if (k === -1 && !env.legalActions?.(s, seat)) continue; // an open-set action without an index (text), as the contract allows
          if (!(k >= 0 && k < enc.numActions) || !jsonEqual(enc.action(k), a)) {
            out.push(`${where(t, i, seat)}: action ${JSON.stringify(a)} maps to index ${k}, which does not map back`);
            break;
          }
        }
      }
    }
  }
  return out;
}

