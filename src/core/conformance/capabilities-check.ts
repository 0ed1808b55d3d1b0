/**
 * The `capabilities` check: what the env declares in meta.capabilities matches what it does in
 * the playouts — per-decision rewards only when declared (well-formed: a seat, a finite value),
 * try-ending rewards only when tries are declared, no open action set in an env declared
 * finite, effects only of declared kinds and each with a result the env accepts.
 */
import { EFFECT_SEAT, type Env } from '../env';
import { jsonEqual } from '../json';
import type { Trace } from './playout';

const MAX_PROBLEMS = 8;

export function checkCapabilities(env: Env, traces: Trace[]): { problems: string[]; notes: string[] } {
  const caps = env.capabilities;
  const out: string[] = [];
  let rewards = 0;
  let tries = 0;
  let effects = 0;
  const add = (t: Trace, i: number, text: string) => {
    if (out.length < MAX_PROBLEMS) out.push(`episode seed ${t.seed} step ${i}: ${text}`);
  };
  for (const t of traces) {
    const n = t.states.length ? env.seats(t.states[0]).length : 0;
    t.steps.forEach((step, i) => {
      for (const r of step.rewards ?? []) {
        rewards++;
        if (r.endsTry) tries++;
        if (caps.rewards !== 'per-decision') add(t, i, 'step returned rewards but meta.capabilities.rewards is not "per-decision"');
        if (!Number.isInteger(r.seat) || r.seat < 0 || r.seat >= n) add(t, i, `reward for seat ${JSON.stringify(r.seat)}, not a seat 0..${n - 1}`);
        if (typeof r.value !== 'number' || !Number.isFinite(r.value)) add(t, i, `reward value ${JSON.stringify(r.value)} is not a finite number`);
        if (r.endsTry && !caps.tries) add(t, i, 'a reward ends a try but meta.capabilities.tries is false');
      }
      const state = t.states[i];
      if (state === undefined) return;
      if (step.toAct[0] === EFFECT_SEAT) {
        effects++;
        const e = env.effect(state);
        if (e && !caps.effects.includes(e.kind)) add(t, i, `effect kind "${e.kind}" is not declared in meta.capabilities.effects`);
        const check = env.validateAction(state, EFFECT_SEAT, step.actions[EFFECT_SEAT]);
        if (!check.ok) add(t, i, `the env rejects its own sampled effect result: ${check.reason}`);
        return;
      }
      if (caps.actions === 'finite' && env.legalActions) {
        for (const seat of step.toAct) if (env.legalActions(state, seat) === null) add(t, i, `seat ${seat} has an open action set but meta.capabilities.actions is "finite"`);
      }
    });
  }
  const notes = [`${rewards} per-decision rewards (${tries} ending a try), ${effects} effects`];
  if (caps.tries && traces.length && tries === 0) notes.push('tries are declared but no playout ended one');
  if (caps.encoder !== (env.encoder !== undefined) || !jsonEqual(caps.effects, [...new Set(caps.effects)])) out.push('capabilities disagree with the env members');
  return { problems: out, notes };
}
