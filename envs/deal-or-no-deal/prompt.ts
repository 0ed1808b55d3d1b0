/**
 * Prompts for text players (LLMs, humans in the page). The openspiel protocol is a finite set:
 * offers are named by what the proposer keeps ("keep 1 book, 2 hats and 0 balls") and "agree".
 * The dialogue protocol is open: a message, the move to the selection, a selection or walking away.
 */
import type { JsonValue } from '../../src/core/json';
import { quoteSpeech } from '../../src/core/quote-text';
import type { OpenAnswer, PromptContext, PromptTemplate } from '../../src/core/prompt';
import { AGREE, OFFERS, describeShare, restOf, valueOf } from './offers';
import type { DondObservation } from './observe';
import { describeEnvEvent, render, rulesText } from './render';

const GAME =
  'Deal or No Deal: two negotiators split a pool of books, hats and balls. Each has private values per item (the whole pool is worth 10 to each). Nothing is scored without an agreement.';

/** The action name of an openspiel action id. */
export function offerLabel(id: number): string {
  return id === AGREE ? 'agree' : `keep ${describeShare(OFFERS[id])}`;
}

/** The name of a dialogue action ("say: ...", "end the talk", "select: keep ...", "walk away"). */
function dialogueLabel(action: unknown): string {
  const a = action as { type?: unknown; text?: unknown; keep?: unknown } | null;
  if (a && typeof a === 'object') {
    if (a.type === 'message' && typeof a.text === 'string') return `say: ${quoteSpeech(a.text)}`;
    if (a.type === 'selection') return 'end the talk and select';
    if (a.type === 'no-agreement') return 'walk away';
    if (a.type === 'choose' && Array.isArray(a.keep) && a.keep.length === 3) return `select: keep ${describeShare(a.keep as number[])}`;
  }
  return JSON.stringify(action);
}

const talkSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['message', 'selection', 'choose', 'no-agreement'] },
    text: { type: 'string' },
    keep: { type: 'array', items: { type: 'integer' } },
  },
  required: ['type'],
  additionalProperties: false,
};

function open(obs: DondObservation): OpenAnswer {
  if (obs.protocol === 'dialogue' && obs.phase === 'choose') {
    return {
      format: `Make your private selection: {"type": "choose", "keep": [books, hats, balls]}${obs.noAgreementAllowed ? ', or walk away with {"type": "no-agreement"}' : ''}. You agree only if the two selections add up to the pool.`,
      schema: talkSchema,
    };
  }
  return {
    format:
      'Say something with {"type": "message", "text": "..."} (propose with e.g. "I\'d like 1 book, 0 hats and 2 balls; you get the rest.", accept with "Deal."), or end the talk with {"type": "selection"}.',
    schema: talkSchema,
  };
}

/**
 * The observation for text players: the env's render, without the openspiel list of action ids
 * (text players answer by name; the legal names follow the observation).
 */
function observation(obs: DondObservation): string {
  if (obs.protocol !== 'openspiel') return render(obs);
  return render({ ...obs, legal: [] })
    .replace('Your move. Answer with one action id:', 'Your move.')
    .replace(new RegExp(`^  ${AGREE} = Agree to the last offer \\(you would get (.*)\\)$`, 'm'), '  Agreeing to the last offer would give you $1.')
    .replace(/^  seat (\d) offered \d+: it keeps /gm, '  seat $1 offered to keep ');
}

/**
 * What an openspiel action is worth to the seat choosing it ("worth 4 to you"; agreeing: what it
 * would get and its worth), from its own values; null in a view without values.
 */
function note(action: unknown, obs: DondObservation): string | null {
  if (obs.protocol !== 'openspiel' || !obs.values || typeof action !== 'number') return null;
  if (action === AGREE) {
    if (!obs.lastOffer) return null;
    const get = restOf(obs.pool, obs.lastOffer.keep);
    return `you get ${describeShare(get)}: worth ${valueOf(obs.values, get)} to you`;
  }
  const keep = OFFERS[action];
  return keep ? `worth ${valueOf(obs.values, keep)} to you` : null;
}

/** deal-or-no-deal-v1's prompt template. */
export const dealOrNoDealPrompt: PromptTemplate<DondObservation, unknown> = {
  system: (ctx: PromptContext) =>
    `${GAME} You are negotiator ${ctx.seat} of 2. ${ctx.params.protocol === 'dialogue' ? 'You talk in free text, then each of you privately selects what to keep.' : 'You take turns making offers; an offer names what you keep (your partner gets the rest), and you may agree to the offer on the table.'} Maximize your reward.`,
  observation,
  label: (action) => (typeof action === 'number' ? offerLabel(action) : dialogueLabel(action)),
  note,
  event: (name, data) => describeEnvEvent(name, data),
  rules: rulesText,
  open,
  parse(value: JsonValue): unknown {
    if (typeof value === 'string') return { type: 'message', text: value };
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('the answer must be an object with a "type"');
    return value;
  },
};
