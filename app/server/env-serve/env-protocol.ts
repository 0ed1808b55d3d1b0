/**
 * Requests of the env server in OpenEnv's shapes (meta-pytorch/OpenEnv,
 * src/openenv/core/env_server/types.py), validated with zod:
 *
 * - `ResetRequest` {seed, episode_id, ...extra} and `StepRequest` {action, timeout_s,
 *   request_id, ...extra}: like upstream (pydantic `extra="allow"`), fields the server does not
 *   know are accepted and ignored; the answer names them in `metadata.ignored_fields`, so a
 *   typo is visible without breaking a client that sends upstream's extras (`render`).
 * - An action is one of `{"value"}`, `{"label"}`, `{"answer"}`, with the optional `metadata`
 *   object every typed OpenEnv action carries; any other key is refused (upstream's `Action`
 *   is `extra="forbid"`).
 * - WebSocket messages {type: "reset" | "step" | "state" | "close" | "mcp", data}; the message
 *   itself has no other keys (upstream's `BaseMessage` forbids them).
 *
 * The arena's extras: `session_id`, and when a session is created `seat` or `role`, `agents`
 * and `params`. Errors: 422 `detail` is always FastAPI's list of `{loc, msg, type}`.
 */
import { z } from 'zod';
import { HttpError } from '../http-kit';

const sessionId = z.uuid({ error: 'must be a session id returned by reset (metadata.session_id)' });

/** A JSON object as it came (own keys kept as they are, `__proto__` included, for the checks that follow). */
const plainObject = z.custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), { error: 'must be a JSON object' });

/** The session settings a reset may give when it creates a session. */
export const CREATION_FIELDS = ['seat', 'role', 'agents', 'params'] as const;
const creation = {
  /** The trainer's seat (default: the first seat of `role`, else seat 0). */
  seat: z.number().int().min(0).max(999).optional(),
  role: z.string().min(1).max(64).optional(),
  /** Agent references for the other seats: one for all, or one per seat; each must be one the operator admits (admission.ts). */
  agents: z.array(z.string().min(1).max(4096)).min(1).max(64).optional(),
  /** Env params for this session (default: the server's). */
  params: plainObject.optional(),
};

const RESET_FIELDS = ['seed', 'episode_id', 'session_id', ...CREATION_FIELDS];
const ResetKnown = z
  .object({
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    episode_id: z.string().max(255).optional(),
    session_id: sessionId.optional(),
    ...creation,
  })
  .strict();
export type ResetBody = z.infer<typeof ResetKnown>;

/** One of the three forms of a trainer's action, with OpenEnv's optional `metadata`. */
const metadata = { metadata: z.record(z.string(), z.json()).optional() };
export const ActionSchema = z.union(
  [
    z.object({ value: z.json(), ...metadata }).strict(),
    z.object({ label: z.string().min(1).max(1000), ...metadata }).strict(),
    z.object({ answer: z.json(), ...metadata }).strict(),
  ],
  { error: 'must be {"value": <env action>}, {"label": "<legal action name>"} or {"answer": <open answer>} (with an optional "metadata" object)' },
);
export type ActionBody = z.infer<typeof ActionSchema>;

const STEP_FIELDS = ['action', 'session_id', 'timeout_s', 'request_id'];
const StepKnown = z
  .object({
    action: ActionSchema,
    session_id: sessionId.optional(),
    timeout_s: z.number().positive().optional(),
    request_id: z.string().max(255).optional(),
  })
  .strict();
export type StepBody = z.infer<typeof StepKnown>;

/** A parsed request and the fields it had that the server ignores. */
export interface Parsed<T> {
  body: T;
  ignored: string[];
}

/** A 4xx/5xx answer: FastAPI's `detail` (for 422 always a list of {loc, msg, type}) plus one line naming the field. */
export interface ErrorBody {
  detail: string | ValidationDetail[];
  message: string;
}
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A 422 with FastAPI's list of problems. */
export class ValidationFailure extends HttpError {
  constructor(readonly detail: ValidationDetail[]) {
    const first = detail[0];
    super(422, first.loc.slice(1).join('.') || String(first.loc[0]), first.msg);
  }
}

/** The error body of any HttpError (422: a `detail` list; other statuses: `detail` is the message). */
export function errorBody(e: HttpError): ErrorBody {
  if (e instanceof ValidationFailure) return { detail: e.detail, message: e.detail.map((d) => `${d.loc.slice(1).join('.') || d.loc[0]}: ${d.msg}`).join('; ') };
  if (e.status === 422) return { detail: [{ loc: ['body', ...e.field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))], msg: e.problem, type: 'value_error' }], message: e.message };
  return { detail: e.message, message: e.message };
}

function fail(where: string, error: z.ZodError): never {
  throw new ValidationFailure(error.issues.map((i) => ({ loc: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], msg: i.message, type: i.code })));
}

/** Splits `raw` into its known own keys and the names of the others. */
function split(raw: unknown, known: readonly string[], where: string): { picked: Record<string, unknown>; ignored: string[] } {
  if (raw === undefined) return { picked: {}, ignored: [] };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationFailure([{ loc: [where], msg: 'must be a JSON object', type: 'object_type' }]);
  const picked: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const key of Object.keys(raw)) {
    if (known.includes(key)) picked[key] = (raw as Record<string, unknown>)[key];
    else ignored.push(key.slice(0, 64));
  }
  return { picked, ignored };
}

/** A reset request (HTTP body or WebSocket `data`); throws ValidationFailure (422). */
export function parseReset(raw: unknown, where = 'body'): Parsed<ResetBody> {
  const { picked, ignored } = split(raw, RESET_FIELDS, where);
  const r = ResetKnown.safeParse(picked);
  if (!r.success) fail(where, r.error);
  return { body: r.data, ignored };
}

/** A step request; throws ValidationFailure (422). */
export function parseStep(raw: unknown): Parsed<StepBody> {
  const { picked, ignored } = split(raw, STEP_FIELDS, 'body');
  const r = StepKnown.safeParse(picked);
  if (!r.success) fail('body', r.error);
  return { body: r.data, ignored };
}

/** An action alone (a WebSocket step's `data`); throws ValidationFailure (422). */
export function parseAction(raw: unknown, where = 'data'): ActionBody {
  const r = ActionSchema.safeParse(raw);
  if (!r.success) fail(where, r.error);
  return r.data;
}

/** The WebSocket message types. */
export const WS_TYPES = ['reset', 'step', 'state', 'close', 'mcp'] as const;
export type WsType = (typeof WS_TYPES)[number];

/** A WebSocket message's envelope: its type and data (the message has no other keys). */
export function parseEnvelope(raw: unknown): { type: WsType; data: unknown } | { unknown: string } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationFailure([{ loc: ['message'], msg: 'must be a JSON object {"type": ..., "data": ...}', type: 'object_type' }]);
  const m = raw as Record<string, unknown>;
  const type = Object.hasOwn(m, 'type') ? m.type : undefined;
  if (typeof type !== 'string' || !(WS_TYPES as readonly string[]).includes(type)) return { unknown: typeof type === 'string' ? type.slice(0, 64) : String(type) };
  const extra = Object.keys(m).filter((k) => k !== 'type' && k !== 'data');
  if (extra.length) throw new ValidationFailure([{ loc: ['message', extra[0].slice(0, 64)], msg: 'unknown key (a message has only "type" and "data")', type: 'extra_forbidden' }]);
  return { type: type as WsType, data: Object.hasOwn(m, 'data') ? m.data : undefined };
}
