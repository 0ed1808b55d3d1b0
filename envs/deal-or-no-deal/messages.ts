/**
 * Canonical messages of the dialogue protocol. Messages are free text; these two phrasings are
 * the ones the scripted and neural agents use, and the env recognizes them (and only them) in
 * the public transcript to track the latest proposal and whether it was answered "Deal.".
 * The selections alone decide the outcome: nothing said is binding.
 */
import { describeShare, offerId, OFFERS } from './offers';

/** The canonical acceptance message. */
export const DEAL_TEXT = 'Deal.';

/** Longest accepted message, in characters. */
export const MAX_MESSAGE_CHARS = 1000;

/** "I'd like 1 book, 2 hats and 0 balls; you get the rest." for offer id `id` (what the speaker keeps). */
export function proposalText(id: number): string {
  return `I'd like ${describeShare(OFFERS[id])}; you get the rest.`;
}

const PROPOSAL_TEXT = OFFERS.map((_, id) => proposalText(id));
const PROPOSAL_ID = new Map(PROPOSAL_TEXT.map((text, id) => [text, id]));
const PROPOSAL_RE = /^\s*i'd like (\d+) books?, (\d+) hats? and (\d+) balls?; you get the rest\.?\s*$/i;
const DEAL_RE = /^\s*deal\s*[.!]?\s*$/i;

/** The canonical text of proposal `id` (cached). */
export function canonicalProposal(id: number): string {
  return PROPOSAL_TEXT[id];
}

/** The offer id a message proposes (what the speaker keeps), or -1 when it is not a proposal. */
export function parseProposal(text: string): number {
  const exact = PROPOSAL_ID.get(text);
  if (exact !== undefined) return exact;
  const m = PROPOSAL_RE.exec(text);
  return m ? offerId([Number(m[1]), Number(m[2]), Number(m[3])]) : -1;
}

/** True when a message is the acceptance "Deal." (case and final punctuation ignored). */
export function isDeal(text: string): boolean {
  return DEAL_RE.test(text);
}
