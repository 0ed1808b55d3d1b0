// @ts-check
/**
 * One match, live or replayed, for one view. Joins the match room over the socket: the reply is
 * the match so far (events and observations up to `upTo`, the views this server allows, the
 * rules in force), then live `event`/`obs` messages follow; anything at or below `upTo` or
 * already held is dropped, so there is no duplicate.
 *
 * The view menu offers what the server allows and says why the other views are disabled. A game
 * opened from the lobby's "watch" (`?watch=1`) that has ended meanwhile is replayed from its
 * first event. Each frame patches the page in place (renderer, header, event list, the event
 * box): nothing is rebuilt.
 */
import { getJson, getSocket, request } from './api.js';
import { ago, groupNames, h, mount, patch } from './dom.js';
import { EventIndex } from './event-index.js';
import { ReplayControls } from './replay-controls.js';
import { pickRenderer } from './renderers/index.js';
import { renderContext } from './renderers/context.js';
import { describeEvent } from './renderers/describe.js';
import { Timeline } from './timeline.js';

/** @typedef {import('./types.js').ViewEvent} ViewEvent */
/** @typedef {import('./types.js').ViewOption} ViewOption */
/** @typedef {import('./types.js').MatchSummary} MatchSummary */
/** @typedef {import('./types.js').SnapshotMessage} SnapshotMessage */
/** @typedef {import('./types.js').ErrorMessage} ErrorMessage */
/** @typedef {import('./types.js').EventMessage} EventMessage */
/** @typedef {import('./types.js').ObsMessage} ObsMessage */
/** @typedef {import('./types.js').MatchResponse} MatchResponse */
/** @typedef {import('./types.js').ObservationPoint} ObservationPoint */

/**
 * The menu's text for a view and why it is disabled.
 * @param {ViewOption} v
 */
export function viewLabel(v) {
  if (v.allowed) return v.view;
  return `${v.view} — ${v.afterEnd ? 'once the match ends' : 'not allowed here'}`;
}

/**
 * @param {HTMLElement} app
 * @param {string} matchId
 * @param {URLSearchParams} params
 * @returns {() => void}
 */
export function showMatch(app, matchId, params) {
  const view = params.get('view') || 'public';
  const fromLobby = params.get('watch') === '1';
  let index = new EventIndex();
  const state = {
    /** @type {ObservationPoint[]} */
    observations: [],
    lastSeq: -1,
    lastObsStep: -1,
    /** @type {MatchSummary | null} */
    match: null,
    live: false,
    joined: false,
    /** @type {ViewOption[] | null} */
    views: null,
    /** @type {string | null} */
    rules: null,
    /** @type {number | null} */
    selected: null,
    /** @type {string | null} */
    notice: null,
    /** @type {{ message: string, code?: string } | null} */
    error: null,
  };
  /** @type {{ events: ViewEvent[], obs: ObsMessage[] }} */
  const pending = { events: [], obs: [] };
  let frame = 0;
  let disposed = false;

  const header = h('div', { class: 'match-header', id: 'match-header' });
  const notice = h('p', { class: 'notice', id: 'replay-note', hidden: true });
  const rulesBox = h('details', { class: 'panel rules', id: 'rules', open: true, hidden: true });
  const main = h('section', { class: 'panel renderer', id: 'renderer' });
  const timeline = new Timeline('timeline', (seq) => {
    state.selected = state.selected === seq ? null : seq;
    schedule();
  });
  const detail = h('div', { class: 'event-detail', id: 'event-detail' });
  const controls = new ReplayControls(() => schedule());
  mount(
    app,
    h('div', { class: 'match-page' }, header, notice, controls.el, rulesBox,
      h('div', { class: 'match-grid' }, main, h('aside', { class: 'panel side' }, h('h3', {}, 'Events'), timeline.el, detail))),
  );
  mount(main, h('p', { class: 'muted' }, 'joining…'));

  function schedule() {
    if (!frame && !disposed) frame = requestAnimationFrame(draw);
  }
  // the env's renderer (imported when first drawn) or a late asset (syntax highlighting) asks for one more frame
  window.addEventListener('arena:redraw', schedule);

  /** @param {ViewEvent} e */
  function addEvent(e) {
    if (e.seq <= state.lastSeq) return; // already held (snapshot or an earlier frame)
    index.push(e);
    state.lastSeq = e.seq;
    if (e.type === 'match.ended') state.live = false;
  }
  // Observations are labelled in this view's event numbering (valid once event `seq` is shown);
  // one per step, so steps (not labels, which hidden steps can share) tell them apart.
  /** @param {ObservationPoint} o */
  function addObs(o) {
    if (o.step <= state.lastObsStep) return;
    state.observations.push({ seq: o.seq, step: o.step, obs: o.obs, ...(o.text !== undefined ? { text: o.text } : {}) });
    state.lastObsStep = o.step;
  }

  const socket = getSocket();
  /** @param {EventMessage} m */
  const onEvent = (m) => {
    if (m.matchId !== matchId || m.view !== view) return;
    if (!state.joined) return void pending.events.push(m.event);
    addEvent(m.event);
    if (m.event.type === 'match.ended') void loadViews(); // the views that open at the end are allowed now
    controls.setTotal(index.length);
    schedule();
  };
  /** @param {ObsMessage} m */
  const onObs = (m) => {
    if (m.matchId !== matchId || m.view !== view) return;
    if (!state.joined) return void pending.obs.push(m);
    addObs(m);
    schedule();
  };
  socket.on('event', onEvent);
  socket.on('obs', onObs);

  /** The views this server allows (for the menu), also when this view was refused. */
  async function loadViews() {
    try {
      const r = /** @type {MatchResponse} */ (await getJson(`/api/matches/${encodeURIComponent(matchId)}`));
      if (disposed) return;
      state.views = r.views;
      if (!state.match) state.match = r.match;
      schedule();
    } catch {
      /* the menu keeps what it has */
    }
  }

  async function join() {
    /** @type {SnapshotMessage | ErrorMessage} */
    let reply;
    try {
      reply = await request('join', { matchId, view });
    } catch (e) {
      state.error = { message: `could not join: ${e instanceof Error ? e.message : String(e)}` };
      return schedule();
    }
    if (disposed) return;
    if (!reply.ok) {
      state.error = { message: reply.message, code: reply.code };
      void loadViews();
      return schedule();
    }
    state.error = null;
    state.observations = [];
    state.lastObsStep = -1;
    state.lastSeq = -1;
    timeline.reset();
    index = new EventIndex();
    for (const e of reply.events) addEvent(e);
    state.lastSeq = reply.upTo;
    for (const o of reply.observations) addObs(o);
    state.match = reply.match;
    state.live = reply.live;
    state.views = reply.views;
    state.rules = reply.rules;
    state.joined = true;
    for (const e of pending.events.splice(0)) addEvent(e);
    for (const o of pending.obs.splice(0)) addObs(o);
    if (state.live) controls.setTotal(index.length);
    else {
      controls.following = false;
      controls.setTotal(index.length);
      if (fromLobby) {
        state.notice = 'This game ended before you arrived: it is replayed from the start (use the controls to jump or stop).';
        controls.replayFromStart();
      } else controls.seek(index.length);
    }
    schedule();
  }

  /** The observation valid at the cursor: the last one labelled at or before the last shown event. */
  function pointAt(/** @type {number} */ cursor) {
    const last = index.last(cursor);
    const seq = last ? last.seq : -1;
    const list = state.observations;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo ? list[lo - 1] : (list[0] ?? null);
  }

  function drawHeader() {
    const m = state.match;
    const views = state.views ?? [{ view: 'public', allowed: true }];
    const shown = views.some((v) => v.view === view) ? views : [...views, { view, allowed: false }];
    const refused = views.find((v) => !v.allowed && v.reason);
    patch(
      header,
      h('h2', {}, h('span', { class: 'env-tag' }, m?.env ?? '…'), ' ', h('span', { class: 'match-id' }, matchId)),
      h('div', { class: 'match-meta' },
        state.live ? h('span', { class: 'badge live', id: 'status' }, 'live') : h('span', { class: 'badge', id: 'status' }, m ? 'finished' : '…'),
        m ? h('span', { class: 'agents' }, groupNames(m.agents)) : null,
        m ? h('span', { class: 'muted' }, state.live ? `started ${ago(m.startedAt)}` : m.endedAt ? `ended ${ago(m.endedAt)}` : '') : null,
        h('label', {}, 'view ',
          h('select', { id: 'view-select', onchange: (/** @type {Event} */ e) => { location.hash = `#/match/${encodeURIComponent(matchId)}?view=${encodeURIComponent(/** @type {HTMLSelectElement} */ (e.target).value)}`; } },
            shown.map((v) => h('option', { key: v.view, value: v.view, selected: v.view === view, disabled: !v.allowed && v.view !== view, title: v.reason ?? '' }, viewLabel(v))))),
      ),
      refused ? h('p', { class: 'muted view-note', id: 'view-note' }, `Other views: ${refused.reason}.`) : null,
    );
  }

  function drawDetail(/** @type {number} */ cursor) {
    // the selection goes when the replay is scrubbed back before it; events are numbered 0, 1, 2... in the view
    if (state.selected !== null && state.selected > (index.last(cursor)?.seq ?? -1)) state.selected = null;
    const chosen = state.selected !== null ? (index.events[state.selected] ?? null) : null;
    const e = chosen ?? index.last(cursor);
    patch(detail,
      h('h3', {}, chosen ? `Selected event #${chosen.seq}` : e ? `Latest event #${e.seq}` : 'Event'),
      chosen ? h('button', { class: 'small', id: 'event-clear', onclick: () => { state.selected = null; schedule(); } }, 'show the latest') : null,
      e ? h('p', { class: 'event-words', id: 'event-words' }, describeEvent(e)) : h('p', { class: 'muted' }, 'no event yet'),
      e ? h('pre', { class: 'json', id: 'event-json' }, JSON.stringify(e, null, 2)) : null,
    );
  }

  function draw() {
    frame = 0;
    if (disposed) return;
    drawHeader();
    notice.hidden = !state.notice;
    notice.textContent = state.notice ?? '';
    if (state.error) {
      patch(main,
        h('div', { class: 'error', id: 'join-error' }, h('strong', {}, state.error.code === 'forbidden' ? 'Not allowed: ' : 'Error: '), state.error.message),
        view !== 'public' ? h('p', {}, h('a', { href: `#/match/${encodeURIComponent(matchId)}` }, 'watch the public view instead')) : null);
      return;
    }
    if (!state.joined) return;
    rulesBox.hidden = !state.rules;
    if (state.rules) patch(rulesBox, h('summary', {}, 'Rules in force'), h('p', { id: 'rules-text' }, state.rules));
    const cursor = controls.cursor;
    const point = pointAt(cursor);
    const ctx = renderContext({ index, cursor, point, view, live: state.live && controls.following, match: state.match, rules: state.rules });
    const renderer = pickRenderer(state.match?.env ?? ctx.env);
    main.dataset.renderer = renderer.name;
    try {
      renderer.render(main, ctx);
    } catch (e) {
      console.error(e);
      patch(main, h('p', { class: 'error' }, `renderer ${renderer.name} failed: ${e instanceof Error ? e.message : String(e)}`));
    }
    const scroll = timeline.sync(index.events, cursor, state.selected, controls.following);
    drawDetail(cursor);
    if (scroll) timeline.scrollToEnd();
  }

  socket.on('connect', join);
  if (socket.connected) void join();
  drawHeader();

  return () => {
    disposed = true;
    window.removeEventListener('arena:redraw', schedule);
    controls.dispose();
    if (frame) cancelAnimationFrame(frame);
    socket.off('event', onEvent);
    socket.off('obs', onObs);
    socket.off('connect', join);
    request('leave', { matchId, view }).catch(() => {});
  };
}
