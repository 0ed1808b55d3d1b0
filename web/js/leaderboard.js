// @ts-check
/**
 * Leaderboard per league (= env) and role, for one rating system, each saying what it is. The
 * systems, their names, notes and columns come from the server (`/api/rating-systems`, its
 * registry; the first is the default): intervals where a system has them, rank ranges where it
 * bootstraps, a second value (`ordinal`) where it has one. Ranks are competition ranks: equal
 * ratings share one. Below: the rating over time (which system it plots is in its title) and the
 * training progress.
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

/** @typedef {import('./types.js').RatingSystemInfo} RatingSystemInfo */
/** @typedef {import('./types.js').RatingSystemsResponse} RatingSystemsResponse */

/** @typedef {ReturnType<typeof lineChart>} LineChart */

/** @type {Promise<RatingSystemInfo[]> | null} */
let systemsLoaded = null;

/** The server's rating systems (its registry; the leaderboard's default first), fetched once. */
export function ratingSystems() {
  systemsLoaded ??= getJson('/api/rating-systems').then((r) => /** @type {RatingSystemsResponse} */ (r).systems).catch((e) => {
    systemsLoaded = null;
    throw e;
  });
  return systemsLoaded;
}

/**
 * One role's leaderboard table for a rating system: ranks (with the bootstrap rank range where
 * the system has them), players, ratings, 95% intervals as text and bars where the system has
 * them ("too few games" below the minimum sample), a second value where it has one, and games.
 * @param {readonly LeaderboardRow[]} list
 * @param {RatingSystemInfo} system
 * @returns {HTMLElement}
 */
export function boardTable(list, system) {
  // the bars' scale spans the intervals that are shown
  const lo = Math.min(...list.map((r) => (enoughGames(r.games) ? (r.lo ?? r.rating) : r.rating)));
  const hi = Math.max(...list.map((r) => (enoughGames(r.games) ? (r.hi ?? r.rating) : r.rating)));
  /** @param {number} v */
  const pos = (v) => (hi > lo ? ((v - lo) / (hi - lo)) * 100 : 50);
  const ranges = !!system.rankRanges;
  const ordinal = system.ordinal;
  const intervals = list.some((r) => r.lo !== undefined);
  const heads = ['rank', ...(ranges ? ['rank range (95%)'] : []), 'player', system.column, ...(intervals ? ['95% interval', ''] : []), ...(ordinal ? [ordinal] : []), 'games'];
  return h('table', { class: 'board' },
    h('thead', {}, h('tr', {}, heads.map((t) => h('th', {}, t)))),
    h('tbody', {}, list.map((r) =>
      h('tr', { key: `${r.role}\u0000${r.player}`, class: r.tied ? 'tied' : '', dataset: { player: r.player } },
        h('td', { class: 'rank' }, String(r.rank)),
        ranges ? h('td', { class: 'rank-range num', title: 'where the player ranks in 95% of the bootstrap refits' }, rankRange(r.rankLo, r.rankHi, r.games)) : null,
        h('td', {}, r.player, r.kind ? h('span', { class: 'kind' }, r.kind) : null),
        h('td', { class: 'num rating' }, num(r.rating, 1)),
        intervals ? h('td', { class: 'num muted interval' }, r.lo !== undefined && r.hi !== undefined ? interval(r.lo, r.hi, r.games, (x) => num(x, 1)) : '—') : null,
        intervals ? h('td', { class: 'ci-cell' }, h('div', { class: 'ci' },
          r.lo !== undefined && r.hi !== undefined && enoughGames(r.games) ? h('div', { class: 'ci-bar', style: { left: `${pos(r.lo)}%`, width: `${Math.max(0.5, pos(r.hi) - pos(r.lo))}%` } }) : null,
          h('div', { class: 'ci-dot', style: { left: `${pos(r.rating)}%` } }))) : null,
        ordinal ? h('td', { class: 'num ordinal' }, r.ordinal === undefined ? '' : num(r.ordinal, 1)) : null,
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
  const asked = params.get('system') || '';
  /** @type {RatingSystemInfo[]} */
  let systems = [];
  /** The system on show (null until the server said which it has). @type {RatingSystemInfo | null} */
  let system = null;
  let disposed = false;
  const channel = leagueChannel();

  /** @param {Record<string, string>} change */
  function go(change) {
    const next = { league, role, system: system && system !== systems[0] ? system.name : '', ...change };
    const q = new URLSearchParams(Object.entries(next).filter(([, v]) => v));
    location.hash = `#/leaderboard?${q}`;
  }
  const leagueSelect = h('select', { id: 'league-select', onchange: (/** @type {Event} */ e) => go({ league: /** @type {HTMLSelectElement} */ (e.target).value, role: '' }) });
  const roleSelect = h('select', { id: 'role-select', onchange: (/** @type {Event} */ e) => go({ role: /** @type {HTMLSelectElement} */ (e.target).value }) });
  const systemSelect = h('select', { id: 'system-select', onchange: (/** @type {Event} */ e) => go({ system: /** @type {HTMLSelectElement} */ (e.target).value }) });
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
  /** @type {LineChart | null} */
  let ratingChart = null;

  async function load() {
    /** @type {LeagueListing[]} */
    let leagues;
    try {
      [leagues, systems] = await Promise.all([getJson('/api/leagues').then((r) => /** @type {LeaguesResponse} */ (r).leagues), ratingSystems()]);
    } catch (e) {
      return mount(board, h('p', { class: 'error' }, `could not load leagues: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (disposed) return;
    if (!system) {
      system = systems.find((s) => s.name === asked) ?? systems[0] ?? null;
      if (!system) return mount(board, h('p', { class: 'error' }, 'the server has no rating system'));
      patch(systemSelect, systems.map((s, i) => h('option', { value: i === 0 ? '' : s.name, selected: s === system }, s.title)));
      ratingChart = lineChart(ratingCanvas, { xLabel: 'league match', yLabel: system.history.axis, integerX: true });
    }
    if (disposed) return;
    if (!league && leagues.length) league = leagues[leagues.length - 1].id;
    patch(leagueSelect, leagues.length ? leagues.map((l) => h('option', { value: l.id, selected: l.id === league }, `${l.id}${l.env ? ` (${l.env})` : ''}`)) : h('option', { value: '' }, 'no league yet'));
    overviewLink.setAttribute('href', `#/league?id=${encodeURIComponent(league)}`);
    if (!league) return mount(board, h('p', { class: 'muted empty' }, 'No league in this database yet.'));
    channel.follow(league);
    await Promise.all([loadBoard(system), loadRatings(system, /** @type {LineChart} */ (ratingChart)), loadTraining()]);
  }

  /** @param {RatingSystemInfo} system */
  async function loadBoard(system) {
    /** @type {LeaderboardRow[]} */
    let rows;
    try {
      const q = new URLSearchParams(system === systems[0] ? {} : { system: system.name });
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
      h('h2', {}, `Leaderboard: ${system.title}`, h('span', { class: 'count' }, league)),
      h('p', { class: 'muted rating-note', id: 'rating-note' }, system.note, system.name === 'elo' ? '' : ` A player with fewer than ${MIN_INTERVAL_GAMES} games shows “${TOO_FEW_GAMES}” instead of an interval${system.rankRanges ? ' and a rank range' : ''}.`),
      shown.length
        ? [...byRole.entries()].map(([roleName, list]) => h('div', { key: roleName, class: 'role-board', dataset: { role: roleName } }, h('h3', {}, `role: ${roleName}`), boardTable(list, system)))
        : h('p', { class: 'muted empty' }, 'No ratings yet.'));
  }

  /**
   * @param {RatingSystemInfo} system
   * @param {LineChart} chart
   */
  async function loadRatings(system, chart) {
    ratingTitle.textContent = `Rating over time, after each league match: ${system.history.name}`;
    /** @type {RatingsResponse['points']} */
    let points;
    try {
      points = (/** @type {RatingsResponse} */ (await getJson(`/api/leagues/${encodeURIComponent(league)}/ratings?system=${encodeURIComponent(system.history.system)}`))).points;
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
    chart.update(top.map(([label, pts]) => ({ label, points: pts })));
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
  /** @param {import('../../app/server/protocol').LeagueMessage} m */
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
    ratingChart?.destroy();
    training.destroy();
  };
}
