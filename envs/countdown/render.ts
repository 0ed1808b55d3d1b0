/**
 * Text form of an observation: the prompt a text (LLM) agent reads, and what terminals show.
 */
import type { JsonObject } from '../../src/core/json';
import { NUMBER_BASE, PREDICT_RIGHT, PREDICT_WRONG, SLOTS, STOP, TARGET_BASE, moveText } from './actions';
import { UK_TILES, type Contract } from './contract';
import type { Rules } from './scoring';
import type { CountdownObservation } from './types';

const RULES_TEXT: Record<Rules, string> = {
  uk: 'Use + - * / and parentheses on some of the numbers, each at most once. Every intermediate result must be a positive whole number. Scoring: 10 exact, 7 within 5, 5 within 10, else 0.',
  tinyzero: 'Use + - * / and parentheses with every number exactly once; division is real division. Scoring: 1 if the expression equals the target, 0.1 for any other answer, 0 for no answer.',
  'reasoning-gym': 'Use + - * / and parentheses with every number exactly once; division is real division. Scoring: 1 if the expression equals the target, 0.05 for a wrong value or wrong numbers, 0.01 for no answer or a parse error.',
};

/** The contract in words ("6 numbers (tiles from the bag ...), target 100 to 999"). */
export function contractText(c: Contract): string {
  const count = c.count[0] === c.count[1] ? `${c.count[0]}` : `${c.count[0]} to ${c.count[1]}`;
  const values = c.tiles ? 'tiles from the bag 1-10 (two each), 25, 50, 75, 100' : `integers ${c.values[0]} to ${c.values[1]}`;
  return `${count} numbers (${values}), target ${c.target[0]} to ${c.target[1]}`;
}

function q(x: [number, number] | null): string {
  return x === null ? '_' : x[1] === 1 ? String(x[0]) : `${x[0]}/${x[1]}`;
}

/** The env's render. */
export function renderObservation(o: CountdownObservation): string {
  const lines: string[] = [`Countdown (${o.rules} rules, ${o.roles}), phase ${o.phase}${o.role ? `; you are the ${o.role}` : ''}.`];
  if (o.numbers) lines.push(`Numbers: ${o.numbers.join(' ')}. Target: ${o.target}.`);
  if (o.phase === 'propose') {
    lines.push(`Contract: ${contractText(o.contract)}.`);
    if (o.draft) lines.push(`Numbers chosen so far: ${o.draft.length ? o.draft.join(' ') : '(none)'}.`);
    if (o.role === 'challenger') {
      lines.push(`Propose a puzzle inside the contract. The solver makes ${o.attempts} attempts; you score 1 - |2p - 1| where p is the fraction solved, and -1 if the puzzle has no exact solution.`);
      lines.push(o.draft?.length ? 'Continue by index: 90 + v adds the number v, 190 + t sets the target t (and completes the puzzle).' : 'Answer with JSON: {"numbers": [...], "target": n} (or compose by index: 90 + v adds the number v, 190 + t sets the target t).');
    }
  } else if (o.phase === 'solve') {
    lines.push(RULES_TEXT[o.rules]);
    lines.push(`Attempt ${o.attemptsDone + 1} of ${o.attempts}.`);
    if (o.moves?.length) lines.push(`Your numbers now: ${o.pool!.map(q).join(' ')} (after ${o.moves.join('; ')}).`);
    if (o.role === 'solver') {
      lines.push(
        o.moves?.length
          ? `Continue by index: 6p + o combines slot pair p (0-14: (0,1),(0,2),...,(4,5)) with operation o (a+b, a-b, b-a, a*b, a/b, b/a); ${STOP} stops.`
          : `Answer with one arithmetic expression, e.g. (100 + 6) * 3${o.answerTag ? ', inside <answer></answer>' : ''}.`,
      );
    }
  } else if (o.phase === 'evaluate') {
    (o.answers ?? []).forEach((a, i) => lines.push(`Attempt ${i + 1}: ${a}`));
    if (o.role === 'evaluator') {
      const k = o.predictions?.length ?? 0;
      lines.push(`${RULES_TEXT[o.rules]}`);
      lines.push(`Is attempt ${k + 1} exactly right? Answer true or false.`);
    }
  } else {
    (o.results ?? []).forEach((r, i) =>
      lines.push(`Attempt ${i + 1}: ${r.answer} -> ${r.correct ? 'correct' : r.reason ?? `value ${r.value}`}, score ${r.score}${o.predictions?.[i] !== undefined ? `, predicted ${o.predictions[i] ? 'right' : 'wrong'}` : ''}`),
    );
    if (o.verdict) lines.push(`Exact solver: ${o.verdict.reachable ? `reachable, e.g. ${o.verdict.expression}` : `not reachable${o.verdict.expression ? `; closest ${o.verdict.value} = ${o.verdict.expression}` : ''}`}.`);
    if (o.returns) lines.push(`Returns: ${o.returns.join(', ')}.`);
  }
  return lines.join('\n');
}

const LARGE = [...new Set(UK_TILES.filter((t) => t > 10))];

/**
 * The rules in force, in words: what the numbers are (for the tile bag: the large tiles 25, 50,
 * 75, 100 and the small ones 1-10), the target range, the attempts and the scoring.
 */
export function rulesText(o: CountdownObservation): string {
  const c = o.contract;
  const numbers = c.tiles
    ? `Numbers: ${c.count[0] === c.count[1] ? c.count[0] : `${c.count[0]} to ${c.count[1]}`} tiles drawn from a bag of large tiles (${LARGE.join(', ')}, one each) and small tiles (1 to 10, two each); target ${c.target[0]} to ${c.target[1]}.`
    : `Numbers: ${contractText(c)}; any number may repeat (there are no large or small tiles in these rules).`;
  return `Countdown, ${o.rules} rules. ${numbers} The solver makes ${o.attempts} independent attempt${o.attempts === 1 ? '' : 's'}. ${RULES_TEXT[o.rules]}`;
}

/** A solver's pool as the observation shows it, in the step encoding (numerator, denominator; 0, 0 = empty). */
function flatPool(pool: readonly ([number, number] | null)[]): number[] {
  return Array.from({ length: SLOTS }, (_, i) => pool[i] ?? null).flatMap((x) => (x ? [x[0], x[1]] : [0, 0]));
}

/**
 * The name of an action (any role, either form): an expression as itself, a proposal, a step of
 * an attempt by index ("25 + 50 = 75", given the solver's pool), a number or target added, a
 * prediction.
 */
export function actionText(action: unknown, o: CountdownObservation | null): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'boolean') return `predicts the attempt is ${action ? 'right' : 'wrong'}`;
  if (typeof action === 'number') {
    if (action === STOP) return 'stop the attempt';
    if (action < STOP) return (o?.pool && moveText(o.rules, flatPool(o.pool), action)) || `step ${action}`;
    if (action < TARGET_BASE) return `add the number ${action - NUMBER_BASE + 1}`;
    if (action < PREDICT_WRONG) return `set the target ${action - TARGET_BASE + 1}`;
    if (action === PREDICT_WRONG || action === PREDICT_RIGHT) return `predicts the attempt is ${action === PREDICT_RIGHT ? 'right' : 'wrong'}`;
  }
  const p = action as { numbers?: unknown; target?: unknown } | null;
  if (p && typeof p === 'object' && Array.isArray(p.numbers)) return `proposes ${p.numbers.join(' ')} with target ${String(p.target)}`;
  return JSON.stringify(action) ?? String(action);
}

const attemptNo = (data: JsonObject): string => (typeof data.attempt === 'number' ? String(data.attempt + 1) : '?');

/**
 * The words for one countdown-v1 step event (`name` and `data` as `step` emitted them). Null
 * for a name it does not know.
 */
export function describeEnvEvent(name: string, data: JsonObject): string | null {
  switch (name) {
    case 'puzzle':
      return `Puzzle: ${(data.numbers as number[]).join(' ')}, target ${String(data.target)}${data.solvable === false ? ' (no exact solution)' : ''}.`;
    case 'verdict':
      return `Exact solver: ${data.reachable ? `reachable, e.g. ${String(data.expression)}` : `not reachable${data.expression ? `; closest ${String(data.value)} = ${String(data.expression)}` : ''}`}.`;
    case 'answer':
      return `Attempt ${attemptNo(data)} answer: ${String(data.answer)}`;
    case 'attempt':
      return `Attempt ${attemptNo(data)} of ${String(data.of)} done (scored at the end).`;
    case 'answers':
      return `Answers revealed: ${(data.answers as string[]).map((a, i) => `${i + 1}) ${a}`).join('; ')}.`;
    case 'move':
      return `Attempt ${attemptNo(data)} step: ${data.text === null ? String(data.move) : String(data.text)}`;
    case 'prediction':
      return `Prediction on attempt ${attemptNo(data)}: ${data.correct ? 'right' : 'wrong'}.`;
    case 'result': {
      const attempts = Array.isArray(data.attempts) ? (data.attempts as { score: number }[]) : [];
      return `Result: ${String(data.outcome)}; attempt scores ${attempts.map((a) => a.score).join(', ') || 'none'}; returns ${Array.isArray(data.returns) ? data.returns.join(', ') : '?'}.`;
    }
    default:
      return null;
  }
}
