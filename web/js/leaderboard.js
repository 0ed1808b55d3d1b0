// @ts-check
/**
 * Leaderboard per league (= env) and role, for one rating system, each saying what it is:
 * Bradley–Terry (the default: a fit of every stored result, with 95 % bootstrap intervals and
 * rank ranges), online Elo (no interval), or OpenSkill (skill μ with μ ± 1.96σ, and the
 * conservative μ − 3σ whose scale starts at 0). Ranks are competition ranks: equal ratings share
 * one. Below: the rating over time (which system it plots is in its title) and the training
 * progress.
 */
import { getJson, getSocket } from './api.js';
import { leagueChannel } from './league-channel.js';
import { lineChart } from './charts.js';
import { h, mount, patch } from './dom.js';
import { MIN_INTERVAL_GAMES, TOO_FEW_GAMES, enoughGames, interval, num, rankRange } from './format.js';
import { trainingPanels } from './training-charts.js';

/** @typedef {import('./types.js').LeaderboardRow} LeaderboardRow */
/** @typedef {import('./types.js').LeaguesResponse} LeaguesResponse */
/** @typedef {import('./types.js').LeagueListing} LeagueListing */
/** @typedef {import('./types.js').LeaderboardResponse} LeaderboardResponse */
/** @typedef {import('./types.js').RatingsResponse} RatingsResponse */
/** @typedef {import('./types.js').TrainingResponse} TrainingResponse */

/** @typedef {{ name: string, table: string, note: string, history: string, historyName: string, historyAxis: string }} RatingSystem */
/** @type {Record<string, RatingSystem>} */
export const SYSTEMS = {
  bt: {
    name: 'Bradley–Terry',
    table: 'rating',
    note: 'Bradley–Terry: one fit of every stored result (Elo-like points, league mean 1500). The bar is the 95% bootstrap interval; the rank range is where the player ranks in 95% of the bootstrap refits (a single number: the order is sure). Equal ratings share a rank.',
    history: 'elo',
    historyName: 'online Elo (the table’s Bradley–Terry is one fit of all results, so it has no history)',
    historyAxis: 'online Elo',
  },
  elo: {
    name: 'Elo',
    table: 'Elo',
    note: 'Online Elo: updated after every match, starting at 1500. It has no interval; use Bradley–Terry to see how sure the order is. Equal ratings share a rank.',
    history: 'elo',
    historyName: 'online Elo',
    historyAxis: 'online Elo',
  },
  openskill: {
    name: 'OpenSkill',
    table: 'skill μ',
    note: 'OpenSkill (Weng–Lin, Plackett–Luce): μ is the skill estimate and σ its uncertainty; a new player starts at μ = 25, σ ≈ 8.33. The bar is μ ± 1.96σ (95%). The league’s matchmaking and the chart use the conservative μ − 3σ, which starts at 0 (25 − 3 × 8.33) and is negative while a player is uncertain or below 25. Equal ratings share a rank.',
    history: 'openskill',
    historyName: 'OpenSkill μ − 3σ (the conservative rating matchmaking uses)',
    historyAxis: 'μ − 3σ',
  },
};

/**
 * One role's leaderboard table for a rating system ("bt", "elo", "openskill"): ranks (with
 * the bootstrap rank range for Bradley–Terry), players, ratings, 95% intervals as text and bars
 * where the system has them ("too few games" below the minimum sample), and games.
 * @param {readonly LeaderboardRow[]} list
 * @param {string} systemKey
 * @returns {HTMLElement}
 */
export function boardTable(list, systemKey) {
  const system = SYSTEMS[systemKey] ?? SYSTEMS.bt;
  // the bars' scale spans the intervals that are shown
  const lo = Math.min(...list.map((r) => (enoughGames(r.games) ? (r.lo ?? r.rating) : r.rating)));
  const hi = Math.max(...list.map((r) => (enoughGames(r.games) ? (r.hi ?? r.rating) : r.rating)));
  /** @param {number} v */
  const pos = (v) => (hi > lo ? ((v - lo) / (hi - lo)) * 100 : 50);
  const bt = systemKey === 'bt';
  const os = systemKey === 'openskill';
  const intervals = list.some((r) => r.lo !== undefined);
  const heads = ['rank', ...(bt ? ['rank range (95%)'] : []), 'player', system.table, ...(intervals ? ['95% interval', ''] : []), ...(os ? ['μ − 3σ'] : []), 'games'];
  return h('table', { class: 'board' },
    h('thead', {}, h('tr', {}, heads.map((t) => h('th', {}, t)))),
    h('tbody', {}, list.map((r) =>
      h('tr', { key: `${r.role}\u0000${r.player}`, class: r.tied ? 'tied' : '', dataset: { player: r.player } },
        h('td', { class: 'rank' }, String(r.rank)),
        bt ? h('td', { class: 'rank-range num', title: 'where the player ranks in 95% of the bootstrap refits' }, rankRange(r.rankLo, r.rankHi, r.games)) : null,
        h('td', {}, r.player, r.kind ? h('span', { class: 'kind' }, r.kind) : null),
        h('td', { class: 'num rating' }, num(r.rating, 1)),
        intervals ? h('td', { class: 'num muted interval' }, r.lo !== undefined && r.hi !== undefined ? interval(r.lo, r.hi, r.games, (x) => num(x, 1)) : '—') : null,
        intervals ? h('td', { class: 'ci-cell' }, h('div', { class: 'ci' },
          r.lo !== undefined && r.hi !== undefined && enoughGames(r.games) ? h('div', { class: 'ci-bar', style: { left: `${pos(r.lo)}%`, width: `${Math.max(0.5, pos(r.hi) - pos(r.lo))}%` } }) : null,
          h('div', { class: 'ci-dot', style: { left: `${pos(r.rating)}%` } }))) : null,
        os ? h('td', { class: 'num ordinal' }, r.ordinal === undefined ? '' : num(r.ordinal, 1)) : null,
        h('td', { class: 'num' }, r.games ?? '')))));
}

/**
 * @param {HTMLElement} app
 * @param {URLSearchParams} params
 * @returns {() => void}
 */
export function showLeaderboard(app, params) {
  let league = params.get('league') || '';
  const role = params.get('role') || '';
  const systemKey = SYSTEMS[params.get('system') || ''] ? /** @type {string} */ (params.get('system')) : 'bt';
  const system = SYSTEMS[systemKey];
  let disposed = false;
  const channel = leagueChannel();

  /** @param {Record<string, string>} change */
  function go(change) {
    const next = { league, role, system: systemKey === 'bt' ? '' : systemKey, ...change };
    const q = new URLSearchParams(Object.entries(next).filter(([, v]) => v));
    location.hash = `#/leaderboard?${q}`;
  }
  const leagueSelect = h('select', { id: 'league-select', onchange: (/** @type {Event} */ e) => go({ league: /** @type {HTMLSelectElement} */ (e.target).value, role: '' }) });
  const roleSelect = h('select', { id: 'role-select', onchange: (/** @type {Event} */ e) => go({ role: /** @type {HTMLSelectElement} */ (e.target).value }) });
  const systemSelect = h('select', { id: 'system-select', onchange: (/** @type {Event} */ e) => go({ system: /** @type {HTMLSelectElement} */ (e.target).value }) },
    Object.entries(SYSTEMS).map(([k, s]) => h('option', { value: k === 'bt' ? '' : k, selected: k === systemKey }, s.name)));
  const overviewLink = h('a', { class: 'button', id: 'overview-link', href: '#/league' }, 'league overview');
  const board = h('section', { class: 'panel', id: 'leaderboard' });
  const ratingCanvas = h('canvas', { id: 'rating-chart' });
  const ratingTitle = h('h3', { id: 'rating-chart-title' });
  const ratingBox = h('div', { class: 'chart-box' }, ratingCanvas);
  const ratingEmpty = h('p', { class: 'muted', id: 'rating-chart-empty', hidden: true }, 'No rated match yet.');
  const training = trainingPanels();
  mount(app,
    h('div', { class: 'leaderboard-page' },
      h('div', { class: 'filters' }, h('label', {}, 'league ', leagueSelect), h('label', {}, 'role ', roleSelect), h('label', {}, 'rating ', systemSelect), overviewLink),
      board,
      h('div', { class: 'charts' }, h('section', { class: 'panel chart wide' }, ratingTitle, ratingBox, ratingEmpty)),
      training.el,
    ));
  const ratingChart = lineChart(ratingCanvas, { xLabel: 'league match', yLabel: system.historyAxis, integerX: true });

  async function load() {
    /** @type {LeagueListing[]} */
    let leagues;
    try {
      leagues = (/** @type {LeaguesResponse} */ (await getJson('/api/leagues'))).leagues;
    } catch (e) {
      return mount(board, h('p', { class: 'error' }, `could not load leagues: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (disposed) return;
    if (!league && leagues.length) league = leagues[leagues.length - 1].id;
    patch(leagueSelect, leagues.length ? leagues.map((l) => h('option', { value: l.id, selected: l.id === league }, `${l.id}${l.env ? ` (${l.env})` : ''}`)) : h('option', { value: '' }, 'no league yet'));
    overviewLink.setAttribute('href', `#/league?id=${encodeURIComponent(league)}`);
    if (!league) return mount(board, h('p', { class: 'muted empty' }, 'No league in this database yet.'));
    channel.follow(league);
    await Promise.all([loadBoard(), loadRatings(), loadTraining()]);
  }

  async function loadBoard() {
    /** @type {LeaderboardRow[]} */
    let rows;
    try {
      const q = new URLSearchParams(systemKey === 'bt' ? {} : { system: systemKey });
      rows = (/** @type {LeaderboardResponse} */ (await getJson(`/api/leagues/${encodeURIComponent(league)}/leaderboard?${q}`))).rows;
    } catch (e) {
      return mount(board, h('p', { class: 'error' }, `leaderboard: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (disposed) return;
    const roles = [...new Set(rows.map((r) => r.role))].sort();
    patch(roleSelect, h('option', { value: '' }, 'all roles'), roles.map((r) => h('option', { value: r, selected: r === role }, r)));
    const shown = role ? rows.filter((r) => r.role === role) : rows;
    /** @type {Map<string, LeaderboardRow[]>} */
    const byRole = new Map();
    for (const r of shown) byRole.set(r.role, [...(byRole.get(r.role) ?? []), r]);
    patch(board,
      h('h2', {}, `Leaderboard: ${system.name}`, h('span', { class: 'count' }, league)),
      h('p', { class: 'muted rating-note', id: 'rating-note' }, system.note, systemKey === 'elo' ? '' : ` A player with fewer than ${MIN_INTERVAL_GAMES} games shows “${TOO_FEW_GAMES}” instead of an interval${systemKey === 'bt' ? ' and a rank range' : ''}.`),
      shown.length
        ? [...byRole.entries()].map(([roleName, list]) => h('div', { key: roleName, class: 'role-board', dataset: { role: roleName } }, h('h3', {}, `role: ${roleName}`), boardTable(list, systemKey)))
        : h('p', { class: 'muted empty' }, 'No ratings yet.'));
  }

  async function loadRatings() {
    ratingTitle.textContent = `Rating over time, after each league match: ${system.historyName}`;
    /** @type {RatingsResponse['points']} */
    let points;
    try {
      points = (/** @type {RatingsResponse} */ (await getJson(`/api/leagues/${encodeURIComponent(league)}/ratings?system=${encodeURIComponent(system.history)}`))).points;
    } catch {
      return;
    }
    if (disposed) return;
    /** @type {Map<string, { x: number, y: number }[]>} */
    const series = new Map();
    for (const p of points) {
      if (role && p.role !== role) continue;
      const key = `${p.player} · ${p.role}`;
      if (!series.has(key)) series.set(key, []);
      series.get(key)?.push({ x: p.matchIdx, y: p.value });
    }
    const last = (/** @type {{ x: number, y: number }[]} */ pts) => pts[pts.length - 1].y;
    const top = [...series.entries()].sort((a, b) => last(b[1]) - last(a[1])).slice(0, 12);
    ratingBox.hidden = !top.length;
    ratingEmpty.hidden = top.length > 0;
    ratingChart.update(top.map(([label, pts]) => ({ label, points: pts })));
  }

  async function loadTraining() {
    /** @type {TrainingResponse['iterations']} */
    let iterations;
    try {
      iterations = (/** @type {TrainingResponse} */ (await getJson(`/api/leagues/${encodeURIComponent(league)}/training`))).iterations;
    } catch {
      return;
    }
    if (disposed) return;
    training.update(iterations);
  }

  const socket = getSocket();
  /** @type {ReturnType<typeof setTimeout> | null} */
  let pendingRefresh = null;
  /** @param {import('../../src/server/protocol').LeagueMessage} m */
  const onLeague = (m) => {
    // events of the league on show (rating.updated, snapshot.added, a learner's training.iteration)
    if (!m || m.league !== channel.current || pendingRefresh) return;
    pendingRefresh = setTimeout(() => { pendingRefresh = null; void load(); }, 1000);
  };
  socket.on('league', onLeague);
  const timer = setInterval(load, 10_000);
  void load();

  return () => {
    disposed = true;
    clearInterval(timer);
    if (pendingRefresh) clearTimeout(pendingRefresh);
    socket.off('league', onLeague);
    channel.close();
    ratingChart.destroy();
    training.destroy();
  };
}
