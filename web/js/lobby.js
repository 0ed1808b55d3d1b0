/** The lobby: live and recent matches per env, filterable; live list pushed over the socket. */
import { getJson, getSocket, request } from './api.js';
import { ago, h, mount } from './dom.js';

export function showLobby(app, params) {
  const live = new Map();
  let recent = [];
  let envFilter = params.get('env') || '';
  let textFilter = '';
  let disposed = false;

  const envSelect = h('select', { id: 'env-filter', onchange: (e) => { envFilter = e.target.value; draw(); } });
  const search = h('input', { id: 'text-filter', type: 'search', placeholder: 'filter by agent, id or outcome', oninput: (e) => { textFilter = e.target.value.toLowerCase(); draw(); } });
  const liveBox = h('section', { class: 'panel', id: 'live-matches' });
  const recentBox = h('section', { class: 'panel', id: 'recent-matches' });
  mount(app, h('div', { class: 'lobby' }, h('div', { class: 'filters' }, h('label', {}, 'env ', envSelect), search), liveBox, recentBox));

  const keep = (m) =>
    (!envFilter || m.env === envFilter) &&
    (!textFilter || [m.id, m.env, m.outcome ?? '', ...m.agents].join(' ').toLowerCase().includes(textFilter));

  function row(m) {
    return h(
      'tr',
      { class: m.live ? 'match-row live' : 'match-row', dataset: { matchId: m.id, env: m.env } },
      h('td', {}, h('span', { class: 'env-tag' }, m.env || '?')),
      h('td', {}, m.agents.join(' · ')),
      h('td', { class: 'num' }, m.live ? `step ${m.step}` : `${m.step} steps`),
      h('td', {}, m.live ? h('span', { class: 'badge live' }, 'live') : m.outcome || ''),
      h('td', { class: 'muted' }, ago(m.live ? m.startedAt : m.endedAt)),
      h('td', {}, h('a', { class: 'button', href: `#/match/${encodeURIComponent(m.id)}` }, m.live ? 'watch' : 'replay')),
    );
  }

  function table(title, list, empty) {
    return [
      h('h2', {}, title, h('span', { class: 'count' }, String(list.length))),
      list.length
        ? h('table', { class: 'matches' }, h('thead', {}, h('tr', {}, ['env', 'agents', 'length', 'state', 'when', ''].map((t) => h('th', {}, t)))), h('tbody', {}, list.map(row)))
        : h('p', { class: 'muted empty' }, empty),
    ];
  }

  function draw() {
    if (disposed) return;
    const envs = [...new Set([...live.values(), ...recent].map((m) => m.env).filter(Boolean))].sort();
    if (envFilter && !envs.includes(envFilter)) envs.push(envFilter);
    mount(envSelect, h('option', { value: '' }, 'all'), envs.map((e) => h('option', { value: e, selected: e === envFilter }, e)));
    const liveList = [...live.values()].filter(keep).sort((a, b) => b.startedAt - a.startedAt);
    mount(liveBox, table('Live matches', liveList, 'No match is running right now.'));
    mount(recentBox, table('Recent matches', recent.filter(keep), 'No finished match yet.'));
  }

  async function loadRecent() {
    try {
      recent = (await getJson('/api/matches/recent?limit=100')).matches;
      draw();
    } catch (e) {
      mount(recentBox, h('p', { class: 'error' }, `could not load recent matches: ${e.message}`));
    }
  }
  async function loadLive() {
    try {
      const fresh = (await getJson('/api/matches/live')).matches;
      live.clear();
      for (const m of fresh) live.set(m.id, m);
      draw();
    } catch {
      /* the socket keeps the list */
    }
  }

  const socket = getSocket();
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
      .then((reply) => {
        if (reply.ok) for (const m of reply.live) live.set(m.id, m);
        draw();
      })
      .catch(() => {});
  subscribe();
  socket.on('connect', subscribe);
  const timer = setInterval(loadLive, 3000);
  loadRecent();
  draw();

  return () => {
    disposed = true;
    clearInterval(timer);
    socket.off('lobby', onLobby);
    socket.off('connect', subscribe);
    request('unsubscribe', { channel: 'lobby' }).catch(() => {});
  };
}
