/**
 * One match, live or replayed, for one view. Joins the match room over the socket: the reply is
 * the match so far (events and observations up to seq `upTo`), then live `event`/`obs` messages
 * follow; anything at or below `upTo` or already held is dropped, so there is no duplicate.
 */
import { request, getSocket } from './api.js';
import { ago, h, mount } from './dom.js';
import { ReplayControls } from './replay-controls.js';
import { pickRenderer } from './renderers/index.js';
import { describeEvent } from './renderers/describe.js';

export function showMatch(app, matchId, params) {
  const view = params.get('view') || 'public';
  const state = { events: [], observations: [], lastSeq: -1, lastObsStep: -1, match: null, live: false, joined: false, selected: null };
  const pending = { events: [], obs: [] };
  let frame = 0;
  let disposed = false;

  const header = h('div', { class: 'match-header', id: 'match-header' });
  const main = h('section', { class: 'panel renderer', id: 'renderer' });
  const timeline = h('ol', { class: 'timeline', id: 'timeline' });
  const detail = h('pre', { class: 'json', id: 'event-json' });
  const controls = new ReplayControls(() => schedule());
  mount(
    app,
    h('div', { class: 'match-page' }, header, controls.el, h('div', { class: 'match-grid' }, main, h('aside', { class: 'panel side' }, h('h3', {}, 'Events'), timeline, h('h3', {}, 'Selected event'), detail))),
  );
  mount(main, h('p', { class: 'muted' }, 'joining…'));

  function schedule() {
    if (!frame && !disposed) frame = requestAnimationFrame(draw);
  }
  // a renderer whose assets arrived late (syntax highlighting) asks for one more frame
  window.addEventListener('arena:redraw', schedule);

  function addEvent(e) {
    if (e.seq <= state.lastSeq) return; // already held (snapshot or an earlier frame)
    state.events.push(e);
    state.lastSeq = e.seq;
    if (e.type === 'match.ended') state.live = false;
  }
  // Observations are labelled in this view's event numbering (valid once event `seq` is shown);
  // one per step, so steps (not labels, which hidden steps can share) tell them apart.
  function addObs(o) {
    if (o.step <= state.lastObsStep) return;
    state.observations.push({ seq: o.seq, step: o.step, obs: o.obs });
    state.lastObsStep = o.step;
  }

  const socket = getSocket();
  const onEvent = (m) => {
    if (m.matchId !== matchId || m.view !== view) return;
    if (!state.joined) return void pending.events.push(m.event);
    addEvent(m.event);
    controls.setTotal(state.events.length);
    schedule();
  };
  const onObs = (m) => {
    if (m.matchId !== matchId || m.view !== view) return;
    if (!state.joined) return void pending.obs.push(m);
    addObs(m);
    schedule();
  };
  socket.on('event', onEvent);
  socket.on('obs', onObs);

  async function join() {
    let reply;
    try {
      reply = await request('join', { matchId, view });
    } catch (e) {
      return showError(`could not join: ${e.message}`);
    }
    if (disposed) return;
    if (!reply.ok) return showError(reply.message, reply.code);
    state.events = [];
    state.observations = [];
    state.lastSeq = reply.upTo;
    state.lastObsStep = -1;
    state.events = reply.events.slice();
    for (const o of reply.observations) addObs(o);
    state.match = reply.match;
    state.live = reply.live;
    state.joined = true;
    for (const e of pending.events.splice(0)) addEvent(e);
    for (const o of pending.obs.splice(0)) addObs(o);
    if (!state.live) controls.following = false;
    controls.setTotal(state.events.length);
    if (!state.live) controls.seek(state.events.length);
    schedule();
  }

  function showError(message, code) {
    mount(
      main,
      h('div', { class: 'error', id: 'join-error' }, h('strong', {}, code === 'forbidden' ? 'Not allowed: ' : 'Error: '), message),
      view !== 'public' ? h('p', {}, h('a', { href: `#/match/${encodeURIComponent(matchId)}` }, 'watch the public view instead')) : null,
    );
  }

  function seatCount() {
    const created = state.events.find((e) => e.type === 'match.created');
    if (created) return created.seats.length;
    const started = state.events.find((e) => e.type === 'match.started');
    return started ? started.agents.length : state.match?.agents.length ?? 0;
  }

  function drawHeader() {
    const m = state.match;
    const n = seatCount();
    const views = ['public', 'omniscient', ...Array.from({ length: n }, (_, i) => `seat:${i}`)];
    const select = h(
      'select',
      { id: 'view-select', onchange: (e) => { location.hash = `#/match/${encodeURIComponent(matchId)}?view=${encodeURIComponent(e.target.value)}`; } },
      views.map((v) => h('option', { value: v, selected: v === view }, v)),
    );
    mount(
      header,
      h('h2', {}, h('span', { class: 'env-tag' }, m?.env ?? '…'), ' ', h('span', { class: 'match-id' }, matchId)),
      h('div', { class: 'match-meta' },
        state.live ? h('span', { class: 'badge live', id: 'status' }, 'live') : h('span', { class: 'badge', id: 'status' }, m ? 'finished' : '…'),
        m ? h('span', {}, m.agents.join(' · ')) : null,
        m ? h('span', { class: 'muted' }, state.live ? `started ${ago(m.startedAt)}` : m.endedAt ? `ended ${ago(m.endedAt)}` : '') : null,
        h('label', {}, 'view ', select),
      ),
    );
  }

  function draw() {
    frame = 0;
    if (disposed) return;
    drawHeader();
    if (!state.joined) return;
    const shown = state.events.slice(0, controls.cursor);
    const cursorSeq = shown.length ? shown[shown.length - 1].seq : -1;
    let obs = null;
    for (const o of state.observations) if (o.seq <= cursorSeq) obs = o;
    if (!obs && state.observations.length) obs = state.observations[0];
    const ctx = { events: shown, obs: obs ? obs.obs : null, step: obs ? obs.step : 0, match: state.match, view, seats: seatCount(), live: state.live && controls.following };
    const renderer = pickRenderer(state.match?.env ?? '');
    main.dataset.renderer = renderer.name;
    try {
      renderer.render(main, ctx);
    } catch (e) {
      console.error(e);
      mount(main, h('p', { class: 'error' }, `renderer ${renderer.name} failed: ${e.message}`));
    }
    drawTimeline(shown, renderer);
  }

  function drawTimeline(shown, renderer) {
    const start = Math.max(0, shown.length - 300);
    mount(
      timeline,
      shown.slice(start).map((e) =>
        h(
          'li',
          { class: `ev ev-${e.type.replace('.', '-')} ${state.selected === e.seq ? 'selected' : ''}`, dataset: { seq: e.seq, type: e.type }, onclick: () => { state.selected = e.seq; detail.textContent = JSON.stringify(e, null, 2); schedule(); } },
          h('span', { class: 'seq' }, `#${e.seq}`),
          h('span', { class: 'etype' }, e.type === 'env' ? e.name : e.type),
          h('span', { class: 'edesc' }, renderer.describe?.(e) ?? describeEvent(e)),
        ),
      ),
    );
    if (controls.following) timeline.scrollTop = timeline.scrollHeight;
    if (state.selected === null) detail.textContent = shown.length ? JSON.stringify(shown[shown.length - 1], null, 2) : '';
  }

  socket.on('connect', join);
  if (socket.connected) join();
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

