import { EFFECT_SEAT, type Env } from '../../src/core/env';
import type { MatchEvent } from '../../src/core/events';
import { actionLabel, envEventText, rulesText } from '../../src/core/prompt';
import type { ViewEvent } from './protocol';
import type { StateTracker } from './state-tracker';

/**
 * The env's words for the events spectators see, so the page never keeps a second copy of an
 * env's vocabulary:
 * - an action, named by the env's prompt template from the actor's own observation before the
 *   step ("P3: accuse P2", "P0: keep 1 book, 2 hats and 0 balls");
 * - an env step event, in the env's words (`prompt.event`: "P2 says P6 is not a werewolf.").
 * Other events (turns, messages, faults, the end) are the arena's, not the env's: the page words
 * them itself. Action names need the match's states (a {@link StateTracker}); without one only
 * env events get words. Names are cached per (step, seat), so every view and every late joiner
 * shares one computation.
 */
export class EventCaptions {
  private readonly actions = new Map<string, string | null>();
  private rules: string | null | undefined;

  constructor(
    private readonly env: Env,
    private readonly tracker: StateTracker | null,
  ) {}

  /** The caption of one event (any copy of it: only its content counts), or null when the env has no words for it. */
  caption(e: MatchEvent): string | null {
    if (e.type === 'env') return envEventText(this.env, e.name, e.data, e.visibility);
    if (e.type !== 'action' || e.seat === EFFECT_SEAT || !this.tracker) return null;
    const key = `${e.step}:${e.seat}`;
    let text = this.actions.get(key);
    if (text === undefined) {
      text = this.actionText(e.step, e.seat, e.action);
      // a step not closed yet is asked again later; a named one is final
      if (text !== null) this.actions.set(key, text);
    }
    return text;
  }

  /**
   * Adds the caption to `e` and returns it. `e` must be a copy the caller owns (the per-view
   * copies of projectEvents / ViewSequence), never an event of the match log.
   */
  attach(e: MatchEvent): ViewEvent {
    const caption = this.caption(e);
    return caption === null ? e : Object.assign(e, { caption });
  }

  /** The rules in force in words (the env's `prompt.rules` on the public view of the first state), or null. */
  rulesText(): string | null {
    if (this.rules === undefined) {
      const state = this.tracker?.stateBefore(0);
      let obs: unknown;
      try {
        obs = state === undefined ? undefined : this.env.observe(state, 'public');
      } catch {
        obs = undefined;
      }
      this.rules = obs === undefined ? null : rulesText(this.env, obs);
    }
    return this.rules;
  }

  private actionText(step: number, seat: number, action: unknown): string | null {
    const state = this.tracker?.stateBefore(step);
    if (state === undefined) return null;
    let obs: unknown;
    try {
      obs = this.env.observe(state, seat);
    } catch {
      return null;
    }
    return `P${seat}: ${actionLabel(this.env, obs, action)}`;
  }
}
