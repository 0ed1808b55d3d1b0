/**
 * Scoring a text answer under each rule set. One pipeline for every mode:
 * extract (optionally from the last `<answer>…</answer>`) → parse (strict, expression.ts) →
 * check the numbers used against the puzzle → evaluate under the mode's arithmetic → score.
 *
 * | status      | uk | tinyzero | reasoning-gym |
 * |-------------|----|----------|---------------|
 * | missing     | 0  | 0        | 0.01          |
 * | syntax      | 0  | 0.1      | 0.01          |
 * | numbers     | 0  | 0.1      | 0.05          |
 * | arithmetic  | 0  | 0.1      | 0.01          |
 * | ok, miss    | 7 within 5, 5 within 10, else 0 | 0.1 | 0.05 |
 * | ok, correct | 10 | 1        | 1             |
 *
 * "arithmetic" is an evaluation failure: under uk an intermediate result that is not a
 * positive integer, under tinyzero / reasoning-gym a division by zero.
 *
 * In play, "missing" and "syntax" answers never reach scoring: the env's `validateAction`
 * rejects an answer whose form cannot be read ({@link answerFormProblem}), so the seat answers
 * again (an LLM is re-asked, a person's answer is bounced back) instead of losing the attempt.
 * The scores of those rows apply to answers judged outside play (`scoreAnswer` as a library).
 */
import { astNumbers, parseExpression, type Ast } from './expression';

/** The three scoring rule sets (param `rules`). */
export type Rules = 'uk' | 'tinyzero' | 'reasoning-gym';

/** How an answer fared before scoring. */
export type AnswerStatus = 'missing' | 'syntax' | 'numbers' | 'arithmetic' | 'ok';

/** The full judgement of one answer. */
export interface AnswerCheck {
  status: AnswerStatus;
  /** Why the answer was rejected (null when status is "ok"). */
  reason: string | null;
  /** The expression text that was judged (after tag extraction), or null when missing. */
  expression: string | null;
  /** Its value when it could be evaluated (even with wrong numbers), else null. */
  value: number | null;
  score: number;
  /** Exactly right: value equals the target (within the mode's tolerance) with legal numbers. */
  correct: boolean;
}

/** The best score of a mode (an exact answer). */
export function maxScore(rules: Rules): number {
  return rules === 'uk' ? 10 : 1;
}

const TOLERANCE: Record<Exclude<Rules, 'uk'>, number> = { tinyzero: 1e-5, 'reasoning-gym': 1e-6 };
const ANSWER_TAG = /<answer>([\s\S]*?)<\/answer>/g;

/** The expression inside the last `<answer>…</answer>` (tag mode) or the whole text, trimmed. */
export function extractAnswer(text: string, answerTag: boolean): { expression: string } | { reason: string } {
  let body = text;
  if (answerTag) {
    let last: string | null = null;
    for (const m of text.matchAll(ANSWER_TAG)) last = m[1];
    if (last === null) return { reason: 'no <answer>…</answer> tag in the text' };
    body = last;
  }
  const expression = body.trim();
  return expression ? { expression } : { reason: 'empty answer' };
}

/**
 * Why a text answer's form cannot be read (no `<answer>` tag in tag mode, empty, or not an
 * expression the strict parser accepts, e.g. "unknown character '=' at position 9"), or null
 * when it parses. Numbers and arithmetic are not judged here: those are scored attempts.
 */
export function answerFormProblem(text: string, answerTag: boolean): string | null {
  const extracted = extractAnswer(text, answerTag);
  if ('reason' in extracted) return extracted.reason;
  const parsed = parseExpression(extracted.expression);
  return parsed.ok ? null : parsed.reason;
}

/**
 * Checks the numbers an answer uses against the puzzle: each at most as often as the puzzle
 * has it, and (when `allRequired`) every number used. Returns the first problem, or null.
 */
export function checkNumbers(used: readonly number[], numbers: readonly number[], allRequired: boolean): string | null {
  const available = new Map<number, number>();
  for (const x of numbers) available.set(x, (available.get(x) ?? 0) + 1);
  const seen = new Map<number, number>();
  for (const x of used) {
    const have = available.get(x) ?? 0;
    const k = (seen.get(x) ?? 0) + 1;
    seen.set(x, k);
    if (have === 0) return `number ${x} is not in the puzzle`;
    if (k > have) return `number ${x} is used ${used.filter((y) => y === x).length} times but the puzzle has it ${have === 1 ? 'once' : `${have} times`}`;
  }
  if (allRequired) {
    const missing: number[] = [];
    for (const [x, have] of available) for (let k = seen.get(x) ?? 0; k < have; k++) missing.push(x);
    if (missing.length) return `not every number is used (unused: ${missing.sort((a, b) => a - b).join(', ')})`;
  }
  return null;
}

type Evaluation = { value: number } | { reason: string };

/** UK arithmetic: every intermediate result a positive integer, division exact. */
function evaluateUk(ast: Ast): Evaluation {
  if ('num' in ast) return { value: ast.num };
  const l = evaluateUk(ast.left);
  if ('reason' in l) return l;
  const r = evaluateUk(ast.right);
  if ('reason' in r) return r;
  const a = l.value;
  const b = r.value;
  let v: number;
  switch (ast.op) {
    case '+':
      v = a + b;
      break;
    case '-':
      v = a - b;
      if (v <= 0) return { reason: `${a} - ${b} = ${v} is not a positive integer (every intermediate result must be positive)` };
      break;
    case '*':
      v = a * b;
      break;
    case '/':
      if (a % b !== 0) return { reason: `${a} / ${b} is not a whole number (division must be exact)` };
      v = a / b;
      break;
  }
  if (!Number.isSafeInteger(v)) return { reason: `intermediate result ${a} ${ast.op} ${b} is too large` };
  return { value: v };
}

/** Real arithmetic (floating point, as the reference scorers evaluate); division by zero fails. */
function evaluateReal(ast: Ast): Evaluation {
  if ('num' in ast) return { value: ast.num };
  const l = evaluateReal(ast.left);
  if ('reason' in l) return l;
  const r = evaluateReal(ast.right);
  if ('reason' in r) return r;
  switch (ast.op) {
    case '+':
      return { value: l.value + r.value };
    case '-':
      return { value: l.value - r.value };
    case '*':
      return { value: l.value * r.value };
    case '/':
      return r.value === 0 ? { reason: 'division by zero' } : { value: l.value / r.value };
  }
}

function ukScore(distance: number): number {
  return distance === 0 ? 10 : distance <= 5 ? 7 : distance <= 10 ? 5 : 0;
}

const FAIL_SCORE: Record<Rules, Record<Exclude<AnswerStatus, 'ok'>, number>> = {
  uk: { missing: 0, syntax: 0, numbers: 0, arithmetic: 0 },
  tinyzero: { missing: 0, syntax: 0.1, numbers: 0.1, arithmetic: 0.1 },
  'reasoning-gym': { missing: 0.01, syntax: 0.01, numbers: 0.05, arithmetic: 0.01 },
};

/** Judges and scores one answer text for the puzzle (`numbers`, `target`) under `rules`. */
export function scoreAnswer(rules: Rules, numbers: readonly number[], target: number, text: string, answerTag: boolean): AnswerCheck {
  const fail = (status: Exclude<AnswerStatus, 'ok'>, reason: string, expression: string | null, value: number | null = null): AnswerCheck => ({
    status,
    reason,
    expression,
    value,
    score: FAIL_SCORE[rules][status],
    correct: false,
  });
  const extracted = extractAnswer(text, answerTag);
  if ('reason' in extracted) return fail('missing', extracted.reason, null);
  const expression = extracted.expression;
  const parsed = parseExpression(expression);
  if (!parsed.ok) return fail('syntax', parsed.reason, expression);
  const evaluation = rules === 'uk' ? evaluateUk(parsed.ast) : evaluateReal(parsed.ast);
  const value = 'value' in evaluation && Number.isFinite(evaluation.value) ? evaluation.value : null;
  const numbersProblem = checkNumbers(astNumbers(parsed.ast), numbers, rules !== 'uk');
  if (numbersProblem) return fail('numbers', numbersProblem, expression, value);
  if ('reason' in evaluation) return fail('arithmetic', evaluation.reason, expression);
  const v = evaluation.value;
  const correct = rules === 'uk' ? v === target : Math.abs(v - target) < TOLERANCE[rules];
  const score = rules === 'uk' ? ukScore(Math.abs(v - target)) : correct ? 1 : FAIL_SCORE[rules].numbers;
  return { status: 'ok', reason: null, expression, value: v, score, correct };
}
