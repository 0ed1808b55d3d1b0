/**
 * `rule-based` for werewolf-v1: a simple, readable baseline that sees only its own observation.
 *
 * - The seer checks players it has not checked yet, reveals a werewolf it found (and votes for it).
 * - Villagers trust the first living player who claimed the seer role (a "reveal" counts as a
 *   claim) and has not contradicted itself (claimed another role, or called one player both a
 *   werewolf and not one): they repeat or agree with its accusations and vote for the player it
 *   revealed as a werewolf.
 * - The doctor and the guard protect the claimed seer (else themselves, else anyone allowed).
 * - The witch saves the victim while she has the antidote and poisons a revealed werewolf.
 * - Werewolves kill the claimed seer when there is one, follow a teammate's proposal, never vote
 *   for each other, and accuse whoever revealed one of them.
 */
import type { Agent, AgentContext, AgentFactory } from '../../../src/core/agent';
import type { Rng } from '../../../src/core/rng';
import { ACCUSE, AGREE, ANTIDOTE, BID, NONE, POISON, REVEAL_WOLF, SILENT, TARGET } from '../actions';
import type { WerewolfObservation } from '../observe';

/** What the public talk says, as this baseline reads it. */
interface Beliefs {
  /** First living, self-consistent player who claimed the seer role (or revealed a result), -1 if none. */
  seer: number;
  /** Living players the trusted seer revealed or accused as werewolves, latest first. */
  accused: number[];
  /** Players the trusted seer cleared. */
  cleared: Set<number>;
  /** Players who revealed someone as a werewolf (for werewolves: who exposed a teammate). */
  exposers: Map<number, number>;
}

function readBeliefs(obs: WerewolfObservation): Beliefs {
  const alive = obs.public.alive;
  const claimers: number[] = [];
  const inconsistent = new Set<number>();
  const verdicts = new Map<string, boolean>();
  const statements: { by: number; target: number; wolf: boolean }[] = [];
  for (const chunk of obs.public.log) {
    for (const e of chunk) {
      if (e.type !== 'speech') continue;
      const claimsSeer = (e.act === 'claim' && e.role === 'seer') || e.act === 'reveal';
      if (claimsSeer && !claimers.includes(e.seat)) claimers.push(e.seat);
      if (e.act === 'claim' && e.role !== 'seer') inconsistent.add(e.seat);
      if (e.target === undefined) continue;
      if (e.act === 'reveal' || e.act === 'accuse' || e.act === 'defend') {
        // a real seer never says both "werewolf" and "not a werewolf" about the same player
        const wolfSaid = e.act === 'defend' ? false : e.act === 'accuse' ? true : !!e.werewolf;
        const key = `${e.seat}:${e.target}`;
        const before = verdicts.get(key);
        if (before !== undefined && before !== wolfSaid) inconsistent.add(e.seat);
        verdicts.set(key, wolfSaid);
        if (e.act !== 'defend') statements.push({ by: e.seat, target: e.target, wolf: wolfSaid });
      }
    }
  }
  const seer = claimers.find((c) => alive[c] === 1 && !inconsistent.has(c)) ?? -1;
  const accused: number[] = [];
  const cleared = new Set<number>();
  const exposers = new Map<number, number>();
  for (let i = statements.length - 1; i >= 0; i--) {
    const st = statements[i];
    if (st.wolf && !exposers.has(st.target)) exposers.set(st.target, st.by);
    if (st.by !== seer) continue;
    if (st.wolf && alive[st.target] && !accused.includes(st.target) && !cleared.has(st.target)) accused.push(st.target);
    if (!st.wolf) cleared.add(st.target);
  }
  return { seer, accused, cleared, exposers };
}

function pick(rng: Rng, options: readonly number[]): number {
  return options[rng.int(options.length)];
}

/** The first candidate action that is legal, else a random legal one (from `fallback` if non-empty). */
function choose(legal: readonly number[], rng: Rng, candidates: number[], fallback?: readonly number[]): number {
  for (const c of candidates) if (legal.includes(c)) return c;
  const fb = fallback?.filter((a) => legal.includes(a)) ?? [];
  return fb.length ? pick(rng, fb) : pick(rng, legal);
}

/** Werewolves found by my own seer checks that are still alive. */
function foundWolves(obs: WerewolfObservation): number[] {
  const out: number[] = [];
  for (const e of obs.private) if (e.type === 'check' && e.result === 'werewolf' && obs.public.alive[e.target]) out.push(e.target);
  return out;
}

function lastUtterance(obs: WerewolfObservation): { seat: number; target?: number; act: string } | null {
  const chunk = obs.public.log[obs.public.log.length - 1] ?? [];
  for (let i = chunk.length - 1; i >= 0; i--) {
    const e = chunk[i];
    if (e.type === 'speech') return e;
    if (e.type === 'dawn') return null;
  }
  return null;
}

/** The policy: observation + legal actions -> action index. */
export function ruleBasedPolicy(obs: WerewolfObservation, legal: readonly number[] | null, ctx: AgentContext): number {
  const rng = ctx.rng;
  if (!legal || !legal.length) return NONE;
  if (legal.length === 1) return legal[0];
  const me = obs.seat ?? -1;
  const wolf = obs.role === 'werewolf';
  const mates = new Set(obs.wolves);
  const b = readBeliefs(obs);
  const targets = (xs: number[]) => xs.map((x) => TARGET + x);
  const nonWolfTargets = legal.filter((a) => a < NONE && !mates.has(a - TARGET));
  switch (obs.ask) {
    case 'check': {
      const checked = new Set(obs.private.filter((e) => e.type === 'check').map((e) => (e as { target: number }).target));
      return choose(legal, rng, [], legal.filter((a) => a < NONE && !checked.has(a - TARGET)));
    }
    case 'protect':
    case 'guard':
      return choose(legal, rng, b.seer >= 0 ? targets([b.seer, me]) : targets([me]));
    case 'kill':
    case 'propose':
    case 'decide':
    case 'wolf-vote': {
      const mine = obs.teamLog ?? [];
      const last = mine[mine.length - 1];
      const teammate = last && 'by' in last && last.round === obs.public.round && last.by !== me ? [TARGET + last.target] : [];
      const seerTarget = b.seer >= 0 && !mates.has(b.seer) ? [TARGET + b.seer] : [];
      return choose(legal, rng, [...seerTarget, ...teammate]);
    }
    case 'antidote':
      return choose(legal, rng, [ANTIDOTE]);
    case 'poison': {
      const revealed = b.accused.filter((p) => p !== me);
      return choose(legal, rng, [...revealed.map((p) => POISON + p), NONE]);
    }
    case 'bid': {
      const top = legal[legal.length - 1];
      if (obs.role === 'seer' && foundWolves(obs).length) return top;
      if (wolf && [...b.exposers.keys()].some((t) => mates.has(t) && obs.public.alive[t])) return choose(legal, rng, [BID + 3, top]);
      if (!wolf && b.accused.length) return choose(legal, rng, [BID + 2]);
      return choose(legal, rng, [BID + rng.int(2)]);
    }
    case 'speak': {
      if (obs.role === 'seer') {
        const found = foundWolves(obs);
        if (found.length) return choose(legal, rng, [REVEAL_WOLF + found[0], ACCUSE + found[0], SILENT]);
        return SILENT;
      }
      if (wolf) {
        const exposed = [...b.exposers.entries()].filter(([t, by]) => mates.has(t) && !mates.has(by) && obs.public.alive[by]);
        return exposed.length ? choose(legal, rng, [ACCUSE + exposed[0][1], SILENT]) : SILENT;
      }
      if (b.accused.length) {
        const target = b.accused[0];
        const last = lastUtterance(obs);
        if (last && last.seat !== me && last.target === target && (last.act === 'accuse' || last.act === 'reveal')) return choose(legal, rng, [AGREE, ACCUSE + target]);
        return choose(legal, rng, [ACCUSE + target, SILENT]);
      }
      return SILENT;
    }
    case 'vote': {
      if (wolf) {
        const seer = b.seer >= 0 && !mates.has(b.seer) ? [TARGET + b.seer] : [];
        return choose(legal, rng, seer, nonWolfTargets);
      }
      const found = obs.role === 'seer' ? foundWolves(obs) : [];
      const trusted = new Set([b.seer, me, ...b.cleared]);
      return choose(legal, rng, targets([...found, ...b.accused]), legal.filter((a) => a < NONE && !trusted.has(a - TARGET)));
    }
    default:
      return choose(legal, rng, [NONE]);
  }
}

/**
 * The `rule-based` agent kind for werewolf-v1. Option `epsilon` (default 0): the share of
 * decisions taken uniformly at random among the legal ones instead (a weaker, noisier variant,
 * e.g. for held-out opponent panels), drawn from the seat's seeded generator.
 */
export const ruleBasedAgent: AgentFactory = {
  name: 'rule-based',
  description: 'werewolf-v1 baseline: seer reveals found wolves, villagers follow the claimed seer, doctor/guard protect it, wolves kill it and never vote for each other; epsilon: share of random legal moves',
  envs: ['werewolf-v1'],
  options: { epsilon: { type: 'number', min: 0, max: 1, default: 0, description: 'share of decisions taken uniformly at random among the legal ones' } },
  create: ({ options }) => {
    const epsilon = typeof options?.epsilon === 'number' ? options.epsilon : 0;
    if (!epsilon) return { name: 'rule-based', act: ruleBasedPolicy } satisfies Agent<WerewolfObservation, number>;
    return {
      name: `rule-based(epsilon ${epsilon})`,
      act: (obs, legal, ctx) => (legal && legal.length > 1 && ctx.rng.next() < epsilon ? legal[ctx.rng.int(legal.length)] : ruleBasedPolicy(obs, legal, ctx)),
    } satisfies Agent<WerewolfObservation, number>;
  },
};
