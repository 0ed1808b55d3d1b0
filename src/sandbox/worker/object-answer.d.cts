/** Types of object-answer.cjs (one answer of the sandbox worker sent as an object; one that cannot be cloned becomes an error answer). */
export interface Answer {
  id?: unknown;
  retire?: unknown;
  [field: string]: unknown;
}
/** Sends `m`; if `send` throws (the answer cannot be cloned), sends `{ id, ok: false, error }` instead (marked `retire` when `m` was), with the same `done`. */
export declare function sendObjectAnswer(send: (m: object, done: (err: Error | null) => void) => unknown, m: Answer, done: (err: Error | null) => void): void;
