import { io, type Socket } from 'socket.io-client';
import type { Agent } from '../../src/core/agent';
import type { Env } from '../../src/core/env';
import type { MatchEvent } from '../../src/core/events';
import type { EventBus } from '../../src/bus/event-bus';
import { runMatch, type MatchResult } from '../../src/match/runner';
import type { EventMessage, SnapshotMessage } from '../../app/server/protocol';

/** A socket.io client on loopback (websocket only, no reconnection). */
export function connect(url: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** An agent that answers a random legal action after `ms` milliseconds (so matches take time). */
export function slowAgent(ms: number): Agent {
  return {
    name: `slow-${ms}`,
    act: (_obs, legal, ctx) => new Promise((r) => setTimeout(() => r(legal![ctx.rng.int(legal!.length)]), ms)),
  };
}

/** Plays one match on the bus. */
export function play(env: Env, bus: EventBus, options: { seed?: number; matchId?: string; params?: unknown; agents: Agent[] }): Promise<MatchResult> {
  return runMatch({ env, params: env.resolveParams(options.params ?? {}), seed: options.seed ?? 1, agents: options.agents, bus, matchId: options.matchId });
}

/** What one spectator received for one match view: snapshot, then live events (kept raw, no de-duplication). */
export interface Watch {
  snapshot: SnapshotMessage;
  live: MatchEvent[];
  /** Resolves when match.ended arrives (or at once when the snapshot already holds it). */
  ended: Promise<void>;
  /** snapshot.events followed by live events. */
  all(): MatchEvent[];
}

/** Joins a match view and records what arrives. Rejects with the server's error reply. */
export async function watch(socket: Socket, matchId: string, view: unknown = 'public'): Promise<Watch> {
  const live: MatchEvent[] = [];
  let endedResolve!: () => void;
  const ended = new Promise<void>((r) => (endedResolve = r));
  const key = typeof view === 'object' && view !== null ? `seat:${(view as { seat: number }).seat}` : String(view);
  socket.on('event', (m: EventMessage) => {
    if (m.matchId !== matchId || m.view !== key) return;
    live.push(m.event);
    if (m.event.type === 'match.ended') endedResolve();
  });
  const reply = (await socket.timeout(5000).emitWithAck('join', { matchId, view })) as SnapshotMessage | { ok: false; code: string; message: string };
  if (!reply.ok) throw Object.assign(new Error(reply.message), { code: reply.code });
  if (reply.events.some((e) => e.type === 'match.ended') || !reply.live) endedResolve();
  return { snapshot: reply, live, ended, all: () => [...reply.events, ...live] };
}


/**
 * Resolves with the next `count` messages of `event` on `socket` (counted from this call);
 * rejects after `ms`, a generous ceiling — the wait is on the messages, never on a clock.
 */
export function nextMessages<T>(socket: Socket, event: string, count: number, ms = 30_000): Promise<T[]> {
  const got: T[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, on);
      reject(new Error(`${got.length} of ${count} "${event}" messages within ${ms} ms`));
    }, ms);
    const on = (m: T) => {
      got.push(m);
      if (got.length < count) return;
      clearTimeout(timer);
      socket.off(event, on);
      resolve(got);
    };
    socket.on(event, on);
  });
}

/** Resolves once the bus has published `n` events of match `matchId` (counted from this call). */
export function afterEvents(bus: EventBus, matchId: string, n: number, ms = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const timer = setTimeout(() => (sub.unsubscribe(), reject(new Error(`${seen} of ${n} events of ${matchId} within ${ms} ms`))), ms);
    const sub = bus.match(matchId).subscribe(() => {
      if (++seen < n) return;
      clearTimeout(timer);
      sub.unsubscribe();
      resolve();
    });
  });
}

/** GET `path` from a started server: the status and the JSON body. */
export async function getJson(baseUrl: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(baseUrl + path.replace(/^\//, ''));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
