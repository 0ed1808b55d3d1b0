/**
 * Leaderboard per league (= env) and role: ratings with confidence intervals and tied ranks,
 * rating over time, and training curves (mean return, win rate vs baselines).
 */
import { getJson, getSocket, request } from './api.js';
import { h, mount, num } from './dom.js';
import { lineChart } from './charts.js';

export function showLeaderboard(app, params) {
  let league = params.get('league') || '';
  let role = params.get('role') || '';
  let system = params.get('system') || '';
  let leagues = [];
  let disposed = false;
  let subscribed = null;

  const leagueSelect = h('select', { id: 'league-select', onchange: (e) => go({ league: e.target.value, role: '' }) });
  const roleSelect = h('select', { id: 'role-select', onchange: (e) => go({ role: e.target.value }) });
  const systemSelect = h('select', { id: 'system-select', onchange: (e) => go({ system: e.target.value }) },
    [['', 'default'], ['bt', 'Bradley–Terry'], ['elo', 'Elo'], ['openskill', 'OpenSkill']].map(([v, t]) => h('option', { value: v, selected: v === system }, t)));
  const board = h('section', { class: 'panel', id: 'leaderboard' });
  const ratingCanvas = h('canvas', { id: 'rating-chart' });
  const returnCanvas = h('canvas', { id: 'return-chart' });
  const winCanvas = h('canvas', { id: 'winrate-chart' });
  const trainingNote = h('p', { class: 'muted', id: 'training-note' });
  mount(app,
    h('div', { class: 'leaderboard-page' },
      h('div', { class: 'filters' }, h('label', {}, 'league ', leagueSelect), h('label', {}, 'role ', roleSelect), h('label', {}, 'rating ', systemSelect)),
      board,
      h('div', { class: 'charts' },
        h('section', { class: 'panel chart' }, h('h3', {}, 'Rating over time'), h('div', { class: 'chart-box' }, ratingCanvas)),
        h('section', { class: 'panel chart' }, h('h3', {}, 'Training: mean return'), h('div', { class: 'chart-box' }, returnCanvas)),
        h('section', { class: 'panel chart' }, h('h3', {}, 'Training: win rate vs baselines'), h('div', { class: 'chart-box' }, winCanvas), trainingNote),
      ),
    ));
  const ratingChart = lineChart(ratingCanvas, { xLabel: 'match', yLabel: 'rating' });
  const returnChart = lineChart(returnCanvas, { xLabel: 'iteration', yLabel: 'mean return' });
  const winChart = lineChart(winCanvas, { xLabel: 'iteration', yLabel: 'win rate', yMin: 0, yMax: 1 });

  function go(change) {
    const next = { league, role, system, ...change };
    const q = new URLSearchParams(Object.entries(next).filter(([, v]) => v));
    location.hash = `#/leaderboard?${q}`;
  }

  async function load() {
    try {
      leagues = (await getJson('/api/leagues')).leagues;
    } catch (e) {
      return mount(board, h('p', { class: 'error' }, `could not load leagues: ${e.message}`));
    }
    if (!league && leagues.length) league = leagues[leagues.length - 1].id;
    mount(leagueSelect, leagues.length ? leagues.map((l) => h('option', { value: l.id, selected: l.id === league }, `${l.id}${l.env ? ` (${l.env})` : ''}`)) : h('option', { value: '' }, 'no league yet'));
    if (!league) return mount(board, h('p', { class: 'muted empty' }, 'No league in this database yet.'));
    if (subscribed !== league) {
      if (subscribed) request('unsubscribe', { channel: 'league', league: subscribed }).catch(() => {});
      request('subscribe', { channel: 'league', league }).catch(() => {});
      subscribed = league;
    }
    await Promise.all([loadBoard(), loadRatings(), loadTraining()]);
  }

  async function loadBoard() {
    let rows;
    try {
      const q = new URLSearchParams(Object.entries({ system }).filter(([, v]) => v));
      rows = (await getJson(`/api/leagues/${encodeURIComponent(league)}/leaderboard?${q}`)).rows;
    } catch (e) {
      return mount(board, h('p', { class: 'error' }, `leaderboard: ${e.message}`));
    }
    if (disposed) return;
    const roles = [...new Set(rows.map((r) => r.role))].sort();
    mount(roleSelect, h('option', { value: '' }, 'all roles'), roles.map((r) => h('option', { value: r, selected: r === role }, r)));
    const shown = role ? rows.filter((r) => r.role === role) : rows;
    const lo = Math.min(...shown.map((r) => r.lo ?? r.rating));
    const hi = Math.max(...shown.map((r) => r.hi ?? r.rating));
    const pos = (v) => (hi > lo ? ((v - lo) / (hi - lo)) * 100 : 50);
    const byRole = new Map();
    for (const r of shown) byRole.set(r.role, [...(byRole.get(r.role) ?? []), r]);
    mount(board,
      h('h2', {}, 'Leaderboard', h('span', { class: 'count' }, league)),
      shown.length ? [...byRole.entries()].map(([roleName, list]) => [
        h('h3', {}, `role: ${roleName}`),
        h('table', { class: 'board', dataset: { role: roleName } },
          h('thead', {}, h('tr', {}, ['rank', 'player', 'rating', 'interval', '', 'games'].map((t) => h('th', {}, t)))),
          h('tbody', {}, list.map((r) =>
            h('tr', { class: r.tied ? 'tied' : '', dataset: { player: r.player } },
              h('td', { class: 'rank' }, `${r.tied ? '=' : ''}${r.rank}`),
              h('td', {}, r.player, r.kind ? h('span', { class: 'kind' }, r.kind) : null),
              h('td', { class: 'num' }, num(r.rating, 1)),
              h('td', { class: 'num muted' }, r.lo !== undefined && r.hi !== undefined ? `[${num(r.lo, 1)}, ${num(r.hi, 1)}]` : '—'),
              h('td', { class: 'ci-cell' }, h('div', { class: 'ci' },
                r.lo !== undefined && r.hi !== undefined ? h('div', { class: 'ci-bar', style: { left: `${pos(r.lo)}%`, width: `${Math.max(0.5, pos(r.hi) - pos(r.lo))}%` } }) : null,
                h('div', { class: 'ci-dot', style: { left: `${pos(r.rating)}%` } }))),
              h('td', { class: 'num' }, r.games ?? ''))))),
      ]) : h('p', { class: 'muted empty' }, 'No ratings yet.'));
  }

  async function loadRatings() {
    const sys = system && system !== 'bt' ? system : 'elo';
    let points;
    try {
      points = (await getJson(`/api/leagues/${encodeURIComponent(league)}/ratings?system=${encodeURIComponent(sys)}`)).points;
    } catch {
      return;
    }
    if (disposed) return;
    const series = new Map();
    for (const p of points) {
      if (role && p.role !== role) continue;
      const key = `${p.player} · ${p.role}`;
      if (!series.has(key)) series.set(key, []);
      series.get(key).push({ x: p.matchIdx, y: p.value });
    }
    const top = [...series.entries()].sort((a, b) => b[1][b[1].length - 1].y - a[1][a[1].length - 1].y).slice(0, 12);
    ratingChart.update(top.map(([label, pts]) => ({ label, points: pts })));
  }

  async function loadTraining() {
    let iterations;
    try {
      iterations = (await getJson(`/api/leagues/${encodeURIComponent(league)}/training`)).iterations;
    } catch {
      return;
    }
    if (disposed) return;
    // metrics may be flat ({ meanReturn: 0.2 }) or nested ({ learners: { L: { winRate: { solver: 0.5 } } },
    // eval: { L: { greedy: { winRate: 0.6 } } } }): every numeric leaf is a series named by its path
    const leaves = (value, path, out) => {
      if (typeof value === 'number' && Number.isFinite(value)) out.push([path.join('.'), value]);
      else if (value && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
      return out;
    };
    const collect = (test) => {
      const series = new Map();
      for (const it of iterations) {
        if (role && it.role !== role) continue;
        for (const [k, v] of leaves(it.metrics, [], [])) {
          if (!test(k)) continue;
          const key = `${it.role} · ${k}`;
          if (!series.has(key)) series.set(key, []);
          series.get(key).push({ x: it.iteration, y: v });
        }
      }
      return [...series.entries()].slice(0, 12).map(([label, points]) => ({ label, points }));
    };
    returnChart.update(collect((k) => /return/i.test(k)));
    winChart.update(collect((k) => /win/i.test(k)));
    trainingNote.textContent = iterations.length ? `${iterations.length} training iteration records` : 'no training iteration yet';
  }

  const socket = getSocket();
  let pendingRefresh = null;
  const onLeague = (m) => {
    // events of the league on show (rating.updated, snapshot.added, a learner's training.iteration)
    if (!m || m.league !== subscribed || pendingRefresh) return;
    pendingRefresh = setTimeout(() => { pendingRefresh = null; load(); }, 1000);
  };
  socket.on('league', onLeague);
  const timer = setInterval(load, 10_000);
  load();

  return () => {
    disposed = true;
    clearInterval(timer);
    clearTimeout(pendingRefresh);
    socket.off('league', onLeague);
    if (subscribed) request('unsubscribe', { channel: 'league', league: subscribed }).catch(() => {});
    ratingChart.destroy();
    returnChart.destroy();
    winChart.destroy();
  };
}
