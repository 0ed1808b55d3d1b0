/**
 * The games of the Werewolf timing attack (issue 23, item 4), played through the real entry
 * points: a slow agent (a delay per decision, as a language model takes) and a fast scripted
 * one, each filling one team, watched by an outside spectator — live over socket.io (arrival
 * times) and afterwards from the HTTP API over SQLite (the events' `time` fields); or, on a
 * simulated clock, the public view as `releasedView` makes it. Used by
 * test/server/timing-attack.test.ts (which asserts the attacks are at chance) and by
 * bench/timing-attack.ts (which prints the figures).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { ruleBasedAgent } from '../../envs/werewolf/agents/rule-based';
import { EventBus } from '../../src/bus/event-bus';
import { MemoryRecorder } from '../../src/bus/recorder';
import { defaultRegistry } from '../../app/catalog';
import type { Agent } from '../../src/core/agent';
import type { MatchCreated, MatchEvent } from '../../src/core/events';
import { releasedView } from '../../src/core/phase-release';
import { Rng } from '../../src/core/rng';
import { runMatch } from '../../src/match/runner';
import type { EventMessage, LobbyMessage, SnapshotMessage } from '../../app/server/protocol';
import { startServer } from '../../app/server/start-server';
import { Store } from '../../src/store/store';
import { accuracy, attack, permutationP, type Seen } from './attackers';

/** One game as the attacker and the judge see it. */
export interface ObservedGame {
  id: string;
  /** Per seat: true for a werewolf (the truth, from the omniscient log). */
  wolves: boolean[];
  /** Per seat: true when the slow agent holds it (the truth). */
  slow: boolean[];
  /** The public stream as it arrived over the socket (arrival times). */
  live: Seen[];
  /** The public events of the HTTP API (`time` fields), read back from SQLite. */
  api: Seen[];
  /**
   * The control: the public events of the same game cut from its omniscient view in the API
   * (exact times, as a referee is entitled to) — the public stream as it was before the release
   * per phase. The attack must work there, or its failure on the public view proves nothing.
   */
  control: Seen[];
}

export interface AttackRun {
  games: ObservedGame[];
  slowName: string;
  /** Werewolves per game (public: the preset's composition). */
  wolvesPerGame: number;
}

function connect(url: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Plays `games` Werewolf games (arena preset) on a server and observes them as a spectator would. */
export async function playObserved(o: { games: number; slowMs: number; seed?: number; control?: boolean }): Promise<AttackRun> {
  const env = defaultRegistry.env('werewolf-v1');
  const params = env.resolveParams({ preset: 'arena' });
  const wolvesPerGame = (params.composition as { werewolf: number } | undefined)?.werewolf ?? 2;
  const slowName = 'slow-llm';
  const fast = ruleBasedAgent.create({ env, params, seed: 1 }) as Agent;
  const dir = mkdtempSync(join(tmpdir(), 'arena-timing-'));
  const store = new Store(join(dir, 'timing.db'));
  store.ensureLeague('timing', { attack: true });
  const bus = new EventBus();
  const recorder = new MemoryRecorder(bus);
  // keepEnded 0: a finished match leaves memory at once, so the API reads it back from SQLite
  const server = await startServer({ bus, store, port: 0, keepEnded: 0 });
  const socket = await connect(server.url);
  const games: ObservedGame[] = [];
  try {
    await socket.timeout(10_000).emitWithAck('subscribe', { channel: 'lobby' });
    const live = new Map<string, Seen[]>();
    const joined = new Map<string, () => void>();
    const endedAt = new Map<string, () => void>();
    socket.on('event', (m: EventMessage) => {
      live.get(m.matchId)?.push({ event: m.event, at: performance.now() });
      if (m.event.type === 'match.ended') endedAt.get(m.matchId)?.();
    });
    socket.on('lobby', (m: LobbyMessage) => {
      if (m.kind !== 'started') return;
      const seen: Seen[] = [];
      live.set(m.match.id, seen);
      void socket
        .timeout(10_000)
        .emitWithAck('join', { matchId: m.match.id, view: 'public' })
        .then((snap: SnapshotMessage) => {
          const at = performance.now();
          seen.unshift(...snap.events.map((event) => ({ event, at })));
          joined.get(m.match.id)?.();
        });
    });
    for (let g = 0; g < o.games; g++) {
      const id = `timing-${o.seed ?? 0}-${g}`;
      // the spectator joins before the first decision: the match waits for it (no clock involved)
      let open = false;
      const gate = new Promise<void>((resolve) => joined.set(id, resolve)).then(() => void (open = true));
      const ended = new Promise<void>((resolve) => endedAt.set(id, resolve));
      const gated = (a: Agent, name: string, delay: number): Agent => ({
        name,
        act: (obs, legal, ctx) => {
          const answer = () => (delay > 0 ? new Promise((r) => setTimeout(() => r(a.act(obs, legal, ctx)), delay)) : a.act(obs, legal, ctx));
          return open ? answer() : gate.then(answer);
        },
      });
      const slowIsWolves = g % 2 === 0; // each agent holds the wolves in half of the games
      const seed = (o.seed ?? 0) * 1000 + g;
      const r = await runMatch({
        env,
        params,
        seed,
        matchId: id,
        bus,
        agents: (seats) => seats.map((s) => ((s.team === 'werewolves') === slowIsWolves ? gated(fast, slowName, o.slowMs) : gated(fast, 'rule-based', 0))),
      });
      const all = recorder.events(id);
      const created = all.find((e): e is MatchCreated => e.type === 'match.created')!;
      store.recordMatch(
        {
          league: 'timing',
          idx: g,
          id,
          env: r.env,
          params: r.params as never,
          seed,
          seats: created.seats.map((s) => ({ player: s.agent, role: s.role, team: s.team })),
          returns: r.returns,
          outcome: r.outcome,
          code: r.code,
          length: r.length,
          faults: r.faults,
          summary: null,
          startedAt: all[0].time,
          endedAt: all[all.length - 1].time,
        },
        all,
        [],
        [],
      );
      await ended;
      games.push({ id, wolves: created.seats.map((s) => s.role === 'werewolf'), slow: created.seats.map((s) => s.agent === slowName), live: live.get(id) ?? [], api: [], control: [] });
    }
    const read = async (id: string, view: string): Promise<Seen[]> => {
      const res = await fetch(`${server.url}api/matches/${encodeURIComponent(id)}/events?view=${view}`);
      const body = (await res.json()) as { events: MatchEvent[] };
      return body.events.map((event) => ({ event, at: event.time }));
    };
    for (const game of games) {
      game.api = await read(game.id, 'public');
      if (o.control) game.control = (await read(game.id, 'omniscient')).filter((s) => s.event.visibility === 'public');
    }
    return { games, slowName, wolvesPerGame };
  } finally {
    socket.close();
    await server.close();
    recorder.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The attack's result on one channel: accuracy and its permutation p-value. */
export interface AttackScore {
  right: number;
  total: number;
  p: number;
}

/** Runs the attacker on both channels of a run. */
export function score(run: AttackRun, rounds = 2000): { live: AttackScore; api: AttackScore } {
  const truth = run.games.map((g) => g.wolves);
  const on = (pick: (g: ObservedGame) => Seen[], seed: number): AttackScore => {
    const guesses = run.games.map((g) => attack(pick(g), run.slowName, run.wolvesPerGame));
    return { ...accuracy(guesses, truth), p: permutationP(guesses, truth, rounds, seed) };
  };
  return { live: on((g) => g.live, 1), api: on((g) => g.api, 2) };
}

/**
 * The same games on a simulated clock (jest's fake timers, or any clock that setTimeout and
 * Date.now share): no spectator, no server; the public stream is what `releasedView` makes of the
 * log — the function behind the HTTP API and every live view. The slow agent takes `slowMs` ±
 * `jitterMs` (uniform, seeded) per decision, the fast one no time at all. `advance(ms)` moves the
 * simulated clock. Returns per game the truth, the released public stream (`api`) and the public
 * events with their exact times (`control`); `live` is left empty.
 */
export async function playSimulated(o: { games: number; slowMs: number; jitterMs: number; seed?: number; advance: (ms: number) => Promise<void> }): Promise<AttackRun> {
  const env = defaultRegistry.env('werewolf-v1');
  const params = env.resolveParams({ preset: 'arena' });
  const wolvesPerGame = (params.composition as { werewolf: number } | undefined)?.werewolf ?? 2;
  const slowName = 'slow-llm';
  const fast = ruleBasedAgent.create({ env, params, seed: 1 }) as Agent;
  const jitter = Rng.fromSeed(o.seed ?? 7);
  const slow: Agent = {
    name: slowName,
    act: (obs, legal, ctx) => new Promise((r) => setTimeout(() => r(fast.act(obs, legal, ctx)), o.slowMs + (jitter.next() * 2 - 1) * o.jitterMs)),
  };
  const bus = new EventBus();
  const recorder = new MemoryRecorder(bus);
  const games: ObservedGame[] = [];
  for (let g = 0; g < o.games; g++) {
    const id = `sim-${g}`;
    const slowIsWolves = g % 2 === 0;
    let done = false;
    const match = runMatch({ env, params, seed: (o.seed ?? 0) * 1000 + g, matchId: id, bus, agents: (seats) => seats.map((s) => ((s.team === 'werewolves') === slowIsWolves ? slow : { ...fast, name: 'rule-based' })) }).finally(() => (done = true));
    while (!done) await o.advance(o.slowMs);
    await match;
    const all = recorder.events(id);
    const created = all.find((e): e is MatchCreated => e.type === 'match.created')!;
    const teamOf = (seat: number) => created.seats[seat]?.team;
    games.push({
      id,
      wolves: created.seats.map((s) => s.role === 'werewolf'),
      slow: created.seats.map((s) => s.agent === slowName),
      live: [],
      api: releasedView(all, 'public', teamOf).events.map((event) => ({ event, at: event.time })),
      control: all.filter((e) => e.visibility === 'public').map((event) => ({ event, at: event.time })),
    });
  }
  recorder.stop();
  return { games, slowName, wolvesPerGame };
}
