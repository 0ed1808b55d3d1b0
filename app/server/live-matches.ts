import type { Subscription } from 'rxjs';
import type { EventBus } from '../../src/bus/event-bus';
import { teamsFromCreated } from '../../src/bus/view-filter';
import { isMatchEvent, type LeagueEvent, type MatchCreated, type MatchEnded, type MatchEvent } from '../../src/core/events';
import type { TeamOf } from '../../src/core/visibility';
import { ViewStream, type Released } from '../../src/core/phase-release';
import { TimedRelease } from '../../src/bus/timed-release';
import type { MatchSummary } from './protocol';
import { EventCaptions } from './event-captions';
import { StateTracker, type EnvResolver } from './state-tracker';

/** A step's observation for the public view: the tracker's closed step `index`, labelled `seq` in the view; computed when sent. */
export interface ObsRef {
  index: number;
  seq: number;
}

/**
 * One match seen on the bus: its whole event log so far (all visibilities), in seq order, and its
 * public view as released so far. What the summary says (agents, start, step, end, outcome) is
 * what the public view has released: a hidden-role match's public view runs per phase, on a clock
 * no seat's decision time moves (src/core/phase-release.ts), and so does its summary.
 */
export interface LiveMatch {
  readonly id: string;
  env: string;
  agents: string[];
  /** The omniscient creation event (hidden seat roles); undefined when the server joined late. */
  created: MatchCreated | undefined;
  /** The end as released to the public view (a hidden-role match's last phase may still wait when its runner is done). */
  ended: MatchEnded | undefined;
  /** Every event of the match in seq order, no gaps, no duplicates (append-only). */
  readonly events: MatchEvent[];
  startedAt: number;
  endedAt: number | null;
  lastEventAt: number;
  /** Steps so far in the public view. */
  step: number;
  /** The public view on the wall clock: numbering, phases, due times. */
  readonly publicView: TimedRelease<ObsRef>;
  /** Global seq up to which the public view has been released (-1: nothing yet). */
  publicThrough: number;
  /** True when the first event seen was not seq 0 (the server subscribed mid-match). */
  partial: boolean;
  teamOf: TeamOf;
  /** Rebuilds the states for observations; null when the env is unknown to this server. */
  tracker: StateTracker | null;
  /** The env's words for the match's events; null when the env is unknown to this server. */
  captions: EventCaptions | null;
}

/** Receives every match event right after it is appended, the public view's releases, and every league event. */
export interface LiveMatchListener {
  /** `stepped`: this event completed an env step (a new observation exists). */
  onMatchEvent(match: LiveMatch, event: MatchEvent, stepped: boolean): void;
  /** What the public view of `match` receives now, in order (numbered, stamped): events and observations. */
  onPublicRelease?(match: LiveMatch, items: readonly Released<ObsRef>[]): void;
  onLeagueEvent?(event: LeagueEvent): void;
}

export interface LiveMatchesOptions {
  /** Ended matches kept in memory for late joiners and replays (newest kept). Default 200. */
  keepEnded?: number;
  /** A live match with no event for this long is dropped (its runner died). Default 1 hour. */
  staleMs?: number;
  /** Resolves env ids so spectators can be sent observations; none = events only. */
  resolveEnv?: EnvResolver;
}

/**
 * In-memory projection of the bus for spectating: a buffer of every event per live match (and
 * the last few ended ones). Listeners are called synchronously after the event is appended, so a
 * join handled between two events sees a buffer that ends exactly where the next broadcast begins.
 */
export class LiveMatches {
  private readonly byId = new Map<string, LiveMatch>();
  private readonly endedOrder: string[] = [];
  private readonly listeners = new Set<LiveMatchListener>();
  private readonly sub: Subscription;
  private readonly keepEnded: number;
  private readonly staleMs: number;
  private readonly resolveEnv: EnvResolver | undefined;

  constructor(bus: EventBus, options: LiveMatchesOptions = {}) {
    this.keepEnded = options.keepEnded ?? 200;
    this.staleMs = options.staleMs ?? 3_600_000;
    this.resolveEnv = options.resolveEnv;
    this.sub = bus.events$.subscribe((e) => {
      if (isMatchEvent(e)) this.add(e);
      else for (const l of this.listeners) l.onLeagueEvent?.(e);
    });
  }

  /** Registers a listener; returns a function that removes it. */
  addListener(listener: LiveMatchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(id: string): LiveMatch | undefined {
    return this.byId.get(id);
  }

  /** Matches still running, oldest first. */
  live(): LiveMatch[] {
    return [...this.byId.values()].filter((m) => !m.ended);
  }

  /** Ended matches still in memory, newest first. */
  ended(): LiveMatch[] {
    const out: LiveMatch[] = [];
    for (let i = this.endedOrder.length - 1; i >= 0; i--) {
      const m = this.byId.get(this.endedOrder[i]);
      if (m) out.push(m);
    }
    return out;
  }

  /** Public summary of a match (agent names, never hidden roles). */
  summary(m: LiveMatch): MatchSummary {
    return {
      id: m.id,
      env: m.env,
      agents: m.agents,
      live: !m.ended,
      startedAt: m.startedAt,
      endedAt: m.endedAt,
      step: m.step,
      outcome: m.ended?.outcome ?? null,
      returns: m.ended?.returns ?? null,
    };
  }

  stop(): void {
    this.sub.unsubscribe();
    this.listeners.clear();
    for (const m of this.byId.values()) m.publicView.stop();
  }

  private add(e: MatchEvent): void {
    let m = this.byId.get(e.matchId);
    if (!m) {
      this.dropStale(e.time);
      const created: LiveMatch = {
        id: e.matchId,
        env: '',
        agents: [],
        created: undefined,
        ended: undefined,
        events: [],
        startedAt: e.time,
        endedAt: null,
        lastEventAt: e.time,
        step: 0,
        publicView: new TimedRelease<ObsRef>(new ViewStream<ObsRef>('public', (seat) => created.teamOf(seat)), (batch) => this.released(created, batch.items, batch.through)),
        publicThrough: -1,
        partial: e.seq !== 0,
        teamOf: teamsFromCreated(undefined),
        tracker: null,
        captions: null,
      };
      m = created;
      this.byId.set(e.matchId, m);
    } else {
      const last = m.events[m.events.length - 1];
      if (last && e.seq <= last.seq) return; // a duplicate publish: never forwarded twice
    }
    m.events.push(e);
    m.lastEventAt = e.time;
    switch (e.type) {
      case 'match.created':
        m.created = e;
        m.env = e.env;
        m.agents = [...new Set(e.seats.map((s) => s.agent))].sort(); // who holds which seat is not for summaries
        m.teamOf = teamsFromCreated(e);
        if (!m.partial) m.tracker = StateTracker.start(e, this.resolveEnv);
        m.captions = this.captionsFor(e.env, m.tracker);
        break;
      case 'match.started':
        m.env = e.env;
        if (!m.captions) m.captions = this.captionsFor(e.env, m.tracker);
        break;
      default:
        break;
    }
    const stepped = m.tracker?.feed(e) ?? false;
    for (const l of this.listeners) l.onMatchEvent(m, e, stepped);
    m.publicView.push(e, stepped && m.tracker ? { index: m.tracker.closedSteps - 1, seq: m.publicView.stream.last } : undefined);
  }

  /** The public view released `items` (its log out through global seq `through`): the summary follows it, then the listeners. */
  private released(m: LiveMatch, items: readonly Released<ObsRef>[], through: number): void {
    m.publicThrough = through;
    let ended = false;
    // a phase comes out complete: after its last turn, that step is done too
    const done = m.publicView.stream.phased ? 1 : 0;
    for (const { event: e } of items) {
      if (!e) continue;
      if (e.type === 'match.started') {
        m.agents = e.agents;
        m.startedAt = e.time;
      } else if (e.type === 'turn') m.step = e.step + done;
      else if (e.type === 'match.ended') {
        m.ended = e;
        m.endedAt = e.time;
        m.step = e.length;
        this.endedOrder.push(m.id);
        ended = true;
      }
    }
    if (items.length) for (const l of this.listeners) l.onPublicRelease?.(m, items);
    if (ended) this.trimEnded();
  }

  private captionsFor(envId: string, tracker: StateTracker | null): EventCaptions | null {
    const env = tracker?.env ?? this.resolveEnv?.(envId);
    return env ? new EventCaptions(env, tracker) : null;
  }

  private trimEnded(): void {
    while (this.endedOrder.length > this.keepEnded) this.byId.delete(this.endedOrder.shift()!);
  }

  private dropStale(now: number): void {
    for (const m of this.byId.values()) {
      if (!m.ended && now - m.lastEventAt > this.staleMs) {
        m.publicView.stop();
        this.byId.delete(m.id);
      }
    }
  }
}
