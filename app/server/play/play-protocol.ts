/**
 * The `/play` socket.io namespace: remote bots and human players fill seats (docs/protocol.md).
 *
 * Connect with `io(url + '/play', { auth: { token } })`; a bad token is refused at connect
 * (`connect_error` "unauthorized"). Then:
 *
 * Server -> client:
 * - `welcome` {@link WelcomeMessage}: the seat slot and the matches it is in now;
 * - `seat` {@link SeatMessage}: a match began for the slot, or (after a reconnect) where it
 *   stands: the seat's own events so far and its observations;
 * - `event` {@link PlayEventMessage}: the seat's next event (its own view, its own numbering);
 * - `obs` {@link PlayObsMessage}: the seat's observation after a step;
 * - `decide` {@link DecideMessage}: act now — observation, its text, legal actions with names
 *   (or the answer format of an open set), the deadline;
 * - `cancel` {@link CancelMessage}: a decision ended without an answer (deadline, match over);
 * - `error` {@link PlayErrorMessage}.
 *
 * Client -> server: `act` {@link ActMessage} (acknowledged), nothing else.
 */
import { z } from 'zod';
import type { JsonValue } from '../../../src/core/json';
import type { LabelledAction, OpenAnswer } from '../../../src/core/prompt';
import type { ViewEvent } from '../protocol';
import type { ObservationPoint } from '../state-tracker';

/** The namespace. */
export const PLAY_NAMESPACE = '/play';

/** Largest accepted client message (JSON text of its arguments): answers may be code or speech. */
export const MAX_PLAY_MESSAGE_BYTES = 32 * 1024;

const requestId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only');

/**
 * An answer to a `decide`, in one of three forms: the env action itself (`action`), a legal
 * action by its name (`label`, optionally with speech in `say`), or an open-set answer as the
 * text-player protocol gives it (`answer`: an expression, a message text, a JSON object), which
 * the env's prompt template turns into the action.
 */
export const ActSchema = z.union([
  z.object({ requestId, action: z.json() }).strict(),
  z.object({ requestId, label: z.string().min(1).max(1000), say: z.string().max(8000).optional() }).strict(),
  z.object({ requestId, answer: z.json() }).strict(),
]);
export type ActMessage = z.infer<typeof ActSchema>;

const ACT_FORMS = ['action', 'label', 'answer'] as const;

/**
 * An `act` message checked field by field: the result, or one line naming the failing field
 * (`act.requestId: ...`, `act.label: ...`, `act.colour: unknown key`) — never a bare "invalid
 * input" from the union of the three forms.
 */
export function parseAct(raw: unknown): { ok: true; value: ActMessage } | { ok: false; message: string } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, message: 'act: expected an object {requestId, action | label | answer}' };
  const forms = ACT_FORMS.filter((k) => Object.hasOwn(raw, k));
  if (forms.length !== 1) return { ok: false, message: `act: give exactly one of action, label or answer${forms.length ? ` (got ${forms.join(' and ')})` : ''}` };
  const branch = ActSchema.options[ACT_FORMS.indexOf(forms[0])];
  const r = branch.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const i = r.error.issues[0];
  const keys = i.code === 'unrecognized_keys' ? i.keys : [];
  const where = ['act', ...i.path.map(String), ...(keys.length ? [keys[0].slice(0, 40)] : [])].join('.');
  const shape = forms[0] === 'answer' ? 'an answer has requestId and answer' : forms[0] === 'label' ? 'an answer by label has requestId, label and say' : 'an answer by action has requestId and action';
  return { ok: false, message: `${where}: ${keys.length ? `unknown key (${shape})` : i.message}` };
}

/** What the slot is. */
export type SeatKind = 'remote' | 'human';

/** One seat of one match held by the slot. */
export interface SeatInfoMessage {
  matchId: string;
  env: string;
  seat: number;
  role: string;
  team: string;
  /** Whether the match is over for this seat (its last events were sent). */
  ended: boolean;
}

export interface WelcomeMessage {
  slot: string;
  label: string;
  kind: SeatKind;
  seats: SeatInfoMessage[];
}

/**
 * A seat's match so far: its own events (numbered 0, 1, 2... in its own view, with the env's
 * words for them in `caption` as spectators get them) and observations.
 */
export interface SeatMessage extends SeatInfoMessage {
  events: ViewEvent[];
  observations: ObservationPoint[];
  /** The text form of the latest observation (the env's render), when known. */
  text: string | null;
  /** The rules in force in the env's words (`prompt.rules`), or null. */
  rules: string | null;
}

/** The seat's next event, with its caption where the env has words for it. */
export interface PlayEventMessage {
  matchId: string;
  seat: number;
  event: ViewEvent;
}

/**
 * A legal action as a seat is offered it: its name (what the seat answers with) and, where the
 * env has one, a note for this seat alone (`prompt.note`: "worth 4 to you").
 */
export interface SeatAction extends LabelledAction {
  note?: string;
}

export interface PlayObsMessage extends Omit<ObservationPoint, 'text'> {
  matchId: string;
  seat: number;
  text: string | null;
}

/** Act now. Exactly one of `legal` (finite) and `open` (open set) is non-null. */
export interface DecideMessage {
  requestId: string;
  matchId: string;
  env: string;
  seat: number;
  role: string;
  step: number;
  /** Epoch ms by which the answer must arrive (null: none). */
  deadline: number | null;
  observation: JsonValue;
  /** The observation as text (the env's render or its prompt template's). */
  text: string;
  legal: SeatAction[] | null;
  open: OpenAnswer | null;
  /** Whether a legal action may carry free text (`say`). */
  speech: boolean;
  /** Answers the env rejects are bounced back (ack `ok: false` with the reason) instead of being faults (human seats). */
  bounce: boolean;
}

export interface CancelMessage {
  requestId: string;
  matchId: string;
  seat: number;
  reason: string;
}

export type PlayErrorCode = 'bad-request' | 'too-large' | 'rate-limited' | 'unknown-message' | 'not-found' | 'invalid-answer' | 'stale';

export interface PlayErrorMessage {
  ok: false;
  code: PlayErrorCode;
  message: string;
  ref?: string;
}
