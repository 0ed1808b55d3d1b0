/**
 * The `dialogue` protocol: FAIR's original negotiation (Lewis et al. 2017; end-to-end-negotiator's
 * dialog.py and domain.py). Seats alternate free-text messages, seat 0 first; at any point the
 * seat to act may move to the selection (FAIR's `<selection>` token); after `max_turns` messages
 * the selection starts by itself. Then each seat privately states the split: the share it keeps
 * (`keep`) and, optionally, the partner's (`give`, which must be the rest of the pool). Agreement
 * iff the two selections are complementary (they add up to the pool); each seat then scores its
 * own values of its own share, 0 without agreement. Once `max_turns` messages were exchanged, a
 * seat may select `no-agreement` instead (Lewis et al.: "after 10 turns, we allow agents the
 * option to complete the negotiation with no agreement").
 *
 * Actions: `{type:'message', text}`, `{type:'selection'}`, `{type:'choose', keep:[b,h,x], give?}`,
 * `{type:'no-agreement'}`.
 */
import type { ActionCheck, EnvEvent, StepResult } from '../../src/core/env';
import type { Instance } from './instance';
import { isDeal, MAX_MESSAGE_CHARS, parseProposal } from './messages';
import { offerFits, offerId, OFFERS, restOf, valueOf } from './offers';
import type { Config } from './config';
import { NO_AGREEMENT, type DialogueState, type Proposal } from './state';

/** A dialogue action. */
export type DialogueAction =
  | { type: 'message'; text: string }
  | { type: 'selection' }
  | { type: 'choose'; keep: number[]; give?: number[] }
  | { type: 'no-agreement' };

/** A fresh dialogue: seat 0 speaks first. */
export function initDialogue(inst: Instance, cfg: Config): DialogueState {
  return {
    protocol: 'dialogue',
    inst,
    cfg,
    messages: [],
    proposal: null,
    accepted: null,
    phase: 'talk',
    toAct: 0,
    selector: null,
    choices: [null, null],
    outcome: '',
  };
}

/** Whether `no-agreement` may be selected: once max_turns messages were exchanged. */
export function noAgreementAllowed(s: DialogueState): boolean {
  return s.messages.length >= s.cfg.maxTurns;
}

const OK: ActionCheck = Object.freeze({ ok: true }) as ActionCheck;
const bad = (reason: string): ActionCheck => ({ ok: false, reason });

function isObject(a: unknown): a is Record<string, unknown> {
  return a !== null && typeof a === 'object' && !Array.isArray(a);
}

/** Whether `seat` may play `action` now; never throws. */
export function validateDialogue(s: DialogueState, seat: number, action: unknown): ActionCheck {
  if (s.phase === 'done') return bad('the game is over');
  if (seat !== s.toAct) return bad(`seat ${String(seat)} is not to act (seat ${s.toAct} is)`);
  const type = isObject(action) ? action.type : undefined;
  if (s.phase === 'talk') {
    if (type === 'selection') return OK;
    if (type === 'message') {
      const text = (action as Record<string, unknown>).text;
      if (typeof text !== 'string' || text.trim().length === 0) return bad('a message needs a non-empty "text" string');
      if (text.length > MAX_MESSAGE_CHARS) return bad(`a message may hold at most ${MAX_MESSAGE_CHARS} characters (got ${text.length})`);
      return OK;
    }
    return bad('in the talk phase, send {"type":"message","text":"..."} or move to the selection with {"type":"selection"}');
  }
  if (type === 'no-agreement') {
    return noAgreementAllowed(s) ? OK : bad(`no-agreement may be selected only after ${s.cfg.maxTurns} messages (max_turns); ${s.messages.length} were sent`);
  }
  if (type === 'choose') {
    const a = action as Record<string, unknown>;
    const id = offerId(a.keep);
    if (id < 0 || !offerFits(s.inst.pool, id)) {
      return bad(`"keep" must be 3 item counts within the pool [${s.inst.pool.join(',')}] (got ${JSON.stringify(a.keep) ?? 'nothing'})`);
    }
    if (a.give !== undefined) {
      const rest = restOf(s.inst.pool, OFFERS[id]);
      const give = a.give;
      if (!Array.isArray(give) || give.length !== 3 || give.some((g, i) => g !== rest[i])) {
        return bad(`"give" must be the rest of the pool, [${rest.join(',')}] (got ${JSON.stringify(give)})`);
      }
    }
    return OK;
  }
  return bad(
    `in the selection, state your split with {"type":"choose","keep":[books,hats,balls]}${noAgreementAllowed(s) ? ' or {"type":"no-agreement"}' : ''}`,
  );
}

/** Applies the acting seat's action (already validated). Pure. */
export function stepDialogue(s: DialogueState, actions: Record<number, unknown>): StepResult<DialogueState> {
  const seat = s.toAct;
  const action = actions[seat] as DialogueAction;
  if (action.type === 'message') {
    const text = action.text;
    const messages = s.messages.slice();
    messages.push({ seat, text });
    let proposal = s.proposal;
    let accepted = s.accepted;
    const proposed = parseProposal(text);
    if (proposed >= 0) {
      proposal = { seat, keep: proposed };
      accepted = null;
    } else if (isDeal(text) && proposal && proposal.seat !== seat) {
      accepted = proposal;
    }
    const events: EnvEvent[] = [{ type: 'message', visibility: 'public', data: { seat, text } }];
    const next: DialogueState = { ...s, messages, proposal, accepted, toAct: 1 - seat };
    if (messages.length >= s.cfg.maxTurns) {
      next.phase = 'choose';
      next.toAct = 0;
      events.push({ type: 'selection', visibility: 'public', data: { seat: null, reason: 'max_turns' } });
    }
    return { state: next, events };
  }
  if (action.type === 'selection') {
    return {
      state: { ...s, phase: 'choose', toAct: 0, selector: seat },
      events: [{ type: 'selection', visibility: 'public', data: { seat, reason: 'moved' } }],
    };
  }
  const choice = action.type === 'choose' ? offerId(action.keep) : NO_AGREEMENT;
  const choices = s.choices.slice();
  choices[seat] = choice;
  const events: EnvEvent[] = [{ type: 'chosen', visibility: 'public', data: { seat } }];
  if (seat === 0) return { state: { ...s, choices, toAct: 1 }, events };
  const outcome = resolve(s.inst, choices as number[]);
  events.push({ type: 'end', visibility: 'public', data: { outcome, choices: choices.map((c) => shareOf(s.inst, c as number)) } });
  return { state: { ...s, choices, toAct: -1, phase: 'done', outcome }, events };
}

function resolve(inst: Instance, choices: readonly number[]): DialogueState['outcome'] {
  if (choices[0] === NO_AGREEMENT || choices[1] === NO_AGREEMENT) return 'no-agreement';
  const a = OFFERS[choices[0]];
  const b = OFFERS[choices[1]];
  const p = inst.pool;
  return a[0] + b[0] === p[0] && a[1] + b[1] === p[1] && a[2] + b[2] === p[2] ? 'agreement' : 'disagreement';
}

/** A selection as shown to viewers: {keep, give} or "no-agreement". */
export function shareOf(inst: Instance, choice: number): { keep: number[]; give: number[] } | 'no-agreement' {
  if (choice === NO_AGREEMENT) return 'no-agreement';
  return { keep: [...OFFERS[choice]], give: restOf(inst.pool, OFFERS[choice]) };
}

/** Each seat's own value of its own share on agreement; [0, 0] otherwise. */
export function ownScoresDialogue(s: DialogueState): [number, number] {
  if (s.outcome !== 'agreement') return [0, 0];
  const v = s.inst.values;
  return [valueOf(v[0], OFFERS[s.choices[0] as number]), valueOf(v[1], OFFERS[s.choices[1] as number])];
}

/** The agreed split as [seat 0's share, seat 1's share], or null without agreement. */
export function dealDialogue(s: DialogueState): [number[], number[]] | null {
  if (s.outcome !== 'agreement') return null;
  return [[...OFFERS[s.choices[0] as number]], [...OFFERS[s.choices[1] as number]]];
}

/** The proposal a seat's view should show (a copy, so observations never alias state). */
export function proposalView(p: Proposal | null): { seat: number; keep: number[] } | null {
  return p ? { seat: p.seat, keep: [...OFFERS[p.keep]] } : null;
}
