/**
 * Requests of the env server, validated with zod, in OpenEnv's shapes (meta-pytorch/OpenEnv,
 * src/openenv/core/env_server/types.py): `ResetRequest` {seed, episode_id, ...extra},
 * `StepRequest` {action: {...}, timeout_s, request_id, ...extra}, and the WebSocket messages
 * {type: "reset" | "step" | "state" | "close", data}. The arena's extras: `session_id`, and at
 * session creation `seat` or `role`, `agents` and `params`.
 */
import { z } from 'zod';

const sessionId = z.uuid({ error: 'must be a session id returned by reset (metadata.session_id)' });

/** The session settings a reset may give when it creates a session. */
const creation = {
  /** The trainer's seat (default: the first seat of `role`, else seat 0). */
  seat: z.number().int().min(0).max(999).optional(),
  role: z.string().min(1).max(64).optional(),
  /** Agent specs for the other seats: one for all, or one per seat (the trainer's entry is ignored). */
  agents: z.array(z.string().min(1).max(4096)).min(1).max(64).optional(),
  /** Env params for this session (default: the server's). */
  params: z.record(z.string(), z.unknown()).optional(),
};

export const ResetSchema = z
  .object({
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    episode_id: z.string().max(255).optional(),
    session_id: sessionId.optional(),
    ...creation,
  })
  .strict();
export type ResetBody = z.infer<typeof ResetSchema>;

/** One of the three forms of a trainer's action. */
export const ActionSchema = z.union([
  z.object({ value: z.json() }).strict(),
  z.object({ label: z.string().min(1).max(1000) }).strict(),
  z.object({ answer: z.json() }).strict(),
], { error: 'must be {"value": <env action>}, {"label": "<legal action name>"} or {"answer": <open answer>}' });

export const StepSchema = z
  .object({
    action: ActionSchema,
    session_id: sessionId,
    timeout_s: z.number().positive().optional(),
    request_id: z.string().max(255).optional(),
  })
  .strict();
export type StepBody = z.infer<typeof StepSchema>;

/** WebSocket messages (one session per connection, so no session_id). */
export const WsMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reset'), data: ResetSchema.omit({ session_id: true }).default({}) }).strict(),
  z.object({ type: z.literal('step'), data: ActionSchema }).strict(),
  z.object({ type: z.literal('state') }).strict(),
  z.object({ type: z.literal('close') }).strict(),
]);
export type WsMessage = z.infer<typeof WsMessageSchema>;

/** A 4xx/5xx answer: FastAPI's `detail` (a list of {loc, msg, type} for validation) plus one line naming the field. */
export interface ErrorBody {
  detail: string | { loc: (string | number)[]; msg: string; type: string }[];
  message: string;
}

/** The error body of a zod failure at `where` ("body", "query"). */
export function validationError(where: string, error: z.ZodError): ErrorBody {
  const detail = error.issues.map((i) => ({ loc: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], msg: i.message, type: i.code }));
  return { detail, message: error.issues.map((i) => `${i.path.length ? i.path.join('.') : where}: ${i.message}`).join('; ') };
}

/** A simple error body naming the field. */
export function fieldError(field: string, message: string): ErrorBody {
  return { detail: `${field}: ${message}`, message: `${field}: ${message}` };
}
