/**
 * Effect handlers: the side of the runner that does the work an env asks for with
 * `effect(state)` (run programs against tests, time kernels). Envs stay pure; a handler's
 * answer is recorded as the action of the effect seat, so replays never repeat the work.
 */
import type { JsonValue } from './json';

/** What a handler knows about the effect it performs. */
export interface EffectContext {
  readonly matchId: string;
  readonly env: string;
  /** The env step the effect answers. */
  readonly step: number;
  /** Seed for any randomness the handler needs (fresh inputs), derived from the match seed and step. */
  readonly seed: number;
  /** Aborted when the match is stopped: stop the work and answer quickly. */
  readonly signal: AbortSignal;
}

/**
 * Performs one kind of effect. Never throws for bad programs or inputs (those are results,
 * such as a `runtime-error` code); a throw means the handler itself failed, and the match
 * ends with code "aborted".
 */
export type EffectHandler = (request: JsonValue, ctx: EffectContext) => Promise<JsonValue>;

/** Handlers by effect kind. */
export type EffectHandlers = Readonly<Record<string, EffectHandler>>;
