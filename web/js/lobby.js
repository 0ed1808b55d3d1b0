// @ts-check
/**
 * The lobby: live and recent matches per env, filterable; the live list is pushed over the
 * socket. One line per match: identical agents are listed once with a count ("neural ×6"; a
 * hidden-role match's server lists each agent once, without counts, which say who fills which team), and
 * tags, lengths and outcomes never wrap. A live match's "watch" link asks the match page to
 * replay the game from its start should it end before the page joins. Where the server offers
 * games to visitors, the "Play a game" panel (play-launcher.js) comes first.
 */
import { getJson, getSocket, request } from './api.js';
import { ago, groupNames, h, mount, patch } from './dom.js';
import { playPanel } from './play-launcher.js';

/** @typedef {import('./types.js').MatchSummary} MatchSummary */
/** @typedef {import('./types.js').LobbyMessage} LobbyMessage */
/** @typedef {import('./types.js').MatchListResponse} MatchListResponse */

/**
 * @param {HTMLElement} app
 * @param {URLSearchParams} params
 * @returns {() => void}
 */
export function showLobby(app, params) {
  /** @type {Map<string, MatchSummary>} */
  const live = new Map();
  /** @type {MatchSummary[]} */
  let recent = [];
  let envFilter = params.get('env') || '';
  let textFilter = '';
  let disposed = false;

  const envSelect = h('select', { id: 'env-filter', onchange: (/** @type {Event} */ e) => { envFilter = /** @type {HTMLSelectElement} */ (e.target).value; draw(); } });
  const search = h('input', { id: 'text-filter', type: 'search', placeholder: 'filter by agent, id or outcome', oninput: (/** @type {Event} */ e) => { textFilter = /** @type {HTMLInputElement} */ (e.target).value.toLowerCase(); draw(); } });
  const liveBox = h('section', { class: 'panel', id: 'live-matches' });
  const recentBox = h('section', { class: 'panel', id: 'recent-matches' });
  const play = playPanel();
  mount(app, h('div', { class: 'lobby' }, play.el, h('div', { class: 'filters' }, h('label', {}, 'env ', envSelect), search), liveBox, recentBox));

  /** @param {MatchSummary} m */
  const keep = (m) =>
    (!envFilter || m.env === envFilter) &&
    (!textFilter || [m.id, m.env, m.outcome ?? '', ...m.agents].join(' ').toLowerCase().includes(textFilter));

  /** @param {MatchSummary} m */
  function row(m) {
    const agents = groupNames(m.agents);
    return h(
      'tr',
      { key: m.id, class: m.live ? 'match-row live' : 'match-row', dataset: { matchId: m.id, env: m.env } },
      h('td', { class: 'nowrap' }, h('span', { class: 'env-tag' }, m.env || '?')),
      h('td', { class: 'agents', title: agents }, agents),
      h('td', { class: 'num nowrap' }, m.live ? `step ${m.step}` : `${m.step} steps`),
      h('td', { class: 'nowrap outcome-cell' }, m.live ? h('span', { class: 'badge live' }, 'live') : m.outcome || ''),
      h('td', { class: 'muted nowrap' }, ago(m.live ? m.startedAt : m.endedAt)),
      h('td', { class: 'nowrap' }, h('a', { class: 'button', href: m.live ? `#/match/${encodeURIComponent(m.id)}?watch=1` : `#/match/${encodeURIComponent(m.id)}` }, m.live ? 'watch' : 'replay')),
    );
  }

  /**
   * @param {string} title
   * @param {MatchSummary[]} list
   * @param {string} empty
   */
  function table(title, list, empty) {
    return [
      h('h2', {}, title, h('span', { class: 'count' }, String(list.length))),
      list.length
        ? h('table', { class: 'matches' },
            h('colgroup', {}, h('col', { class: 'c-env' }), h('col', { class: 'c-agents' }), h('col', { class: 'c-len' }), h('col', { class: 'c-state' }), h('col', { class: 'c-when' }), h('col', { class: 'c-go' })),
            h('thead', {}, h('tr', {}, ['env', 'agents', 'length', 'state', 'when', ''].map((t) => h('th', {}, t)))), h('tbody', {}, list.map(row)))
        : h('p', { class: 'muted empty' }, empty),
    ];
  }

  function draw() {
    if (disposed) return;
    const envs = [...new Set([...live.values(), ...recent].map((m) => m.env).filter(Boolean))].sort();
    if (envFilter && !envs.includes(envFilter)) envs.push(envFilter);
    patch(envSelect, h('option', { value: '' }, 'all'), envs.map((e) => h('option', { value: e, selected: e === envFilter }, e)));
    const liveList = [...live.values()].filter(keep).sort((a, b) => b.startedAt - a.startedAt);
    patch(liveBox, table('Live matches', liveList, 'No match is running right now.'));
    patch(recentBox, table('Recent matches', recent.filter(keep), 'No finished match yet.'));
  }

  async function loadRecent() {
    try {
      recent = (/** @type {MatchListResponse} */ (await getJson('/api/matches/recent?limit=100'))).matches;
      draw();
    } catch (e) {
      mount(recentBox, h('p', { class: 'error' }, `could not load recent matches: ${e instanceof Error ? e.message : String(e)}`));
    }
  }
  async function loadLive() {
    try {
      const fresh = (/** @type {MatchListResponse} */ (await getJson('/api/matches/live'))).matches;
      live.clear();
      for (const m of fresh) live.set(m.id, m);
      draw();
    } catch {
      /* the socket keeps the list */
    }
  }

  const socket = getSocket();
  /** @param {LobbyMessage} msg */
  const onLobby = (msg) => {
    if (msg.kind === 'started') live.set(msg.match.id, msg.match);
    else {
      live.delete(msg.match.id);
      recent = [msg.match, ...recent.filter((m) => m.id !== msg.match.id)].slice(0, 100);
    }
    draw();
  };
  socket.on('lobby', onLobby);
  const subscribe = () =>
    request('subscribe', { channel: 'lobby' })
      .then((/** @type {import('./types.js').SubscribedMessage | import('./types.js').ErrorMessage} */ reply) => {
        if (reply.ok) for (const m of reply.live ?? []) live.set(m.id, m);
        draw();
      })
      .catch(() => {});
  void subscribe();
  socket.on('connect', subscribe);
  const timer = setInterval(loadLive, 3000);
  void loadRecent();
  draw();

  return () => {
    disposed = true;
    play.dispose();
    clearInterval(timer);
    socket.off('lobby', onLobby);
    socket.off('connect', subscribe);
    request('unsubscribe', { channel: 'lobby' }).catch(() => {});
  };
}
