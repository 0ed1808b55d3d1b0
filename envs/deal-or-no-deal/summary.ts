/**
 * Episode summary (`arena play --json`, one per episode) and the play summary aggregated over
 * episodes: agreement rate, mean scores, joint welfare, and the fraction of Pareto-optimal deals.
 * Scores are each seat's own value of its share (discounted in openspiel), before the coop mix.
 */
import type { JsonValue } from '../../src/core/json';
import { analyze, isParetoOptimal } from './analysis';
import { dealDialogue, ownScoresDialogue } from './dialogue-protocol';
import { dealOpenSpiel, ownScoresOpenSpiel } from './openspiel-protocol';
import type { DondState } from './state';

/** One episode's summary. */
export type EpisodeSummary = {
  protocol: string;
  /** The instance line `pool p0values p1values`, and its index in the default set (or null). */
  instance: string;
  index: number | null;
  outcome: string;
  agreement: boolean;
  /** [seat 0's share, seat 1's share] of the deal, or null. */
  deal: number[][] | null;
  /** Each seat's own score (its values of its share; discounted in openspiel). */
  scores: number[];
  /** scores[0] + scores[1]. */
  joint: number;
  /** Best joint score any split of this instance gives (undiscounted). */
  maxJoint: number;
  /** Whether the deal is Pareto-optimal among all splits of the instance (false without a deal). */
  pareto: boolean;
  /** Offers made (openspiel) or messages sent (dialogue). */
  turns: number;
  coop: number;
};

/** Each seat's own score (before the coop mix). */
export function ownScores(s: DondState): [number, number] {
  return s.protocol === 'openspiel' ? ownScoresOpenSpiel(s) : ownScoresDialogue(s);
}

/** The summary of a finished (or running) episode. */
export function episodeSummary(s: DondState): EpisodeSummary {
  const deal = s.protocol === 'openspiel' ? dealOpenSpiel(s) : dealDialogue(s);
  const scores = ownScores(s);
  return {
    protocol: s.protocol,
    instance: s.inst.line,
    index: s.inst.index,
    outcome: s.outcome,
    agreement: deal !== null,
    deal,
    scores,
    joint: scores[0] + scores[1],
    maxJoint: analyze(s.inst).maxJoint,
    pareto: deal !== null && isParetoOptimal(s.inst, deal[0]),
    turns: s.protocol === 'openspiel' ? s.offers.length : s.messages.length,
    coop: s.cfg.coop,
  };
}

function num(x: JsonValue | undefined): number {
  return typeof x === 'number' && Number.isFinite(x) ? x : 0;
}

/**
 * Aggregates episode summaries: agreementRate, meanScores (per seat), meanJoint (joint welfare),
 * jointOfMax (sum of joint scores / sum of the best possible ones), paretoRate (Pareto-optimal
 * deals / deals), paretoOfAll (Pareto-optimal deals / episodes), meanTurns.
 */
export function aggregate(summaries: readonly JsonValue[]): { [key: string]: JsonValue } {
  let n = 0;
  let deals = 0;
  let pareto = 0;
  let joint = 0;
  let maxJoint = 0;
  let turns = 0;
  const scores = [0, 0];
  for (const raw of summaries) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
    const s = raw as { [key: string]: JsonValue };
    n++;
    if (s.agreement === true) deals++;
    if (s.pareto === true) pareto++;
    const sc = Array.isArray(s.scores) ? s.scores : [];
    scores[0] += num(sc[0]);
    scores[1] += num(sc[1]);
    joint += num(s.joint);
    maxJoint += num(s.maxJoint);
    turns += num(s.turns);
  }
  const per = (x: number) => (n ? x / n : 0);
  return {
    episodes: n,
    agreementRate: per(deals),
    meanScores: [per(scores[0]), per(scores[1])],
    meanJoint: per(joint),
    jointOfMax: maxJoint ? joint / maxJoint : 0,
    paretoRate: deals ? pareto / deals : 0,
    paretoOfAll: per(pareto),
    meanTurns: per(turns),
  };
}
