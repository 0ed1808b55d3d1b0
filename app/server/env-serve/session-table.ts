/**
 * The env server's sessions, for HTTP and WebSocket alike: creation (with the client's admitted
 * agents, seat or role, and params), lookup, reset with per-session seeds, steps, closing, and
 * idle expiry. Every refusal is an HttpError naming the field; what a client sees of an agent
 * that failed to build is `publicMessage` (no server paths, no file contents).
 */
import type { Agent } from '../../../src/core/agent';
import type { Env } from '../../../src/core/env';
import { ParamError, type Params } from '../../../src/core/params';
import type { Registry } from '../../../src/core/registry';
import { deriveSeed } from '../../../src/core/rng';
import type { FaultPolicy } from '../../../src/match/fault-policy';
import { perSeat, SeatAgentError, seatAgents } from '../../../src/match/seat-agents';
import { HttpError, publicMessage } from '../http-kit';
import { AdmissionError, admitAgents, type Admission } from './admission';
import type { ResetBody } from './env-protocol';
import { EnvSession, SessionError, type StepOutput, type TrainerAction } from './env-session';

/** What the table needs from the server's options. */
export interface SessionTableOptions {
  env: Env;
  params: Params;
  registry: Registry;
  /** The operator's default agents of the other seats (one for all, or one per seat). */
  agents: readonly string[];
  admission: Admission;
  seat?: number;
  role?: string;
  maxSessions: number;
  /** HTTP sessions idle this long are closed (ms). */
  idleMs: number;
  /** WebSocket sessions idle this long are closed (ms; 0 = never: they live as long as their connection). */
  wsIdleMs: number;
  seed: number;
  deadlineMs?: number;
  faultPolicy?: FaultPolicy;
}

/** How a session is reached. */
export type SessionKind = 'http' | 'ws';

/** One session and its bookkeeping. */
export interface Entry {
  session: EnvSession;
  kind: SessionKind;
  /** Its creation number (for seeds). */
  index: number;
  episodes: number;
  /** Called when idle expiry closes it (a WebSocket closes its connection). */
  onExpire?: () => void;
}

/** The creation fields of a reset. */
export type Creation = Pick<ResetBody, 'seat' | 'role' | 'agents' | 'params'>;

/** The sessions (see the module comment). */
export class SessionTable {
  private readonly sessions = new Map<string, Entry>();
  private created = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly o: SessionTableOptions) {
    const shortest = Math.min(o.idleMs, o.wsIdleMs > 0 ? o.wsIdleMs : Infinity);
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(shortest / 4, 30_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  entries(): Entry[] {
    return [...this.sessions.values()];
  }

  /** A new session from a reset's creation fields (or the server's defaults). */
  async create(b: Creation, kind: SessionKind): Promise<Entry> {
    const { env, maxSessions } = this.o;
    if (this.sessions.size >= maxSessions) throw new HttpError(429, 'session_id', `the server holds its maximum of ${maxSessions} sessions; close one or wait for idle ones to expire`);
    let specs: string[];
    try {
      specs = b.agents ? admitAgents(this.o.admission, b.agents) : [...this.o.agents];
    } catch (e) {
      if (e instanceof AdmissionError) throw new HttpError(422, e.field, e.problem);
      throw e;
    }
    let params: Params;
    try {
      params = b.params ? env.resolveParams(b.params) : this.o.params;
    } catch (e) {
      throw new HttpError(422, e instanceof ParamError ? `params.${e.field}` : 'params', e instanceof ParamError ? e.problem : publicMessage(e));
    }
    const seats = env.seats(env.init(params, 0));
    let seat = b.seat ?? this.o.seat ?? 0;
    const role = b.role ?? (b.seat === undefined ? this.o.role : undefined);
    if (role !== undefined) {
      const i = seats.findIndex((s) => s.role === role);
      if (i < 0) throw new HttpError(422, 'role', `"${role}" is not a role of any seat (${seats.map((s) => s.role).join(', ')})`);
      seat = i;
    }
    if (seat >= seats.length) throw new HttpError(422, 'seat', `${env.meta.id} has ${seats.length} seats (0-${seats.length - 1})`);
    // one-seat envs have no other seat to fill, whatever the count
    const perSeatSpecs = perSeat(specs, seats.length) ?? (seats.length > 1 ? null : []);
    if (!perSeatSpecs) throw new HttpError(422, 'agents', `give 1 agent (for every other seat) or ${seats.length} (one per seat), not ${specs.length}`);
    // the creation number is taken before the first await: creations that overlap while their
    // agents build must not share it (their agents and episodes would draw the same seeds); one
    // that fails from here on leaves its number unused
    const index = this.created++;
    let agents: (Agent | null)[];
    try {
      const refs = seats.map((_, i) => (i === seat ? null : perSeatSpecs[i]));
      agents = await seatAgents({ registry: this.o.registry, env, params, seats: refs, seedOf: (i) => deriveSeed(this.o.seed, 'session', index, 'agent', i) });
    } catch (e) {
      if (!(e instanceof SeatAgentError)) throw e;
      throw new HttpError(422, `agents.${specs.length === 1 ? 0 : e.seat}`, publicMessage(e.cause));
    }
    // the limit again: another creation may have finished while this one awaited its agents
    if (this.sessions.size >= maxSessions) throw new HttpError(429, 'session_id', `the server holds its maximum of ${maxSessions} sessions; close one or wait for idle ones to expire`);
    const session = new EnvSession({ env, params, seat, agents, deadlineMs: this.o.deadlineMs, faultPolicy: this.o.faultPolicy, effects: this.o.registry.effects() });
    const entry: Entry = { session, kind, index, episodes: 0 };
    this.sessions.set(session.id, entry);
    return entry;
  }

  /** The session `id` of `kind` (404 otherwise); marks it active. */
  lookup(id: string, kind: SessionKind): Entry {
    const e = this.sessions.get(id);
    if (!e || e.kind !== kind) throw new HttpError(404, 'session_id', `no session "${id.slice(0, 64)}" (closed, expired, or never created)`);
    e.session.lastActivity = Date.now();
    return e;
  }

  /** The live HTTP session `id`, or null. */
  find(id: string | undefined, kind: SessionKind): Entry | null {
    const e = id === undefined ? undefined : this.sessions.get(id);
    return e && e.kind === kind ? e : null;
  }

  /** Starts an episode: the reset's seed, else episode e of session k plays deriveSeed(seed, "session", k, "episode", e). */
  async reset(entry: Entry, b: { seed?: number; episode_id?: string }): Promise<StepOutput> {
    const seed = b.seed ?? deriveSeed(this.o.seed, 'session', entry.index, 'episode', entry.episodes);
    entry.episodes++;
    entry.session.lastActivity = Date.now();
    return call(() => entry.session.reset(seed, b.episode_id));
  }

  /** Plays the trainer's action. */
  async step(entry: Entry, action: TrainerAction): Promise<StepOutput> {
    entry.session.lastActivity = Date.now();
    return call(() => entry.session.step(action));
  }

  /** Closes a session (unknown ids are ignored). */
  async close(id: string): Promise<void> {
    const e = this.sessions.get(id);
    if (!e) return;
    this.sessions.delete(id);
    await e.session.stop();
  }

  /** Closes every session and stops the sweeper. */
  async closeAll(): Promise<number> {
    clearInterval(this.sweeper);
    const ids = [...this.sessions.keys()];
    await Promise.all(ids.map((id) => this.close(id)));
    return ids.length;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, e] of this.sessions) {
      const limit = e.kind === 'http' ? this.o.idleMs : this.o.wsIdleMs;
      if (limit > 0 && now - e.session.lastActivity > limit) {
        void this.close(id);
        e.onExpire?.();
      }
    }
  }
}

async function call<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof SessionError) throw new HttpError(e.status, e.field, e.message);
    throw e;
  }
}
