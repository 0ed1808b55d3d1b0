/**
 * Builds the events of one match in the runner's shape and global numbering (seq 0, 1, 2...
 * over all visibilities: the omniscient log order). The runner publishes what it builds; the
 * conformance kit builds the same log from playouts to check what each view would receive.
 */
import type { EnvEvent, SeatInfo } from './env';
import type { FaultRecord, MatchCode, MatchEvent } from './events';
import type { JsonValue } from './json';
import type { Params } from './params';
import type { Visibility } from './visibility';

type Base = { matchId: string; seq: number; time: number; visibility: Visibility };

/** Numbered event construction for one match (see the module comment). */
export class MatchLogBuilder {
  /** The next global sequence number. */
  seq: number;

  constructor(
    readonly matchId: string,
    private readonly clock: () => number = Date.now,
    firstSeq = 0,
  ) {
    this.seq = firstSeq;
  }

  private base(visibility: Visibility): Base {
    return { matchId: this.matchId, seq: this.seq++, time: this.clock(), visibility };
  }

  /** Omniscient: everything needed to reproduce the match (seed, hidden seat roles). */
  created(env: string, params: Params, seed: number, seats: readonly SeatInfo[], agents: readonly string[]): MatchEvent {
    return { ...this.base('omniscient'), type: 'match.created', env, params, seed, seats: seats.map((s, i) => ({ role: s.role, team: s.team, agent: agents[i] })) };
  }

  /**
   * Public: who plays. With hidden roles each agent name once, sorted, without seats or counts
   * (how many seats an agent holds would tell which team it fills), and the seat count.
   */
  started(env: string, publicParams: Params, agents: readonly string[], hiddenRoles: boolean): MatchEvent {
    return {
      ...this.base('public'),
      type: 'match.started',
      env,
      params: publicParams,
      agents: hiddenRoles ? [...new Set(agents)].sort() : [...agents],
      ...(hiddenRoles ? { seatsHidden: true, seats: agents.length } : {}),
    };
  }

  /** Public: who acts at `step`; `phase`: the env's public phase label, when it names one. */
  turn(step: number, toAct: readonly number[], phase?: string): MatchEvent {
    return { ...this.base('public'), type: 'turn', step, toAct: [...toAct], ...(phase !== undefined ? { phase } : {}) };
  }

  action(step: number, seat: number, action: JsonValue, visibility: Visibility): MatchEvent {
    return { ...this.base(visibility), type: 'action', step, seat, action };
  }

  /** The env's events of one step: "message" events become `message`, the rest `env`. */
  envEvents(step: number, events: readonly EnvEvent[]): MatchEvent[] {
    return events.map((ev): MatchEvent => {
      if (ev.type === 'message') {
        const seat = typeof ev.data.seat === 'number' ? ev.data.seat : null;
        const text = typeof ev.data.text === 'string' ? ev.data.text : '';
        return { ...this.base(ev.visibility), type: 'message', step, seat, text, data: ev.data };
      }
      return { ...this.base(ev.visibility), type: 'env', step, name: ev.type, data: ev.data };
    });
  }

  /** An agent's note about its decision (private to the seat). */
  note(step: number, seat: number, name: string, data: { [key: string]: JsonValue }): MatchEvent {
    return { ...this.base({ seat }), type: 'agent', step, seat, name, data };
  }

  fault(record: FaultRecord, visibility: Visibility): MatchEvent {
    return { ...this.base(visibility), type: 'fault', ...record };
  }

  reward(returns: number[]): MatchEvent {
    return { ...this.base('public'), type: 'reward', returns };
  }

  ended(returns: number[], outcome: string, code: MatchCode, length: number, faults: number, forfeitedBy?: number): MatchEvent {
    return {
      ...this.base('public'),
      type: 'match.ended',
      returns,
      outcome,
      code,
      length,
      faults,
      ...(forfeitedBy !== undefined ? { forfeitedBy } : {}),
    };
  }
}
