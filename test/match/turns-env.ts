/**
 * A small configurable env for the runner's tests: `seats` players take turns (or all act at
 * once) choosing 0, 1 or 2 for `turns` steps; each seat's return is the sum of its choices.
 * Options switch on what a test needs: open actions (no legal list), effects, per-decision
 * rewards, an env that never ends, its own default action or forfeit returns.
 */
import { EFFECT_SEAT, type Env, type EnvDefinition, type SeatInfo } from '../../src/core/env';
import type { JsonValue } from '../../src/core/json';
import { normalizeEnv } from '../../src/core/normalize-env';

export interface TurnsState {
  turns: number;
  moves: { seat: number; action: number }[];
  /** Effect results applied so far (effect envs ask one effect before every move). */
  results: JsonValue[];
}

export interface TurnsOptions {
  seats?: number;
  /** Steps until terminal (default 2); Infinity for an env that never ends. */
  turns?: number;
  simultaneous?: boolean;
  utility?: 'zero-sum' | 'general-sum';
  /** meta.maxLength (default: turns, or 100 when turns is Infinity). */
  maxLength?: number;
  /** No legalActions: validateAction accepts 0, 1 and 2. */
  open?: boolean;
  /** Asks an effect of this kind before every move; the result must be a number (not with `open`). */
  effect?: string;
  /** Per-decision rewards: each move rewards its seat with the action's value. */
  rewards?: boolean;
  members?: Partial<EnvDefinition<TurnsState>>;
}

/** The env (normalized). */
export function turnsEnv(o: TurnsOptions = {}): Env<TurnsState> {
  const n = o.seats ?? 2;
  const turns = o.turns ?? 2;
  const ended = (s: TurnsState) => s.moves.length >= s.turns * (o.simultaneous ? n : 1);
  const toAct = (s: TurnsState): number[] => {
    if (ended(s)) return [];
    if (o.effect && s.results.length * (o.simultaneous ? n : 1) <= s.moves.length) return [];
    return o.simultaneous ? Array.from({ length: n }, (_, i) => i) : [s.moves.length % n];
  };
  const def: EnvDefinition<TurnsState, number> = {
    meta: {
      id: 'turns-v1',
      roles: [{ name: 'player', count: n }],
      dynamics: o.simultaneous ? 'simultaneous' : 'sequential',
      chance: false,
      information: 'imperfect',
      utility: o.utility ?? 'zero-sum',
      maxLength: o.maxLength ?? (turns === Infinity ? 100 : turns * (o.effect ? 2 : 1)),
      params: {},
      capabilities: {
        ...(o.effect ? { effects: [o.effect] } : {}),
        ...(o.rewards ? { rewards: 'per-decision' as const } : {}),
        ...(o.open ? { actions: 'open' as const } : {}),
      },
    },
    init: () => ({ turns, moves: [], results: [] }),
    seats: (): SeatInfo[] => Array.from({ length: n }, (_, i) => ({ role: 'player', team: `team${i % 2}` })),
    toAct,
    ...(o.open
      ? { validateAction: (s: TurnsState, seat: number, a: unknown) => (toAct(s).includes(seat) && (a === 0 || a === 1 || a === 2) ? { ok: true as const } : { ok: false as const, reason: `${JSON.stringify(a)} is not 0, 1 or 2` }) }
      : { legalActions: (s: TurnsState, seat: number) => (toAct(s).includes(seat) ? [0, 1, 2] : []) }),
    ...(o.effect
      ? {
          effect: (s: TurnsState) => (!ended(s) && toAct(s).length === 0 ? { kind: o.effect!, request: { step: s.moves.length } } : null),
          sampleEffectResult: () => 1,
          ...(o.open
            ? {}
            : {
                validateAction: (s: TurnsState, seat: number, a: unknown) => {
                  if (seat !== EFFECT_SEAT) return toAct(s).includes(seat) && [0, 1, 2].includes(a as number) ? { ok: true as const } : { ok: false as const, reason: `${JSON.stringify(a)} is not a legal action` };
                  return typeof a === 'number' ? { ok: true as const } : { ok: false as const, reason: `${JSON.stringify(a)} is not a number` };
                },
              }),
        }
      : {}),
    step(s, actions) {
      if (o.effect && actions[-1] !== undefined) {
        return { state: { ...s, results: [...s.results, actions[-1] as JsonValue] }, events: [{ type: 'effect', visibility: 'public', data: { result: actions[-1] as JsonValue } }] };
      }
      const moves = [...s.moves, ...Object.entries(actions).map(([seat, action]) => ({ seat: Number(seat), action: action as number }))];
      return {
        state: { ...s, moves },
        events: [{ type: 'moved', visibility: 'public', data: { count: moves.length } }],
        ...(o.rewards ? { rewards: Object.entries(actions).map(([seat, action]) => ({ seat: Number(seat), value: action as number })) } : {}),
      };
    },
    isTerminal: ended,
    returns: (s) => Array.from({ length: n }, (_, i) => s.moves.filter((m) => m.seat === i).reduce((t, m) => t + m.action, 0)),
    outcome: (s) => (ended(s) ? 'done' : ''),
    observe: (s, viewer) => ({ moves: s.moves.length, viewer: typeof viewer === 'number' ? viewer : viewer }),
    summary: (s) => ({ moves: s.moves.map((m) => m.action) }),
    ...(o.members ?? {}),
  };
  return normalizeEnv(def as EnvDefinition) as Env<TurnsState>;
}
