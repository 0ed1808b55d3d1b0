// @ts-check
/**
 * League overview (#/league?id=...): matches played and the baselines; the exploitability card
 * (exploit probes: a fresh exploiter's win rate against the learners, over rounds); per learner its online
 * Elo over the league's matches against the baselines (one chart per side it plays), its
 * snapshots, its training progress (the newest iteration in words, and the training charts),
 * and links to its best recent games. A league without learners shows its standings instead
 * (the leaderboard's Bradley–Terry table), and no training panels.
 */
import { getJson, getSocket } from './api.js';
import { leagueChannel } from './league-channel.js';
import { lineChart } from './charts.js';
import { ago, groupNames, h, mount, patch } from './dom.js';
import { elo, num, pct } from './format.js';
import { boardTable, ratingSystems } from './leaderboard.js';
import { trainingPanels } from './training-charts.js';
import { opponentWords } from './training-metrics.js';

/** @typedef {import('./types.js').LeaguesResponse} LeaguesResponse */
/** @typedef {import('./types.js').OverviewResponse} OverviewResponse */
/** @typedef {import('./types.js').TrainingResponse} TrainingResponse */
/** @typedef {import('./types.js').LearnerOverview} LearnerOverview */
/** @typedef {import('./types.js').LeaderboardResponse} LeaderboardResponse */
/** @typedef {import('./types.js').LeaderboardRow} LeaderboardRow */
/** @typedef {ReturnType<typeof lineChart>} LineChart */

/**
 * @param {HTMLElement} app
 * @param {URLSearchParams} params
 * @returns {() => void}
 */
export function showLeague(app, params) {
  let league = params.get('id') || '';
  let disposed = false;
  const channel = leagueChannel();
  /** @type {Map<string, LineChart>} charts by learner and side, kept across refreshes */
  const charts = new Map();

  const select = h('select', { id: 'overview-select', onchange: (/** @type {Event} */ e) => (location.hash = `#/league?id=${encodeURIComponent(/** @type {HTMLSelectElement} */ (e.target).value)}`) });
  const boardLink = h('a', { class: 'button', id: 'board-link', href: '#/leaderboard' }, 'leaderboard');
  const head = h('section', { class: 'panel', id: 'league-head' });
  const learners = h('div', { id: 'learners' });
  const exploit = h('div', { id: 'exploitability' });
  const training = trainingPanels();
  // training progress is shown for leagues that train (a learner, or iterations on record)
  const trainingBox = h('div', { id: 'league-training', hidden: true }, h('h2', { class: 'section-title' }, 'Training progress'), training.el);
  mount(app, h('div', { class: 'league-page' }, h('div', { class: 'filters' }, h('label', {}, 'league ', select), boardLink), head, exploit, learners, trainingBox));

  async function load() {
    /** @type {LeaguesResponse['leagues']} */
    let list;
    try {
      list = (/** @type {LeaguesResponse} */ (await getJson('/api/leagues'))).leagues;
    } catch (e) {
      return mount(head, h('p', { class: 'error' }, `could not load leagues: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (disposed) return;
    if (!league && list.length) league = list[list.length - 1].id;
    patch(select, list.length ? list.map((l) => h('option', { value: l.id, selected: l.id === league }, `${l.id}${l.env ? ` (${l.env})` : ''}`)) : h('option', { value: '' }, 'no league yet'));
    boardLink.setAttribute('href', `#/leaderboard?league=${encodeURIComponent(league)}`);
    if (!league) return mount(head, h('p', { class: 'muted empty' }, 'No league in this database yet. Run `arena league run --config FILE` or `arena demo`.'));
    channel.follow(league);
    try {
      const [{ overview }, { iterations }] = /** @type {[OverviewResponse, TrainingResponse]} */ (
        await Promise.all([getJson(`/api/leagues/${encodeURIComponent(league)}/overview`), getJson(`/api/leagues/${encodeURIComponent(league)}/training`)])
      );
      if (disposed) return;
      patch(head,
        h('h2', {}, overview.league, h('span', { class: 'count' }, overview.env ?? '')),
        h('p', { id: 'league-stats' }, `${overview.matches} matches played`, overview.lastMatchAt ? ` · last ${ago(overview.lastMatchAt)}` : '', ` · ${overview.learners.length} learner${overview.learners.length === 1 ? '' : 's'}`),
        h('p', { class: 'muted' }, `Baselines: ${overview.baselines.map((b) => `${b.id} (${b.roles.join(', ')})`).join(' · ') || 'none'}`));
      drawExploitability(overview.exploitability ?? []);
      trainingBox.hidden = !overview.learners.length && !iterations.length;
      if (overview.learners.length) drawLearners(overview.learners);
      else await drawStandings();
      training.update(iterations);
    } catch (e) {
      mount(head, h('p', { class: 'error' }, `league overview: ${e instanceof Error ? e.message : String(e)}`));
    }
  }

  /**
   * A league without learners: its standings (the leaderboard's Bradley–Terry table per role)
   * in place of the learners' cards.
   */
  async function drawStandings() {
    /** @type {LeaderboardRow[]} */
    let rows;
    /** @type {import('./types.js').RatingSystemInfo | undefined} */
    let bt;
    try {
      [rows, bt] = await Promise.all([
        getJson(`/api/leagues/${encodeURIComponent(league)}/leaderboard?system=bt`).then((r) => /** @type {LeaderboardResponse} */ (r).rows),
        ratingSystems().then((systems) => systems.find((s) => s.name === 'bt')),
      ]);
      if (!bt) throw new Error('the server has no Bradley–Terry rating system');
    } catch (e) {
      return patch(learners, h('section', { class: 'panel' }, h('p', { class: 'error' }, `standings: ${e instanceof Error ? e.message : String(e)}`)));
    }
    if (disposed) return;
    /** @type {Map<string, LeaderboardRow[]>} */
    const byRole = new Map();
    for (const r of rows) byRole.set(r.role, [...(byRole.get(r.role) ?? []), r]);
    charts.forEach((c) => c.destroy());
    charts.clear();
    patch(learners, h('section', { class: 'panel', id: 'league-standings' },
      h('h2', {}, 'Standings', h('span', { class: 'count' }, 'Bradley–Terry, 95% intervals')),
      h('p', { class: 'muted' }, 'This league has no learner: its players are rated against each other. ', h('a', { href: `#/leaderboard?league=${encodeURIComponent(league)}` }, 'The leaderboard'), ' has the other rating systems and the rating history.'),
      rows.length
        ? [...byRole.entries()].map(([role, list]) => h('div', { key: role, class: 'role-board', dataset: { role } }, byRole.size > 1 ? h('h3', {}, `role: ${role}`) : null, boardTable(list, /** @type {import('./types.js').RatingSystemInfo} */ (bt))))
        : h('p', { class: 'muted empty' }, 'No rated match yet.')));
  }

  /**
   * The exploit probes' card: the newest exploiter win rate with its interval, and the last rounds.
   * @param {OverviewResponse['overview']['exploitability']} list
   */
  function drawExploitability(list) {
    const pct = (/** @type {number | null} */ x) => (x === null ? '?' : `${Math.round(x * 100)}%`);
    patch(exploit, list.map((e) => {
      const last = e.points[e.points.length - 1];
      return h('section', { class: 'panel exploit-card', key: e.probe, dataset: { probe: e.probe } },
        h('h2', {}, 'Exploitability', h('span', { class: 'count' }, `${e.probe} · ${e.of.join(' + ')}`)),
        last
          ? h('p', { class: 'exploit-now' }, `A fresh exploiter trained ${last.trainingEpisodes} episodes against ${e.of.join(' + ')} wins ${pct(last.winRate)} [${pct(last.lo)}, ${pct(last.hi)}] of ${last.episodes} games (round ${last.round}, ${ago(last.time)}); lower is harder to exploit.`)
          : h('p', { class: 'muted' }, 'No exploit probe has run yet.'),
        h('table', { class: 'exploit-rounds' },
          h('thead', {}, h('tr', {}, ['round', 'exploiter win rate', '95% interval', 'return margin'].map((t) => h('th', {}, t)))),
          h('tbody', {}, e.points.slice(-8).reverse().map((p) => h('tr', { key: String(p.round) },
            h('td', { class: 'num' }, String(p.round)), h('td', { class: 'num' }, pct(p.winRate)),
            h('td', { class: 'num' }, `${pct(p.lo)} – ${pct(p.hi)}`), h('td', { class: 'num' }, p.margin === null ? '—' : num(p.margin, 2)))))));
    }));
  }

  /** @param {LearnerOverview[]} list */
  function drawLearners(list) {
    learners.querySelector('#league-standings')?.remove();
    // sections are kept (their canvases carry charts): add missing ones, update all
    for (const l of list) {
      let section = /** @type {HTMLElement | null} */ (learners.querySelector(`section[data-learner="${CSS.escape(l.id)}"]`));
      if (!section) {
        section = h('section', { class: 'panel learner', dataset: { learner: l.id } },
          h('h2', {}, l.id, h('span', { class: 'count' }, `learner · ${l.roles.join(', ')}`)),
          h('div', { class: 'learner-grid' },
            h('div', { class: 'learner-ratings' }),
            h('div', { class: 'learner-facts' })));
        learners.append(section);
      }
      drawRatings(l, /** @type {HTMLElement} */ (section.querySelector('.learner-ratings')));
      drawFacts(l, /** @type {HTMLElement} */ (section.querySelector('.learner-facts')));
    }
  }

  /**
   * @param {LearnerOverview} l
   * @param {HTMLElement} box
   */
  function drawRatings(l, box) {
    if (!l.ratings.length) {
      patch(box, h('p', { class: 'muted' }, 'Not rated yet: it has played no league match.'));
      return;
    }
    for (const r of l.ratings) {
      const key = `${l.id}\u0000${r.side}`;
      let chart = charts.get(key);
      if (!chart) {
        const canvas = h('canvas', { class: 'learner-chart', dataset: { side: r.side } });
        box.append(h('h3', {}, `Elo over the league's matches, as ${r.side}: ${l.id} against the baselines`), h('div', { class: 'chart-box' }, canvas));
        chart = lineChart(canvas, { xLabel: 'league match', yLabel: 'online Elo', integerX: true });
        charts.set(key, chart);
      }
      chart.update(r.series.map((s) => ({ label: s.kind === 'learner' ? `${s.player} (learner)` : s.player, points: s.points.map(([x, y]) => ({ x, y })), bold: s.kind === 'learner', dashed: s.kind !== 'learner' })));
    }
  }

  /**
   * @param {LearnerOverview} l
   * @param {HTMLElement} box
   */
  function drawFacts(l, box) {
    const it = l.lastIteration;
    patch(box,
      h('p', { class: 'learner-games' }, Object.entries(l.games).map(([side, n]) => `${n} rated games as ${side}`).join(' · ') || 'no game yet'),
      h('h3', {}, 'Training'),
      it
        ? h('div', { class: 'last-iteration' },
            h('p', {}, `${l.iterations} iteration${l.iterations === 1 ? '' : 's'}; the newest (${it.iteration}, ${ago(it.time)}):`),
            h('ul', {},
              Object.entries(it.meanReturn).map(([role, v]) => h('li', {}, `mean return as ${role}: ${num(v, 3)}`)),
              Object.entries(it.winRate).map(([opp, v]) => h('li', {}, `win rate vs ${opponentWords(opp)}: ${pct(v, 0)}`))))
        : h('p', { class: 'muted' }, 'No training iteration yet.'),
      h('h3', {}, `Snapshots (${l.snapshots.length})`),
      l.snapshots.length
        ? h('table', { class: 'snapshots', id: `snapshots-${l.id}` },
            h('thead', {}, h('tr', {}, ['snapshot', 'iteration', 'joined', 'Elo now'].map((t) => h('th', {}, t)))),
            h('tbody', {}, l.snapshots.slice(-12).reverse().map((s) => h('tr', { key: s.id },
              h('td', {}, s.id), h('td', { class: 'num' }, String(s.iteration)), h('td', { class: 'muted' }, ago(s.createdAt)),
              h('td', { class: 'num' }, Object.values(s.elo).map((v) => elo(v)).join(' / ') || '—')))))
        : h('p', { class: 'muted' }, 'None yet: a snapshot joins the league every few training iterations.'),
      h('h3', {}, 'Best recent games'),
      l.best.length
        ? h('table', { class: 'best-games' }, h('tbody', {}, l.best.map((g) => h('tr', { key: g.id, class: 'match-row', dataset: { matchId: g.id } },
            h('td', { class: 'num' }, `#${g.idx}`),
            h('td', { class: 'num' }, `return ${num(g.return, 3)}`),
            h('td', {}, g.outcome),
            h('td', { class: 'agents' }, `vs ${groupNames(g.opponents.flatMap((o) => Array(o.seats).fill(o.player)))}`),
            h('td', {}, h('a', { class: 'button', href: `#/match/${encodeURIComponent(g.id)}` }, 'replay'))))))
        : h('p', { class: 'muted' }, 'No game of its own yet.'),
    );
  }

  const socket = getSocket();
  /** @type {ReturnType<typeof setTimeout> | null} */
  let pending = null;
  const onLeague = () => {
    if (pending) return;
    pending = setTimeout(() => { pending = null; void load(); }, 1000);
  };
  socket.on('league', onLeague);
  const timer = setInterval(load, 10_000);
  void load();

  return () => {
    disposed = true;
    clearInterval(timer);
    if (pending) clearTimeout(pending);
    socket.off('league', onLeague);
    channel.close();
    for (const c of charts.values()) c.destroy();
    training.destroy();
  };
}
