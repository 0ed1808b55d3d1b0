// @ts-check
/**
 * What a renderer draws from: the observation the server sent for this view at the replay
 * cursor (the env's own projection), plus what the arena's events say at that point, read
 * from the view's {@link EventIndex} (never by folding the event list).
 */

/** @typedef {import('../types.js').ViewEvent} ViewEvent */
/** @typedef {import('../types.js').MatchSummary} MatchSummary */
/** @typedef {import('../types.js').MatchEnded} MatchEnded */
/** @typedef {import('../event-index.js').ViewEnvEvent} ViewEnvEvent */
/** @typedef {import('../event-index.js').EventIndex} EventIndex */

/**
 * @typedef {object} RenderContext
 * @property {unknown} obs the view's observation after `step` (null when the server has none: an env it does not know)
 * @property {string | null} text the env's own words for `obs` (its `render`), when it has some
 * @property {number} step
 * @property {string} view "public", "omniscient" or "seat:N"
 * @property {number | null} seat the viewing seat, or null for spectator views
 * @property {boolean} live the match is running and the view follows it
 * @property {MatchSummary | null} match
 * @property {string} env
 * @property {string[]} agents agent per seat ("" where this view may not know who sits where)
 * @property {string[] | null} roles seat roles, when this view knows them (omniscient)
 * @property {number[]} toAct seats asked to act now ([] once over)
 * @property {number[] | null} returns final returns, once shown
 * @property {MatchEnded | null} ended
 * @property {string | null} rules the rules in force, in the env's words
 * @property {(name: string) => ViewEnvEvent[]} named env events of one name shown so far, oldest first
 * @property {(n: number) => ViewEvent[]} told the last n env and message events shown, oldest first
 */

/**
 * @typedef {object} Renderer
 * @property {string} name
 * @property {(el: HTMLElement, ctx: RenderContext) => void} render draws `ctx` into `el` (with `patch`: no rebuild)
 */

/**
 * The context at `cursor` events of a view.
 * @param {object} o
 * @param {EventIndex} o.index
 * @param {number} o.cursor
 * @param {{ obs: unknown, step: number, text?: string } | null} o.point the observation point for the cursor
 * @param {string} o.view
 * @param {boolean} o.live
 * @param {MatchSummary | null} o.match
 * @param {string | null} o.rules
 * @returns {RenderContext}
 */
export function renderContext({ index, cursor, point, view, live, match, rules }) {
  const created = index.created(cursor);
  const started = index.started(cursor);
  const ended = index.ended(cursor);
  const agents = created ? created.seats.map((s) => s.agent) : started ? (started.seatsHidden ? Array.from({ length: started.seats ?? started.agents.length }, () => '') : started.agents) : (match?.agents ?? []);
  const turn = index.lastTurn(cursor);
  return {
    obs: point ? point.obs : null,
    text: point?.text ?? null,
    step: point ? point.step : 0,
    view,
    seat: view.startsWith('seat:') ? Number(view.slice(5)) : null,
    live,
    match,
    env: match?.env ?? started?.env ?? created?.env ?? '',
    agents,
    roles: created ? created.seats.map((s) => s.role) : null,
    toAct: ended || !turn ? [] : turn.toAct,
    returns: index.returns(cursor),
    ended,
    rules,
    named: (name) => index.named(name, cursor),
    told: (n) => index.told(n, cursor),
  };
}
