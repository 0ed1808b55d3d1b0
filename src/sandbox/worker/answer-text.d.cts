/** Types of answer-text.cjs (the JSON text of the sandbox worker's answers, one or a batch's). */
export interface Answer {
  id?: unknown;
  retire?: unknown;
  [field: string]: unknown;
}
/** A JSON-text answer; one whose result cannot be written becomes an error answer `{ id, ok: false, error }`. */
export declare function encode(m: Answer): string;
/**
 * A batch's answer `[a,b,…]`, or the longest head of it that fits `max` characters, its last answer
 * marked `retire` (`cut` true); an answer that does not fit alone becomes an error answer.
 */
export declare function batchText(answers: Answer[], max?: number): { text: string; cut: boolean };
