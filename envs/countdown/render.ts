/**
 * Text form of an observation: the prompt a text (LLM) agent reads, and what terminals show.
 */
import { STOP } from './actions';
import type { Contract } from './contract';
import type { Rules } from './scoring';
import type { CountdownObservation } from './types';

const RULES_TEXT: Record<Rules, string> = {
  uk: 'Use + - * / and parentheses on some of the numbers, each at most once. Every intermediate result must be a positive whole number. Scoring: 10 exact, 7 within 5, 5 within 10, else 0.',
  tinyzero: 'Use + - * / and parentheses with every number exactly once; division is real division. Scoring: 1 if the expression equals the target, 0.1 for any other answer, 0 for no answer.',
  'reasoning-gym': 'Use + - * / and parentheses with every number exactly once; division is real division. Scoring: 1 if the expression equals the target, 0.05 for a wrong value or wrong numbers, 0.01 for no answer or a parse error.',
};

function contractText(c: Contract): string {
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
