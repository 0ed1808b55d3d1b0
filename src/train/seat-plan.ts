/**
 * Who plays which seat in a training or evaluation episode.
 *
 * - `self`: every seat of a role some learner plays is played by that learner (recording when
 *   the learner trains this iteration, frozen otherwise); other roles get fixed agents.
 * - `baselines` / `checkpoints`: one focus seat (rotating over the seats of training learners)
 *   and its side are played by the learner; every other seat is played by one baseline agent
 *   (`baselines`) or by frozen snapshots of the learners (`checkpoints`).
 *
 * A learner's side: when the seats of the episode belong to several teams, the seats of the
 * focus seat's team whose roles the learner plays (villagers together; all K solver
 * attempts); when every seat is on one team (symmetric games such as two negotiators), the
 * focus seat alone.
 */
import type { Agent } from '../core/agent';
import type { SeatInfo } from '../core/env';
import type { Rng } from '../core/rng';

/** Where the learners' seats' opponents come from. */
export type OpponentMode = 'self' | 'baselines' | 'checkpoints';

/** A plan's mode: an opponent mode, or `source` (opponents from an episode source, see episode-sources.ts). */
export type PlanMode = OpponentMode | 'source';

/** A network that plays seats: a learner, or a frozen snapshot. */
export interface SeatPolicy {
  id: string;
  roles: readonly string[];
}

/** What a plan needs from the trainer. */
export interface PlanContext<L extends SeatPolicy> {
  /** The learner that plays `role`, if any. */
  learnerFor(role: string): L | undefined;
  /** Whether `learner` trains this iteration (records its decisions). */
  training(learner: L): boolean;
  /** A recording agent (training) or a current-policy agent (frozen) of `learner` for `seat`. */
  learnerAgent(learner: L, seat: number, record: boolean): Agent;
  /** A frozen snapshot opponent of `learner` for `seat`, with its label. */
  snapshotAgent(learner: L, seat: number, rng: Rng): { agent: Agent; label: string };
  /** Agent `spec` for `seat` when it can play `role`, else null. */
  fixedAgent(spec: string, seat: number, role: string): Agent | null;
  /** Agent for a seat of a role no learner plays (roleAgents, then the default spec). */
  defaultAgent(seat: number, role: string): Agent;
}

/** The seats of an episode and who fills them. */
export interface SeatPlan<L extends SeatPolicy> {
  agents: Agent[];
  /** Seats played by a learner, with that learner (recording or not). */
  learnerSeats: Map<number, L>;
  /** Seats whose decisions are recorded for training. */
  recorded: Set<number>;
  /** Label of the opposition ("self", a baseline spec, a snapshot label). */
  label: string;
}

/** Seats played together with `focus` by `learner` (see the module note). */
export function sideOf(seats: readonly SeatInfo[], focus: number, learner: SeatPolicy): number[] {
  const teams = new Set(seats.map((s) => s.team));
  if (teams.size <= 1) return [focus];
  const team = seats[focus].team;
  const out: number[] = [];
  seats.forEach((s, i) => {
    if (s.team === team && learner.roles.includes(s.role)) out.push(i);
  });
  return out;
}

/** Seats a focus rotation may pick: seats whose learner trains this iteration (or `only`'s seats). */
function focusCandidates<L extends SeatPolicy>(seats: readonly SeatInfo[], ctx: PlanContext<L>, only?: L): number[] {
  const out: number[] = [];
  seats.forEach((s, i) => {
    const l = ctx.learnerFor(s.role);
    if (l && (only ? l === only : ctx.training(l))) out.push(i);
  });
  return out;
}

/**
 * Plans episode `k`. `opponent` is the baseline spec for `baselines` mode; in `source` mode
 * `opponentFor` fills the seats outside the focus learner's side (null: the default agent) and
 * `label` names the opposition. `only` restricts the focus to one learner (evaluation);
 * `record` false plays without recording.
 */
export function planSeats<L extends SeatPolicy>(
  mode: PlanMode,
  seats: readonly SeatInfo[],
  k: number,
  ctx: PlanContext<L>,
  rng: Rng,
  opts: { opponent?: string; only?: L; record?: boolean; opponentFor?: (seat: number, role: string) => Agent | null; label?: string } = {},
): SeatPlan<L> {
  const record = opts.record ?? true;
  const agents: Agent[] = new Array(seats.length);
  const learnerSeats = new Map<number, L>();
  const recorded = new Set<number>();
  const useLearner = (i: number, l: L) => {
    const rec = record && ctx.training(l);
    agents[i] = ctx.learnerAgent(l, i, rec);
    learnerSeats.set(i, l);
    if (rec) recorded.add(i);
  };
  if (mode === 'self') {
    seats.forEach((s, i) => {
      const l = ctx.learnerFor(s.role);
      if (l) useLearner(i, l);
      else agents[i] = ctx.defaultAgent(i, s.role);
    });
    return { agents, learnerSeats, recorded, label: 'self' };
  }
  const candidates = focusCandidates(seats, ctx, opts.only);
  if (candidates.length === 0) throw new Error(`no seat of this episode is played by a learner (roles: ${seats.map((s) => s.role).join(', ')})`);
  const focus = candidates[k % candidates.length];
  const learner = ctx.learnerFor(seats[focus].role)!;
  const side = new Set(sideOf(seats, focus, learner));
  let label = mode === 'baselines' ? (opts.opponent ?? 'baseline') : mode === 'source' ? (opts.label ?? 'source') : '';
  seats.forEach((s, i) => {
    if (side.has(i)) {
      useLearner(i, learner);
      return;
    }
    if (mode === 'source') {
      agents[i] = opts.opponentFor?.(i, s.role) ?? ctx.defaultAgent(i, s.role);
      return;
    }
    if (mode === 'baselines') {
      agents[i] = (opts.opponent !== undefined ? ctx.fixedAgent(opts.opponent, i, s.role) : null) ?? ctx.defaultAgent(i, s.role);
      return;
    }
    const l = ctx.learnerFor(s.role);
    if (l) {
      const snap = ctx.snapshotAgent(l, i, rng);
      agents[i] = snap.agent;
      label ||= snap.label;
    } else agents[i] = ctx.defaultAgent(i, s.role);
  });
  return { agents, learnerSeats, recorded, label: label || 'checkpoints' };
}
