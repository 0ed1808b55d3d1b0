/**
 * Prompts for text players (LLMs, humans in the page): each role's instructions and the answer
 * format of each phase. The observation text is the env's render (render.ts), which already
 * states the rules and the attempt in progress. Text answers only (never step indices).
 */
import type { JsonValue } from '../../src/core/json';
import type { OpenAnswer, PromptContext, PromptTemplate } from '../../src/core/prompt';
import { actionText, describeEnvEvent, renderObservation, rulesText } from './render';
import { answerFormProblem } from './scoring';
import type { CountdownAction, CountdownObservation } from './types';
import { unreadable } from './validate';

const GAME =
  'Countdown numbers game: reach the target number by combining the given numbers with + - * / and parentheses.';

const ROLE_TEXT: Record<string, string> = {
  solver:
    'You are the solver. You make independent attempts at one puzzle; each attempt is one arithmetic expression over the given numbers. You are scored on each attempt: get as close to the target as possible, exactly if you can.',
  challenger:
    'You are the challenger. You propose a puzzle (numbers and a target) inside the contract the observation states. You score highest when the solver solves about half of its attempts: not too easy, not too hard. An unsolvable puzzle scores -1.',
  evaluator:
    'You are the evaluator. After the solver\'s attempts are revealed, you predict for each attempt whether it is exactly right (uses the numbers legally and reaches the target). You score the fraction of correct predictions.',
};

function open(obs: CountdownObservation): OpenAnswer {
  if (obs.role === 'challenger') {
    return {
      format: 'Answer with the puzzle: {"numbers": [n1, n2, ...], "target": t}, inside the contract.',
      schema: {
        type: 'object',
        properties: { numbers: { type: 'array', items: { type: 'integer' } }, target: { type: 'integer' } },
        required: ['numbers', 'target'],
        additionalProperties: false,
      },
    };
  }
  if (obs.role === 'evaluator') {
    return { format: `Is attempt ${(obs.predictions?.length ?? 0) + 1} exactly right? Answer true or false.`, schema: { type: 'boolean' } };
  }
  return {
    format: `Answer with one arithmetic expression over the numbers, e.g. "(100 + 6) * 3" (integers, + - * /, parentheses; no "=" and no result).`,
    schema: { type: 'string' },
  };
}

/** The env's render without its answer instructions (text players get theirs, without step indices, from `open`). */
function observation(obs: CountdownObservation): string {
  return renderObservation(obs)
    .split('\n')
    .filter((line) => !/^(Answer with |Continue by index|Is attempt \d+ exactly right)/.test(line))
    .join('\n');
}

/** countdown-v1's prompt template. */
export const countdownPrompt: PromptTemplate<CountdownObservation, CountdownAction> = {
  observation,
  label: (action, obs) => actionText(action, obs),
  event: (name, data) => describeEnvEvent(name, data),
  rules: rulesText,
  system: (ctx: PromptContext) => `${GAME} ${ROLE_TEXT[ctx.role] ?? `You play the ${ctx.role}.`}`,
  open,
  parse(value: JsonValue, obs: CountdownObservation): CountdownAction {
    if (obs.role === 'evaluator') {
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new Error('the answer must be true or false');
    }
    if (obs.role === 'challenger') {
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as unknown as CountdownAction;
      throw new Error('the answer must be an object {"numbers": [...], "target": n}');
    }
    const answer = typeof value === 'number' ? String(value) : value;
    if (typeof answer !== 'string') throw new Error('the answer must be an expression (a string)');
    // With answerTag the env reads the expression from the last <answer>...</answer>.
    const text = obs.answerTag && !/<answer>/.test(answer) ? `<answer>${answer}</answer>` : answer;
    // An answer that cannot be read is refused here too, so every seat kind answers again (remote seats' `answer`).
    const form = answerFormProblem(text, obs.answerTag);
    if (form) throw new Error(unreadable(form, obs.answerTag));
    return text;
  },
};
