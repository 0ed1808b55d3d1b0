/**
 * The `view-stream` check: what a view receives as a stream (content, count and numbering of
 * events) must not depend on information it cannot see. From sampled playout states it takes
 * the env's privateVariants of one seat (the owner), plays the same actions on from the state
 * and its variant, builds both event logs exactly as the runner numbers them (MatchLogBuilder),
 * and projects them for the public view and every seat outside the owner's team with the
 * projection the servers use (projectEvents). Then:
 * - while the two projected streams have equal content, their numbering must be equal (a
 *   global sequence number would count the hidden events: who acted at night);
 * - who is asked to act and the phase label (the public `turn` events) may differ only once the
 *   owner's own actions differ, or in the step that ends the episode: an earlier difference (a
 *   `turn` that names only the seats with night roles, a phase named after a secret) reveals
 *   the owner's secret. Other content may legitimately
 *   differ earlier (a doctor's pending protection changes who dies at dawn); what each state
 *   shows is the leak check's business.
 */
import { EFFECT_SEAT, type ActionMap, type Env } from '../env';
import type { MatchEvent } from '../events';
import { jsonEqual } from '../json';
import { MatchLogBuilder } from '../match-log';
import { Rng, deriveSeed } from '../rng';
import { projectEvents } from '../view-stream';
import type { TeamOf, Viewer } from '../visibility';
import { actorsOf, randomAction, type Trace } from './playout';

const MAX_PROBLEMS = 8;
/** Steps played on from each sampled state. */
const HORIZON = 40;
/** Sampled states per episode and variants per owner. */
const STATES_PER_EPISODE = 8;
const VARIANTS_PER_OWNER = 2;

/** One continuation: its events, the step each event belongs to, and where it ended. */
interface Continuation {
  events: MatchEvent[];
  teamOf: TeamOf;
  /** Actions of every step played (to find where the owner's actions part). */
  actions: ActionMap<unknown>[];
  actors: number[][];
  /** Step index (relative) that made the state terminal, or Infinity. */
  terminalAt: number;
}

function continueFrom(env: Env, start: unknown, steps: Trace['steps'], owner: number | null, rng: Rng): Continuation {
  const log = new MatchLogBuilder('check', () => 0);
  const seats = env.seats(start);
  const out: Continuation = { events: [], teamOf: (s) => seats[s]?.team, actions: [], actors: [], terminalAt: Infinity };
  let state = start;
  for (let j = 0; j < steps.length && j < HORIZON && !env.isTerminal(state); j++) {
    const actors = actorsOf(env, state);
    // Who is asked comes before anybody answers: it is compared even when this side stops here.
    out.events.push(log.turn(j, actors, env.phase?.(state)));
    out.actors.push(actors);
    const actions: ActionMap<unknown> = {};
    for (const seat of actors) {
      let a = steps[j].actions[seat];
      const free = owner !== null && (seat === owner || seat === EFFECT_SEAT);
      if (a === undefined || !env.validateAction(state, seat, a).ok) {
        if (!free) return out; // another seat's recorded action no longer fits: stop comparing here
        a = randomAction(env, state, seat, rng);
        if (a === undefined) return out;
      }
      actions[seat] = a;
    }
    let result: ReturnType<Env['step']>;
    try {
      result = env.step(state, actions);
    } catch (e) {
      // A variant may be a state no game reaches (two seers): its step may refuse; the real one never does.
      if (owner !== null) return out;
      throw e;
    }
    for (const seat of actors) out.events.push(log.action(j, seat, actions[seat] as never, env.actionVisibility(state, seat, actions[seat])));
    out.events.push(...log.envEvents(j, result.events));
    out.actions.push(actions);
    state = result.state;
    if (env.isTerminal(state)) out.terminalAt = j;
  }
  return out;
}

/** The first relative step at which the owner's action (or who acts) differs. */
function partingStep(a: Continuation, b: Continuation, owner: number): number {
  const n = Math.min(a.actors.length, b.actors.length);
  for (let j = 0; j < n; j++) {
    if (!jsonEqual(a.actors[j], b.actors[j])) return j;
    if (j >= a.actions.length || j >= b.actions.length) return j;
    if (!jsonEqual(a.actions[j][owner], b.actions[j][owner]) || !jsonEqual(a.actions[j][EFFECT_SEAT], b.actions[j][EFFECT_SEAT])) return j;
  }
  return n;
}

function stepOf(e: MatchEvent): number {
  return 'step' in e && typeof e.step === 'number' ? e.step : -1;
}

function sameContent(a: MatchEvent, b: MatchEvent): boolean {
  return jsonEqual({ ...a, seq: 0, time: 0 }, { ...b, seq: 0, time: 0 });
}

/** How a view's stream is cut from the global log (the servers' projection; tests may pass a broken one). */
export type Projection = (events: readonly MatchEvent[], viewer: Viewer, teamOf: TeamOf) => MatchEvent[];

export function checkViewStream(env: Env, traces: Trace[], sampleEvery: number, project: Projection = projectEvents): { problems: string[]; notes: string[] } {
  if (env.meta.information === 'perfect') return { problems: [], notes: ['perfect information: nothing to hide'] };
  if (!env.privateVariants) return { problems: [], notes: ['no privateVariants: see the leak check'] };
  const out: string[] = [];
  let pairs = 0;
  for (const t of traces) {
    const rng = Rng.fromSeed(deriveSeed(t.seed, 'view-stream'));
    const stride = Math.max(sampleEvery, Math.ceil(t.steps.length / STATES_PER_EPISODE));
    for (let i = 0; i < t.steps.length && out.length < MAX_PROBLEMS; i += stride) {
      const s = t.states[i];
      if (s === undefined) break;
      const rest = t.steps.slice(i);
      const seats = env.seats(s);
      for (let owner = 0; owner < seats.length && out.length < MAX_PROBLEMS; owner++) {
        for (const variant of env.privateVariants(s, owner, rng).slice(0, VARIANTS_PER_OWNER)) {
          pairs++;
          const a = continueFrom(env, s, rest, null, rng);
          const b = continueFrom(env, variant, rest, owner, rng);
          const parting = partingStep(a, b, owner);
          const viewers: Viewer[] = ['public', ...seats.map((_, k) => k).filter((k) => k !== owner && seats[k].team !== seats[owner].team)];
          for (const viewer of viewers) {
            const problem = compareStreams(project(a.events, viewer, a.teamOf), project(b.events, viewer, b.teamOf), parting, Math.min(a.terminalAt, b.terminalAt));
            if (problem) {
              out.push(`episode seed ${t.seed} step ${i}: the ${viewer === 'public' ? 'public' : `seat ${viewer}`} stream ${problem} when only seat ${owner}'s private information changes`);
              break;
            }
          }
          if (out.length >= MAX_PROBLEMS) break;
        }
      }
    }
  }
  return { problems: out, notes: [`${pairs} state/variant pairs played ${HORIZON} steps on and compared per view`] };
}

/** What is wrong with two projected streams (see the module comment), or null. */
function compareStreams(a: MatchEvent[], b: MatchEvent[], parting: number, terminalAt: number): string | null {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    if (sameContent(a[k], b[k])) {
      if (a[k].seq !== b[k].seq) return `numbers event ${k} (${a[k].type}) ${a[k].seq} vs ${b[k].seq}, so its numbering counts hidden events,`;
      continue;
    }
    const step = Math.min(stepOf(a[k]), stepOf(b[k]));
    const ta = a[k];
    const tb = b[k];
    if (ta.type === 'turn' && tb.type === 'turn' && step <= parting && step < terminalAt) {
      return jsonEqual(ta.toAct, tb.toAct)
        ? `labels step ${step} (event ${k}) with phase ${JSON.stringify(ta.phase)} vs ${JSON.stringify(tb.phase)} before that seat acted differently,`
        : `asks different seats to act at step ${step} (event ${k}) before that seat acted differently,`;
    }
    return null;
  }
  return null;
}
