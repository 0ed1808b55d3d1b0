/**
 * Text form of an observation, for text agents and terminals: the pool, the viewer's values,
 * what happened so far, and how to answer.
 */
import { quoteSpeech } from '../../src/core/quote-text';
import type { JsonObject } from '../../src/core/json';
import { canonicalProposal, DEAL_TEXT } from './messages';
import { AGREE, describeShare, ITEM_NAMES, OFFERS, valueOf } from './offers';
import type { DialogueObservation, DondObservation, OpenSpielObservation } from './observe';

function valuesLine(values: readonly number[]): string {
  return values.map((v, i) => `${ITEM_NAMES[i][0]} ${v}`).join(', ');
}

function header(o: DondObservation): string[] {
  const lines = [`Pool: ${describeShare(o.pool)}.`];
  if (o.values) lines.push(`Your values (per item): ${valuesLine(o.values)}; the whole pool is worth 10 to you.`);
  if (o.allValues) o.allValues.forEach((v, p) => lines.push(`Seat ${p} values: ${valuesLine(v)}.`));
  if (o.coop !== 0) lines.push(`Objective: your reward = your score + ${o.coop} x your partner's score.`);
  return lines;
}

function renderOpenSpiel(o: OpenSpielObservation): string {
  const lines = header(o);
  lines.push(`Offers so far: ${o.turn} of at most ${o.maxTurns}${o.discount < 1 ? `; current discount multiplier ${o.multiplier}` : ''}.`);
  o.offers.forEach((id, k) => lines.push(`  seat ${k % 2} offered ${id}: it keeps ${describeShare(OFFERS[id])}`));
  if (o.outcome) {
    lines.push(`Game over: ${o.outcome}.`);
    return lines.join('\n');
  }
  if (o.seat !== null && o.toAct === o.seat) {
    const values = o.values ?? [0, 0, 0];
    lines.push('Your move. Answer with one action id:');
    if (o.lastOffer) {
      const rest = o.pool.map((n, i) => n - o.lastOffer!.keep[i]);
      lines.push(`  ${AGREE} = Agree to the last offer (you would get ${describeShare(rest)}, worth ${valueOf(values, rest)} to you)`);
    }
    for (const id of o.legal) {
      if (id === AGREE) continue;
      lines.push(`  ${id} = offer to keep ${describeShare(OFFERS[id])} (worth ${valueOf(values, OFFERS[id])} to you)`);
    }
  } else if (o.toAct !== null) lines.push(`Seat ${o.toAct} is to move.`);
  return lines.join('\n');
}

function renderDialogue(o: DialogueObservation): string {
  const lines = header(o);
  lines.push(`Messages so far: ${o.turn} (selection starts after ${o.maxTurns}).`);
  // Each message quoted on one line: a seat's words cannot forge a line or a chat-template token (src/core/quote-text.ts).
  for (const m of o.messages) lines.push(`  seat ${m.seat}${m.seat === o.seat ? ' (you)' : ''}: ${quoteSpeech(m.text)}`);
  if (o.outcome) {
    lines.push(`Game over: ${o.outcome}. Selections: ${JSON.stringify(o.choices)}.`);
    return lines.join('\n');
  }
  if (o.seat === null || o.toAct !== o.seat) {
    lines.push(o.toAct === null ? '' : `Seat ${o.toAct} is to act (${o.phase}).`);
    return lines.join('\n');
  }
  if (o.phase === 'talk') {
    lines.push('Your turn to talk. Answer with JSON: {"type":"message","text":"..."} or {"type":"selection"} to end the talk.');
    lines.push(`  To propose, say e.g. "${canonicalProposal(0)}" with your counts; to accept the latest proposal say "${DEAL_TEXT}".`);
  } else {
    lines.push('Selection: privately state what you keep, {"type":"choose","keep":[books,hats,balls]}; you agree only if the two selections add up to the pool.');
    if (o.accepted) lines.push(`  Agreed in talk: seat ${o.accepted.seat} keeps ${describeShare(o.accepted.keep)}.`);
    if (o.noAgreementAllowed) lines.push('  Or walk away: {"type":"no-agreement"}.');
  }
  return lines.join('\n');
}

/** Text of an observation of either protocol. */
export function render(o: DondObservation): string {
  return o.protocol === 'openspiel' ? renderOpenSpiel(o) : renderDialogue(o);
}

const seatName = (seat: unknown): string => (typeof seat === 'number' ? `P${seat}` : 'nobody');
const shareText = (share: unknown): string | null => (Array.isArray(share) && share.length === 3 && share.every((n) => typeof n === 'number') ? describeShare(share as number[]) : null);

/**
 * The words for one deal-or-no-deal-v1 step event (`name` and `data` as `step` emitted them):
 * offers by what their proposer keeps, agreements, the selection and the end. Null for a name
 * it does not know.
 */
export function describeEnvEvent(name: string, data: JsonObject): string | null {
  switch (name) {
    case 'offer': {
      const keep = shareText(data.keep);
      return keep ? `${seatName(data.seat)} offers to keep ${keep}; the partner would get the rest.` : null;
    }
    case 'agree':
      return `${seatName(data.seat)} agrees to the offer on the table.`;
    case 'chance':
      return data.outcome === 'end' ? 'Chance ends the game.' : 'Chance lets the game go on.';
    case 'selection':
      return data.seat === null || data.seat === undefined ? `The talk ran out (${String(data.reason)}): each seat now selects privately.` : `${seatName(data.seat)} ends the talk: each seat now selects privately.`;
    case 'chosen':
      return `${seatName(data.seat)} made its private selection.`;
    case 'end': {
      const keep = shareText(data.keep);
      return `Game over: ${String(data.outcome)}${keep ? ` (the last proposer keeps ${keep})` : ''}.`;
    }
    default:
      return null;
  }
}

/** The rules in force, in words (from any viewer's observation). */
export function rulesText(o: DondObservation): string {
  const lines = [`Two negotiators split a pool of ${describeShare(o.pool)}. Each has private values per item; the whole pool is worth 10 to each.`];
  if (o.protocol === 'openspiel') {
    lines.push(`They take turns making offers (at most ${o.maxTurns}); an offer names what its proposer keeps, the partner gets the rest, and either may agree to the offer on the table.`);
    if (o.discount < 1) lines.push(`From the third action on, an agreement is worth ${o.discount}× less per action.`);
    if (o.probEnd > 0) lines.push(`After each offer from the second on, the game ends by chance with probability ${o.probEnd}.`);
  } else {
    lines.push(`They talk in free text (at most ${o.maxTurns} messages), then each privately selects what to keep; they agree only if the selections add up to the pool.`);
  }
  lines.push(`Without an agreement both score 0.${o.coop !== 0 ? ` Each seat's reward is its score plus ${o.coop} × its partner's.` : ''}`);
  return lines.join(' ');
}
