/**
 * Per-episode summary (the `summary` field of `arena play --json` lines) and the series
 * aggregate.
 */
import type { JsonValue } from '../../src/core/json';
import { episodeOutcome, episodeReturns, isUnsolvable, solvedFraction } from './flow';
import type { CountdownState } from './types';

/** Episode summary: the puzzle, every answer with its judgement and score, the exact verdict. */
export function episodeSummary(state: CountdownState): JsonValue {
  const { cfg } = state;
  return {
    rules: cfg.rules,
    roles: cfg.roles,
    numbers: state.numbers,
    target: state.target,
    verdict: state.verdict ? { ...state.verdict } : null,
    attempts: state.results.map((r) => ({
      answer: r.answer,
      score: r.score,
      correct: r.correct,
      status: r.status,
      value: r.value,
      reason: r.reason,
    })),
    solved: state.results.length ? solvedFraction(state) : 0,
    predictions: cfg.seats.includes('evaluator') ? state.predictions : null,
    unsolvable: isUnsolvable(state),
    outcome: episodeOutcome(state),
    returns: episodeReturns(state),
  };
}

type Summary = {
  verdict: { reachable: boolean; nodes: number; distance: number | null } | null;
  attempts: { score: number; correct: boolean; status: string }[];
  predictions: boolean[] | null;
  unsolvable: boolean;
  solved: number;
};

function isSummary(s: JsonValue): s is JsonValue & Summary {
  return s !== null && typeof s === 'object' && !Array.isArray(s) && Array.isArray((s as Record<string, JsonValue>).attempts);
}

/**
 * Series aggregate: attempt solve rate and mean score, the share of puzzles the exact solver
 * can reach, mean search effort, answer statuses, unsolvable proposals, evaluator agreement.
 */
export function aggregateSummaries(summaries: readonly JsonValue[]): { [key: string]: JsonValue } {
  const list = summaries.filter(isSummary);
  let attempts = 0;
  let correct = 0;
  let score = 0;
  let reachable = 0;
  let verdicts = 0;
  let nodes = 0;
  let predictions = 0;
  let agree = 0;
  let unsolvable = 0;
  const statuses: Record<string, number> = {};
  for (const s of list) {
    if (s.unsolvable) unsolvable++;
    if (s.verdict) {
      verdicts++;
      nodes += s.verdict.nodes;
      if (s.verdict.reachable) reachable++;
    }
    s.attempts.forEach((a, i) => {
      attempts++;
      score += a.score;
      if (a.correct) correct++;
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      const p = s.predictions?.[i];
      if (p !== undefined) {
        predictions++;
        if (p === a.correct) agree++;
      }
    });
  }
  return {
    puzzles: list.length,
    reachableByExactSolver: reachable,
    reachableRate: verdicts ? reachable / verdicts : 0,
    meanSolverNodes: verdicts ? nodes / verdicts : 0,
    attempts,
    solveRate: attempts ? correct / attempts : 0,
    meanScore: attempts ? score / attempts : 0,
    statuses,
    unsolvableProposals: unsolvable,
    ...(predictions ? { evaluatorAgreement: agree / predictions } : {}),
  };
}
