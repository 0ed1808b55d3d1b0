// @ts-check
/**
 * A human seat: #/play/<token>. Connects to the /play namespace with the seat's token and shows
 * that seat's own view only (its events, numbered in its own view and put in the env's words as
 * spectators get them, and its observation: what the server sends a seat, never more), the env's
 * renderer, the rules, and — when it is this seat's turn — the legal actions as buttons named by
 * the env, each with the env's note for this seat where it has one ("worth 4 to you"), with a
 * speech box where an action may carry words, or a text box for open action sets (a Countdown
 * expression, a negotiation message, JSON where the format asks). After the game: the result
 * and links to its replay and the lobby (they work while the server that ran it is up).
 */
import { h, mount, patch } from './dom.js';
import { num } from './format.js';
import { EventIndex } from './event-index.js';
import { pickRenderer } from './renderers/index.js';
import { renderContext } from './renderers/context.js';
import { Timeline } from './timeline.js';

/** @typedef {import('./types.js').SeatMessage} SeatMessage */
/** @typedef {import('./types.js').DecideMessage} DecideMessage */
/** @typedef {import('./types.js').PlayEventMessage} PlayEventMessage */
/** @typedef {import('./types.js').PlayObsMessage} PlayObsMessage */
/** @typedef {import('./types.js').CancelMessage} CancelMessage */
/** @typedef {import('./types.js').WelcomeMessage} WelcomeMessage */
/** @typedef {import('./types.js').PlayErrorMessage} PlayErrorMessage */
/** @typedef {import('./types.js').ObservationPoint} ObservationPoint */
/** @typedef {import('./types.js').JsonValue} JsonValue */

/**
 * @param {HTMLElement} app
 * @param {string} token
 * @returns {() => void}
 */
export function showPlay(app, token) {
  const state = {
    /** @type {{ matchId: string, env: string, seat: number, role: string, team: string } | null} */
    seat: null,
    index: new EventIndex(),
    /** @type {ObservationPoint[]} */
    observations: [],
    /** @type {string | null} */
    text: null,
    /** @type {string | null} */
    rules: null,
    /** @type {DecideMessage | null} */
    decision: null,
    /** @type {string | null} */
    error: null,
    /** @type {WelcomeMessage | null} */
    welcome: null,
    connected: false,
  };
  const header = h('div', { class: 'match-header', id: 'play-header' });
  const board = h('section', { class: 'panel renderer', id: 'play-board' });
  const decide = h('section', { class: 'panel', id: 'play-decide' });
  const text = h('pre', { class: 'json', id: 'play-text' });
  const rules = h('details', { class: 'rules', id: 'play-rules', hidden: true });
  const timeline = new Timeline('play-events');
  mount(
    app,
    h('div', { class: 'play-page' }, header, decide, h('div', { class: 'match-grid' }, board, h('aside', { class: 'panel side' }, rules, h('h3', {}, 'What you see'), text, h('h3', {}, 'Your events'), timeline.el))),
  );
  let frame = 0;
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(draw);
  };
  // the env's renderer (imported when first drawn) or a late asset (syntax highlighting) asks for one more frame
  window.addEventListener('arena:redraw', schedule);

  const socket = window.io('/play', { auth: { token }, transports: ['websocket', 'polling'] });
  socket.on('connect', () => {
    state.connected = true;
    state.error = null;
    schedule();
  });
  socket.on('disconnect', () => {
    state.connected = false;
    schedule();
  });
  socket.on('connect_error', (/** @type {Error} */ e) => {
    state.error = /unauthorized/.test(e.message) ? 'This seat link is not valid (the token is unknown or the match server has restarted).' : `cannot connect: ${e.message}`;
    if (/unauthorized/.test(e.message)) socket.close();
    schedule();
  });
  socket.on('welcome', (/** @type {WelcomeMessage} */ m) => {
    state.welcome = m;
    schedule();
  });
  socket.on('seat', (/** @type {SeatMessage} */ m) => {
    // a match began for this seat, or where it stands after a reconnect: replace what we hold
    state.seat = { matchId: m.matchId, env: m.env, seat: m.seat, role: m.role, team: m.team };
    state.index = new EventIndex();
    for (const e of m.events) state.index.push(e);
    timeline.reset();
    state.observations = m.observations.slice();
    state.text = m.text;
    state.rules = m.rules;
    if (state.decision && state.decision.matchId !== m.matchId) state.decision = null;
    schedule();
  });
  socket.on('event', (/** @type {PlayEventMessage} */ m) => {
    if (!state.seat || m.matchId !== state.seat.matchId) return;
    const last = state.index.last(state.index.length);
    if (last && m.event.seq <= last.seq) return;
    state.index.push(m.event);
    schedule();
  });
  socket.on('obs', (/** @type {PlayObsMessage} */ m) => {
    if (!state.seat || m.matchId !== state.seat.matchId) return;
    state.observations.push({ seq: m.seq, step: m.step, obs: m.obs });
    if (m.text) state.text = m.text;
    schedule();
  });
  socket.on('decide', (/** @type {DecideMessage} */ d) => {
    state.decision = d;
    state.error = null;
    if (d.text) state.text = d.text;
    schedule();
  });
  socket.on('cancel', (/** @type {CancelMessage} */ m) => {
    if (state.decision && state.decision.requestId === m.requestId) {
      state.decision = null;
      state.error = `Your turn ended: ${m.reason}.`;
    }
    schedule();
  });

  /** @param {{ label: string, say?: string } | { answer: JsonValue }} payload */
  async function answer(payload) {
    const d = state.decision;
    if (!d) return;
    /** @type {{ ok: true } | PlayErrorMessage} */
    let reply;
    try {
      reply = await socket.timeout(10_000).emitWithAck('act', { requestId: d.requestId, ...payload });
    } catch (e) {
      state.error = `no reply from the server: ${e instanceof Error ? e.message : String(e)}`;
      return schedule();
    }
    if (reply.ok) {
      if (state.decision === d) state.decision = null;
      state.error = null;
    } else state.error = reply.message;
    schedule();
  }

  /**
   * An open answer from the text box: JSON when the format wants structure, else the text itself.
   * @param {DecideMessage} d
   * @param {string} raw
   * @returns {JsonValue}
   */
  function openValue(d, raw) {
    const t = raw.trim();
    if (d.open?.schema?.type !== 'string' && /^[[{]|^(true|false|-?\d+(\.\d+)?)$/.test(t)) {
      try {
        return /** @type {JsonValue} */ (JSON.parse(t));
      } catch {
        /* send as text */
      }
    }
    return t;
  }

  /** @type {string | null} */
  let drawnKey = null;
  /**
   * The decision panel is rebuilt only when the decision itself changes (a new request, an
   * error, the end): other events arrive while a person types, and rebuilding would wipe the box.
   */
  function drawDecision() {
    const ended = state.index.ended(state.index.length);
    const key = JSON.stringify([state.seat?.matchId ?? null, state.connected, state.decision?.requestId ?? null, state.error, !!ended]);
    if (key === drawnKey) return;
    drawnKey = key;
    const d = state.decision;
    if (!state.seat) return mount(decide, h('p', { class: 'muted', id: 'play-status' }, state.connected ? 'Waiting for the match to start…' : 'Connecting…'));
    if (ended) {
      const me = state.seat.seat;
      const others = ended.returns.map((r, i) => (i === me ? null : `P${i} ${num(r, 3)}`)).filter(Boolean);
      return mount(
        decide,
        h('div', { id: 'play-result', class: 'outcome' }, `Game over: ${ended.outcome || ended.code}. Your return: ${num(ended.returns[me], 3)}${others.length ? ` (${others.join(', ')})` : ''}.`),
        h('p', {},
          h('a', { class: 'button', id: 'play-replay', href: `#/match/${encodeURIComponent(state.seat.matchId)}` }, 'replay this game'), ' ',
          h('a', { class: 'button', id: 'play-lobby', href: '#/' }, 'back to the lobby'),
          h('span', { class: 'muted' }, ' (while the server that ran this game is up)')),
      );
    }
    const error = state.error ? h('p', { class: 'error', id: 'play-error' }, state.error) : null;
    if (!d) return mount(decide, h('p', { class: 'muted', id: 'play-status' }, 'Waiting for the other players…'), error);
    const deadline = d.deadline ? h('span', { class: 'muted', id: 'play-deadline' }, ` (answer within ${Math.max(0, Math.round((d.deadline - Date.now()) / 1000))} s)`) : null;
    if (d.legal) {
      const say = d.speech ? h('input', { type: 'text', id: 'play-say', placeholder: 'say something with your action (optional)', maxlength: 2000, size: 60 }) : null;
      return mount(
        decide,
        h('h3', {}, 'Your turn', deadline),
        say,
        h('div', { class: 'actions', id: 'play-actions' }, d.legal.map((a) =>
          h('button', { class: 'action', dataset: { label: a.label, ...(a.note ? { note: a.note } : {}) }, title: a.note ? `${a.label}: ${a.note}` : a.label, onclick: () => answer(say && say.value.trim() ? { label: a.label, say: say.value } : { label: a.label }) },
            h('span', { class: 'action-label' }, a.label),
            a.note ? h('span', { class: 'action-note' }, a.note) : null))),
        error,
      );
    }
    const box = h('textarea', { id: 'play-answer', rows: 3, cols: 60, placeholder: d.open?.format ?? 'your answer' });
    return mount(
      decide,
      h('h3', {}, 'Your turn', deadline),
      h('p', { class: 'muted', id: 'play-format' }, d.open?.format ?? ''),
      box,
      h('div', {}, h('button', { id: 'play-submit', onclick: () => answer({ answer: openValue(d, box.value) }) }, 'Send')),
      error,
    );
  }

  function draw() {
    frame = 0;
    const s = state.seat;
    patch(
      header,
      h('h2', {}, s ? h('span', { class: 'env-tag' }, s.env) : 'Your seat', s ? ` you are seat ${s.seat} (${s.role})` : ''),
      h('div', { class: 'match-meta' }, h('span', { class: `badge ${state.connected ? 'connected' : 'offline'}`, id: 'play-conn' }, state.connected ? 'connected' : 'offline'), s ? h('span', { class: 'match-id' }, s.matchId) : null),
    );
    rules.hidden = !state.rules;
    patch(rules, h('summary', {}, 'Rules'), h('p', { id: 'play-rules-text' }, state.rules ?? ''));
    if (state.error && !s) patch(board, h('p', { class: 'error', id: 'play-error' }, state.error));
    else if (s) {
      const cursor = state.index.length;
      const point = state.observations[state.observations.length - 1] ?? null;
      const ctx = renderContext({ index: state.index, cursor, point, view: `seat:${s.seat}`, live: true, match: null, rules: null });
      const renderer = pickRenderer(s.env);
      try {
        renderer.render(board, { ...ctx, env: s.env });
      } catch (e) {
        patch(board, h('p', { class: 'error' }, `renderer ${renderer.name} failed: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
    text.textContent = state.text ?? '';
    const scroll = timeline.sync(state.index.events, state.index.length, null, true);
    drawDecision();
    if (scroll) timeline.scrollToEnd();
  }

  const tick = setInterval(() => state.decision?.deadline && schedule(), 1000);
  draw();
  return () => {
    window.removeEventListener('arena:redraw', schedule);
    clearInterval(tick);
    if (frame) cancelAnimationFrame(frame);
    socket.close();
  };
}
