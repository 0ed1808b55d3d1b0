// @ts-check
/**
 * The lobby's "Play a game" panel, shown when the server offers games to visitors
 * (`arena demo|serve --allow-play`; GET /api/play). One row per env: your seat, an opponent
 * for each other seat (the env's built-in agents, the server's default preselected), optional
 * params as JSON (the seats are fetched again for them) and a "play" button that asks the
 * server to start the game (POST /api/play) and opens the seat's page, #/play/<token>. A server
 * without play answers 404 and the panel stays hidden; any refusal (a bad field, the limit on
 * games at once) is shown in the env's row as the server worded it.
 */
import { getJson, postJson } from './api.js';
import { h, mount } from './dom.js';

/** @typedef {import('./types.js').PlayOptionsResponse} PlayOptionsResponse */
/** @typedef {import('./types.js').PlayEnvOption} PlayEnvOption */
/** @typedef {import('./types.js').PlayStartRequest} PlayStartRequest */
/** @typedef {import('./types.js').PlayStartResponse} PlayStartResponse */

/**
 * The panel (hidden until the server says it offers play). `go` opens a seat link (default:
 * the page's router).
 * @param {(url: string) => void} [go]
 * @returns {{ el: HTMLElement, dispose: () => void }}
 */
export function playPanel(go = (url) => void (location.hash = url)) {
  /** `data-state`: loading, on, off (the server offers no play) or error. */
  const el = h('section', { class: 'panel', id: 'play-panel', hidden: true, dataset: { state: 'loading' } });
  let disposed = false;

  /** @param {PlayOptionsResponse} options */
  function show(options) {
    el.hidden = false;
    el.dataset.state = 'on';
    mount(
      el,
      h('h2', {}, 'Play a game'),
      h('p', { class: 'muted', id: 'play-limits' }, `Pick your seat and your opponents. ${options.running} of at most ${options.maxMatches} games are being played now; a turn left for ${Math.round(options.idleMs / 1000)} s forfeits the game.`),
      h('table', { class: 'play-envs' }, h('thead', {}, h('tr', {}, ['env', 'your seat', 'opponents', 'params', ''].map((t) => h('th', {}, t)))), h('tbody', {}, options.envs.map((o) => envRow(o)))),
    );
  }

  /**
   * One env's row; it redraws itself when its seat or params change.
   * @param {PlayEnvOption} first
   */
  function envRow(first) {
    let option = first;
    let seat = 0;
    let paramsText = '';
    /** @type {Map<number, string>} the opponent chosen per seat */
    const chosen = new Map();
    const row = h('tr', { class: 'play-env', dataset: { env: first.env } });
    const error = h('span', { class: 'error play-error' });
    const button = h('button', { class: 'play-start', onclick: () => void start() }, 'play');

    function draw() {
      const others = option.seats.filter((s) => s.seat !== seat);
      mount(
        row,
        h('td', { class: 'nowrap', title: option.description }, h('span', { class: 'env-tag' }, option.env)),
        h(
          'td',
          { class: 'nowrap' },
          h(
            'select',
            { class: 'play-seat', onchange: (/** @type {Event} */ e) => ((seat = Number(/** @type {HTMLSelectElement} */ (e.target).value)), draw()) },
            option.seats.map((s) => h('option', { value: String(s.seat), selected: s.seat === seat }, `seat ${s.seat}${s.role ? ` · ${s.role}` : ''}`)),
          ),
        ),
        h(
          'td',
          { class: 'play-opponents' },
          others.length
            ? h('div', { class: 'play-opponent-list' }, others.map((s) =>
                h(
                  'label',
                  { class: 'nowrap' },
                  `seat ${s.seat}${s.role ? ` · ${s.role}` : ''} `,
                  h(
                    'select',
                    { class: 'play-opponent', dataset: { seat: s.seat }, onchange: (/** @type {Event} */ e) => chosen.set(s.seat, /** @type {HTMLSelectElement} */ (e.target).value) },
                    s.agents.map((a) => h('option', { value: a, selected: a === (chosen.get(s.seat) ?? s.default) }, a)),
                  ),
                ),
              ))
            : h('span', { class: 'muted' }, 'none (you play alone)'),
        ),
        h('td', {}, h('input', { class: 'play-params', type: 'text', size: 18, placeholder: 'JSON, optional', value: paramsText, onchange: (/** @type {Event} */ e) => void reparam(/** @type {HTMLInputElement} */ (e.target).value) })),
        h('td', { class: 'nowrap' }, button, ' ', error),
      );
    }

    /** @param {string} text new params: the seats are asked for again */
    async function reparam(text) {
      paramsText = text.trim();
      error.textContent = '';
      const params = parseParams();
      if (params === null) return;
      try {
        const fresh = /** @type {PlayOptionsResponse} */ (await getJson(`/api/play?env=${encodeURIComponent(first.env)}${params ? `&params=${encodeURIComponent(JSON.stringify(params))}` : ''}`));
        option = fresh.envs[0];
        if (seat >= option.seats.length) seat = 0;
        chosen.clear();
        draw();
      } catch (e) {
        error.textContent = e instanceof Error ? e.message : String(e);
      }
    }

    /**
     * The params box as an object: undefined when empty, null (and the error shown) when not a JSON object.
     * @returns {Record<string, import('./types.js').JsonValue> | undefined | null}
     */
    function parseParams() {
      if (!paramsText) return undefined;
      try {
        const v = JSON.parse(paramsText);
        if (v && typeof v === 'object' && !Array.isArray(v)) return v;
      } catch {
        /* reported below */
      }
      error.textContent = 'params: expected a JSON object, such as {"attempts": 2}';
      return null;
    }

    async function start() {
      error.textContent = '';
      const params = parseParams();
      if (params === null) return;
      /** @type {PlayStartRequest} */
      const body = { env: option.env, seat, opponents: option.seats.filter((s) => s.seat !== seat).map((s) => chosen.get(s.seat) ?? s.default), ...(params ? { params } : {}) };
      button.disabled = true;
      try {
        const started = /** @type {PlayStartResponse} */ (await postJson('/api/play', body));
        if (!disposed) go(started.url);
      } catch (e) {
        error.textContent = e instanceof Error ? e.message : String(e);
      } finally {
        button.disabled = false;
      }
    }

    draw();
    return row;
  }

  getJson('/api/play')
    .then((options) => {
      if (!disposed) show(/** @type {PlayOptionsResponse} */ (options));
    })
    .catch((e) => {
      // a server without play says so with a 404: no panel at all; anything else is shown
      if (disposed) return;
      if (/does not offer games/.test(e instanceof Error ? e.message : '')) return void (el.dataset.state = 'off');
      el.dataset.state = 'error';
      el.hidden = false;
      mount(el, h('p', { class: 'error' }, `could not load the games on offer: ${e instanceof Error ? e.message : String(e)}`));
    });

  return { el, dispose: () => void (disposed = true) };
}
