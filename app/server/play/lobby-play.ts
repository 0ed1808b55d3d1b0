/**
 * "Play" from the web page's lobby: a visitor picks an env, a seat and the opponents (the env's
 * built-in agents), and the server starts that match on its own bus with a human seat in the
 * `/play` hub; the visitor gets the seat's `#/play/<token>` link, spectators see the match live
 * in the lobby like any other.
 *
 * Safe by default for a public server (it is opt-in: `arena demo|serve --allow-play`):
 * - at most `maxMatches` lobby matches at once (further requests get 429);
 * - every decision has the `idleMs` deadline and a fault forfeits at once, so a visitor who
 *   walks away (or never opens the link) ends the match after one idle period;
 * - only envs that request no effects (no user code runs in the sandbox), and opponents that
 *   need no options, no outside service and no checkpoint (not `human`, `remote`, `llm`,
 *   `neural`, nor unrated oracles);
 * - every field of a request is checked, and a bad one is refused with a one-line message
 *   naming it (`PlayRequestError`, HTTP 400).
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { AgentFactory, Agent } from '../../../src/core/agent';
import type { Env } from '../../../src/core/env';
import { ParamError, type Params } from '../../../src/core/params';
import type { Registry } from '../../../src/core/registry';
import type { EventBus } from '../../../src/bus/event-bus';
import { runMatch } from '../../../src/match/runner';
import { seatAgentsNow, type SeatSpec } from '../../../src/match/seat-agents';
import { parseAgentRef } from '../../../src/core/agent-ref';
import type { PlayEnvOption, PlayOptionsResponse, PlaySeatOption, PlayStartResponse } from '../api-types';
import type { PlayHub } from './play-hub';
import { RemoteAgent } from './remote-agent';
import { HttpError, publicMessage } from '../http-kit';

export type { PlayEnvOption, PlayOptionsResponse, PlaySeatOption, PlayStartRequest, PlayStartResponse } from '../api-types';

/** Options of lobby play (`startServer({ lobbyPlay })`). */
export interface LobbyPlayOptions {
  /** Where envs and opponent agents come from (the CLI's registry). */
  registry: Registry;
  /** Lobby matches running at once (default 4). */
  maxMatches?: number;
  /** How long one decision may wait, the human's included (default 120 000 ms); then the seat forfeits. */
  idleMs?: number;
  /** Env ids offered (default: every registered env that requests no effects). */
  envs?: readonly string[];
  /** Finished games whose seat links keep working (a reload shows the result; default 16); older seats are released. */
  keepFinished?: number;
}

/** A refused request: `status` (400 bad field, 404 unknown env, 429 limit, 503 stopping), the `field` and a one-line message that starts with it. */
export class PlayRequestError extends HttpError {
  constructor(status: number, field: string, problem: string) {
    super(status, field, problem);
    this.name = 'PlayRequestError';
  }
}

/** Only plain registered agent kinds are offered as lobby opponents (not `human`, `remote`, `llm`, `neural`: they need a person, a socket, an endpoint or a checkpoint). */
function offered(name: string): boolean {
  try {
    return parseAgentRef(name).kind === 'registered';
  } catch {
    return false;
  }
}
const REQUEST_FIELDS = new Set(['env', 'seat', 'opponents', 'params']);

/** Starts and tracks lobby matches (see the module comment). */
export class LobbyPlay {
  readonly maxMatches: number;
  readonly idleMs: number;
  private readonly running = new Set<Promise<unknown>>();
  private readonly finished: string[] = [];
  private readonly stopper = new AbortController();
  private count = 0;

  constructor(
    private readonly hub: PlayHub,
    private readonly bus: EventBus,
    private readonly o: LobbyPlayOptions,
  ) {
    this.maxMatches = o.maxMatches ?? 4;
    this.idleMs = o.idleMs ?? 120_000;
    if (!Number.isInteger(this.maxMatches) || this.maxMatches < 1) throw new Error(`lobby play: maxMatches must be a positive integer, got ${this.maxMatches}`);
    if (!(this.idleMs > 0)) throw new Error(`lobby play: idleMs must be positive, got ${this.idleMs}`);
  }

  /** Lobby matches running now. */
  get active(): number {
    return this.running.size;
  }

  /** The envs offered, each with its seats for `params` (only `envId` when given; `params` only with an env). */
  options(envId?: string, params?: unknown): PlayOptionsResponse {
    const ids = envId === undefined ? this.envIds() : [this.offeredEnv(envId).meta.id];
    return { maxMatches: this.maxMatches, running: this.active, idleMs: this.idleMs, envs: ids.map((id) => this.setup(this.o.registry.env(id), params).option) };
  }

  /** Validates a request and starts the match; throws PlayRequestError on a bad field or at the limit. */
  start(body: unknown): PlayStartResponse {
    if (this.stopper.signal.aborted) throw new PlayRequestError(503, 'play', 'the server is stopping');
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new PlayRequestError(400, 'body', 'expected a JSON object {env, seat, opponents, params}');
    const req = body as Record<string, unknown>;
    const extra = Object.keys(req).find((k) => !REQUEST_FIELDS.has(k));
    if (extra !== undefined) throw new PlayRequestError(400, extra.slice(0, 40), `unknown field (allowed: env, seat, opponents, params)`);
    if (typeof req.env !== 'string') throw new PlayRequestError(400, 'env', 'expected an env id (a string)');
    const env = this.offeredEnv(req.env);
    const { option: setup, params } = this.setup(env, req.params);
    const seats = setup.seats.length;
    const seat = req.seat ?? 0;
    if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= seats) {
      throw new PlayRequestError(400, 'seat', `expected an integer 0-${seats - 1} (${env.meta.id} has ${seats} seat${seats === 1 ? '' : 's'}), got ${short(seat)}`);
    }
    const others = setup.seats.filter((s) => s.seat !== seat);
    let names: string[];
    if (req.opponents === undefined) names = others.map((s) => s.default);
    else {
      if (!Array.isArray(req.opponents)) throw new PlayRequestError(400, 'opponents', `expected an array of ${others.length} agent names (one per other seat, in seat order)`);
      if (req.opponents.length !== others.length) throw new PlayRequestError(400, 'opponents', `${env.meta.id} has ${seats} seats, so ${others.length} opponent${others.length === 1 ? '' : 's'}, not ${req.opponents.length}`);
      names = req.opponents.map((name, i) => {
        const s = others[i];
        if (typeof name !== 'string' || !s.agents.includes(name)) {
          throw new PlayRequestError(400, `opponents[${i}]`, `${short(name)} cannot play seat ${s.seat}${s.role ? ` (${s.role})` : ''} of ${env.meta.id}; choose from ${s.agents.join(', ')}`);
        }
        return name;
      });
    }
    if (this.active >= this.maxMatches) throw new PlayRequestError(429, 'play', `${this.active} game${this.active === 1 ? ' is' : 's are'} being played (the limit is ${this.maxMatches}); try again when one ends`);
    return this.launch(env, params, seat, others, names);
  }

  /** Aborts every lobby match (the server is closing) and waits for them to end. */
  async stop(): Promise<void> {
    this.stopper.abort(new Error('the server is stopping'));
    await Promise.allSettled([...this.running]);
  }

  private launch(env: Env, params: Params, seat: number, others: PlaySeatOption[], names: string[]): PlayStartResponse {
    const n = ++this.count;
    const label = `lobby-${n}`;
    const matchId = `play-${randomUUID()}`;
    const seed = randomInt(0, 2 ** 31);
    const { slot, token } = this.hub.issue(label, 'human');
    const specs: SeatSpec[] = [];
    specs[seat] = new RemoteAgent(this.hub, slot, 'human', label);
    others.forEach((s, i) => (specs[s.seat] = names[i]));
    let agents: Agent[];
    try {
      agents = seatAgentsNow({ registry: this.o.registry, env, params, seats: specs, seed });
    } catch (e) {
      this.hub.release(slot);
      throw new PlayRequestError(400, 'opponents', publicMessage(e));
    }
    const run = runMatch({
      env,
      params,
      seed,
      agents,
      bus: this.bus,
      matchId,
      deadlineMs: this.idleMs,
      faultPolicy: { retries: 0, then: 'forfeit' },
      signal: this.stopper.signal,
      effects: this.o.registry.effects(),
    })
      .catch(() => undefined) // the runner records faults itself; a crash must not take the server down
      .finally(() => {
        this.running.delete(run);
        this.finished.push(slot);
        while (this.finished.length > (this.o.keepFinished ?? 16)) this.hub.release(this.finished.shift()!);
      });
    this.running.add(run);
    return { matchId, env: env.meta.id, seat, agents: agents.map((a) => a.name), token, url: `#/play/${token}` };
  }

  private envIds(): string[] {
    if (this.o.envs) return [...this.o.envs];
    return this.o.registry.allEnvs().filter((e) => e.capabilities.effects.length === 0).map((e) => e.meta.id);
  }

  /** The env `id` if it is offered (404 otherwise, naming the offered ones). */
  private offeredEnv(id: string): Env {
    const ids = this.envIds();
    let env: Env | null = null;
    try {
      env = this.o.registry.env(id);
    } catch {
      env = null;
    }
    if (!env || !ids.includes(env.meta.id)) throw new PlayRequestError(404, 'env', `${short(id)} is not offered here (offered: ${ids.join(', ') || 'none'})`);
    return env;
  }

  /** The env's seats under `raw` params, with the opponents each may have (`option`), and the resolved params (`params`: all of them, the secret ones too). */
  private setup(env: Env, raw: unknown): { option: PlayEnvOption; params: Params } {
    if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) throw new PlayRequestError(400, 'params', 'expected a JSON object');
    let params: Params;
    let infos: readonly { role: string; team: string }[];
    try {
      params = env.resolveParams(raw ?? {});
      infos = env.seats(env.init(params, 0));
    } catch (e) {
      if (e instanceof ParamError) throw new PlayRequestError(400, `params.${e.field}`, e.problem);
      throw new PlayRequestError(400, 'params', publicMessage(e));
    }
    const hidden = !!env.meta.hiddenRoles;
    const seats = infos.map((info, seat): PlaySeatOption => {
      const agents = this.opponents(env, params, hidden ? null : info.role);
      return { seat, role: hidden ? null : info.role, team: hidden ? null : info.team, agents, default: agents[0] ?? '' };
    });
    return { option: { env: env.meta.id, description: env.meta.description ?? '', params: env.publicParams ? env.publicParams(params) : params, seats }, params };
  }

  /** Agent names that can sit in a seat of `role` (any role when null: only agents without a role list). */
  private opponents(env: Env, params: Params, role: string | null): string[] {
    const out: string[] = [];
    const fits = (f: AgentFactory) => (role === null ? !f.roles : true);
    for (const f of this.o.registry.agentsFor(env.meta.id, role ?? undefined)) {
      if (!offered(f.name) || f.rated === false || !fits(f) || out.includes(f.name)) continue;
      // the kind that wins for this env must also fit (an env-specific kind shadows a generic one)
      const chosen = this.o.registry.agentFactory(f.name, env.meta.id);
      if (chosen !== f && (chosen.rated === false || !fits(chosen) || (role !== null && chosen.roles && !chosen.roles.includes(role)))) continue;
      try {
        chosen.create({ env, params, seed: 0 });
      } catch {
        continue; // needs options or services this server does not have
      }
      out.push(f.name);
    }
    // the env's own baselines first (registration order), generic kinds after
    const own = (name: string) => (this.o.registry.agentFactory(name, env.meta.id).envs ? 0 : 1);
    return out.sort((a, b) => own(a) - own(b));
  }
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
