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
  /**
   * A seed derived from the match seed and the step: deterministic and public (whoever knows
   * the match seed, or can search the small seeds matches use, can compute it). Use it only
   * for randomness nothing under test may exploit. Inputs a submitted program must not know —
   * measurement inputs, generated hidden tests, fuzz seeds — come from a per-run secret the
   * handler draws itself (`crypto.randomBytes`), never from this seed: the match stays
   * replayable because the handler's result is recorded, not because it can be recomputed.
   */
  readonly seed: number;
  /** Aborted when the match is stopped: stop the work and answer quickly. */
  readonly signal: AbortSignal;
}

/**
 * How a re-performed effect compares with the recorded one (`arena replay --rerun`):
 * `same` — equal; `varies` — different only where every run differs by nature (fresh secret
 * inputs, timings), reported but not a failure; `different` — the verdict changed.
 */
export interface EffectRerun {
  verdict: 'same' | 'varies' | 'different';
  /** What differs, in words (absent when the same). */
  detail?: string;
}

/**
 * Performs one kind of effect. Never throws for bad programs or inputs (those are results,
 * such as a `runtime-error` code); a throw means the handler itself failed, and the match
 * ends with code "aborted".
 */
export interface EffectHandler {
  (request: JsonValue, ctx: EffectContext): Promise<JsonValue>;
  /**
   * For handlers whose results differ on every run (fresh secret inputs, timings): compares a
   * recorded result with a new one. Without it, `--rerun` compares the results as JSON (clock
   * fields `ms` and `ns` aside) and any difference is `different`.
   */
  compare?(recorded: JsonValue, again: JsonValue): EffectRerun;
}

/** Handlers by effect kind. */
export type EffectHandlers = Readonly<Record<string, EffectHandler>>;
