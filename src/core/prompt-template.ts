/**
 * The shape of an env's prompt (its `prompt` member): the types the env contract (env.ts) and
 * the prompt helpers (prompt.ts) share, in a file of their own so that neither imports the other
 * back.
 */
import type { JsonObject, JsonValue } from './json';
import type { Params } from './params';
import type { Visibility } from './visibility';

/** Who is being prompted. */
export interface PromptContext {
  /** Env id. */
  env: string;
  role: string;
  team: string;
  seat: number;
  /** Number of seats in the episode. */
  seats: number;
  params: Params;
}

/** The answer format of an open action set (free text, an expression, a JSON object). */
export interface OpenAnswer {
  /** How to answer, in words (one or two sentences). */
  format: string;
  /** JSON schema of the answer value (used for structured output and by the page's text box). */
  schema: JsonObject;
}

/**
 * An env's prompt: the role instructions, action names and answer formats. Every member is
 * optional; `promptOf` fills in the defaults.
 */
export interface PromptTemplate<O = any, A = any> {
  /**
   * The prompt's version, recorded on every rollout row made with it (src/rollouts/provenance.ts):
   * change it when the words change. Default: a hash of the template's members' source.
   */
  version?: string;
  /** The system message: the game, the role and its goal. */
  system?(ctx: PromptContext): string;
  /** The text of one observation (default: the env's `render`). */
  observation?(obs: O, ctx: PromptContext): string;
  /**
   * Name of a finite action as a text player should answer it ("agree", "vote P3"); must be
   * unique within one legal list (duplicates get a numeric suffix). Default: its JSON text.
   */
  label?(action: A, obs: O): string;
  /**
   * A short note on a finite action for the seat about to choose it, from that seat's own
   * observation ("worth 4 to you"): shown beside the action's name on a human's button, never
   * part of the name (answers still go by name). Null or no member: no note.
   */
  note?(action: A, obs: O): string | null;
  /** Answer format where the action set is open (legal list null). Default: any JSON value. */
  open?(obs: O, ctx: PromptContext): OpenAnswer;
  /**
   * The env action for an answered value of an open set (strip tags, wrap text...). Throws an
   * Error whose message says what is wrong with the answer's form. Default: the value itself.
   */
  parse?(value: JsonValue, obs: O): A;
  /**
   * Free text that may accompany a finite action (Werewolf speech acts): the action carrying
   * `text`, or null when this action takes no text.
   */
  speech?(action: A, text: string, obs: O): A | null;
  /**
   * The env's words for one of its step events (`name` and `data` as `step` emitted them), as
   * spectators and text players read it: "P3 accuses P2.", "P0 offers to keep 1 book and 2 hats.".
   * Null (or no member) where the env has no words for it; callers then show its data.
   */
  event?(name: string, data: JsonObject, visibility: Visibility): string | null;
  /**
   * The rules in force, in words, from any viewer's observation (the scoring, what the numbers
   * or pieces are, what is secret): what a newcomer watching or playing needs to read the game.
   */
  rules?(obs: O): string;
}
