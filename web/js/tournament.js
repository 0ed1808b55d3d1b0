// @ts-check
/**
 * Tournament page (#/tournament?name=...): standings with Elo ± 95% interval and LOS, the
 * crosstable (points per pair, W-D-L and per-side results on hover), pairs with pentanomial
 * counts, Swiss rounds, the SPRT's LLR between its bounds, and the newest games (replay links).
 * Refreshes when the tournament's games are rated (socket channel "league" under its name).
 */
import { getJson, getSocket } from './api.js';
import { leagueChannel } from './league-channel.js';
import { h, mount } from './dom.js';
import { TOO_FEW_GAMES, elo, eloWithInterval, enoughGames, interval, num, pct } from './format.js';

/** @typedef {import('./types.js').TournamentsResponse} TournamentsResponse */
/** @typedef {import('./types.js').TournamentResponse} TournamentResponse */
/** @typedef {TournamentResponse['tournament']} Report */
/** @typedef {TournamentResponse['recent']} RecentGames */
/** @typedef {{ wins: unknown, draws: unknown, losses: unknown }} Wdl */

/** A JSON figure as a number ("inf" -> Infinity, null -> NaN). @param {unknown} x */
const n = (x) => (typeof x === 'number' ? x : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : NaN);
/** A signed Elo difference in whole points. @param {unknown} x */
const diff = (x) => elo(x, { signed: true });
/** LOS needs the same sample as an interval. @param {unknown} x @param {unknown} games */
const los = (x, games) => (enoughGames(games) ? pct(x) : TOO_FEW_GAMES);
/** "A (greedy)": a player as the CLI names it (the id alone when it is its agent). @param {{ id: string, agent: string }} p */
const named = (p) => (p.agent && p.agent !== p.id ? `${p.id} (${p.agent})` : p.id);
const wdl = (/** @type {Wdl} */ x) => `${x.wins}-${x.draws}-${x.losses}`;

/**
 * @param {HTMLElement} app
 * @param {URLSearchParams} params
 * @returns {() => void}
 */
export function showTournament(app, params) {
  let name = params.get('name') || '';
  let disposed = false;
  const channel = leagueChannel();
  const select = h('select', { id: 'tournament-select', onchange: (/** @type {Event} */ e) => (location.hash = `#/tournament?name=${encodeURIComponent(/** @type {HTMLSelectElement} */ (e.target).value)}`) });
  const head = h('section', { class: 'panel', id: 'tournament-head' });
  const sprtBox = h('section', { class: 'panel', id: 'sprt', hidden: true });
  const standings = h('section', { class: 'panel', id: 'standings' });
  const cross = h('section', { class: 'panel', id: 'crosstable' });
  const pairs = h('section', { class: 'panel', id: 'pairs' });
  const rounds = h('section', { class: 'panel', id: 'rounds', hidden: true });
  const games = h('section', { class: 'panel', id: 'tournament-games' });
  // the report's panels, shown once there is a tournament to report (never as empty cards)
  const report = h('div', { id: 'tournament-report', hidden: true }, sprtBox, standings, cross, pairs, rounds, games);
  mount(app, h('div', { class: 'tournament-page' }, h('div', { class: 'filters' }, h('label', {}, 'tournament ', select)), head, report));

  async function load() {
    /** @type {TournamentsResponse['tournaments']} */
    let list;
    try {
      list = (/** @type {TournamentsResponse} */ (await getJson('/api/tournaments'))).tournaments;
    } catch (e) {
      return mount(head, h('p', { class: 'error' }, `could not load tournaments: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (disposed) return;
    if (!name && list.length) name = list[list.length - 1].id;
    mount(select, list.length ? list.map((t) => h('option', { value: t.id, selected: t.id === name }, `${t.id} (${t.format}, ${t.env ?? '?'})`)) : h('option', { value: '' }, 'no tournament yet'));
    report.hidden = !name;
    if (!name) return mount(head, h('p', { class: 'muted empty', id: 'no-tournament' }, 'No tournament in this database yet. Run `arena tournament run --config FILE` (round robin, gauntlet or Swiss) or `arena sprt`, then reload this page.'));
    channel.follow(name);
    /** @type {TournamentResponse} */
    let body;
    try {
      body = await getJson(`/api/tournaments/${encodeURIComponent(name)}`);
    } catch (e) {
      return mount(head, h('p', { class: 'error' }, `tournament: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (!disposed) draw(body.tournament, body.recent);
  }

  /**
   * @param {Report} t
   * @param {RecentGames} recent
   */
  function draw(t, recent) {
    const progress = t.format === 'sprt' ? `${t.games} games` : `${t.games}/${t.total} games`;
    mount(head,
      h('h2', {}, t.name, h('span', { class: 'count' }, `${t.format} · ${t.env}`)),
      h('p', { id: 'tournament-progress' }, progress, ' · ', h('span', { class: t.finished ? 'badge' : 'badge live' }, t.finished ? 'finished' : 'in progress')));
    drawSprt(t);
    const agentOf = new Map(t.players.map((p) => [p.id, p.agent]));
    const swiss = t.format === 'swiss';
    mount(standings,
      h('h2', {}, 'Standings'),
      h('table', { class: 'board standings' },
        h('thead', {}, h('tr', {}, ['rank', 'player', 'games', 'W-D-L', 'points', 'score', 'Elo', '95% interval', 'LOS', ...(swiss ? ['Buchholz'] : []), 'S-B'].map((x) => h('th', {}, x)))),
        h('tbody', {}, t.standings.map((r) =>
          h('tr', { dataset: { player: r.player } },
            h('td', { class: 'rank' }, String(r.rank)),
            h('td', {}, r.player, agentOf.get(r.player) && agentOf.get(r.player) !== r.player ? h('span', { class: 'kind' }, agentOf.get(r.player)) : null),
            h('td', { class: 'num' }, String(r.games)),
            h('td', { class: 'num wdl' }, wdl(r)),
            h('td', { class: 'num points' }, `${num(r.points)}${r.byes ? ` (${r.byes} bye)` : ''}`),
            h('td', { class: 'num' }, pct(r.score)),
            h('td', { class: 'num elo' }, diff(r.elo.elo)),
            h('td', { class: 'num muted interval' }, interval(r.elo.eloLo, r.elo.eloHi, r.elo.games, diff)),
            h('td', { class: 'num los' }, los(r.elo.los, r.elo.games)),
            swiss ? h('td', { class: 'num' }, num(r.buchholz)) : null,
            h('td', { class: 'num' }, num(r.sonnebornBerger)))))));
    const ids = t.players.map((p) => p.id);
    const cell = (/** @type {string} */ a, /** @type {string} */ b) => t.crosstable.cells.find((c) => c.player === a && c.opponent === b);
    mount(cross,
      h('h2', {}, 'Crosstable', h('span', { class: 'count' }, "row player's points / games")),
      h('table', { class: 'crosstable' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), ids.map((x) => h('th', { class: 'num' }, x)))),
        h('tbody', {}, ids.map((a) =>
          h('tr', { dataset: { player: a } }, h('th', {}, a), ids.map((b) => {
            if (a === b) return h('td', { class: 'num self' }, '·');
            const c = cell(a, b);
            if (!c) return h('td', { class: 'num muted' }, '');
            const sides = Object.entries(c.bySide).map(([s, w]) => `${s} ${wdl(w)}`).join(', ');
            const cls = n(c.score) > 0.5 ? 'num win' : n(c.score) < 0.5 ? 'num loss' : 'num';
            return h('td', { class: cls, dataset: { opponent: b }, title: `${a} vs ${b}: ${wdl(c)} (${sides})` }, `${num(c.points)}/${c.games}`);
          }))))));
    const met = t.crosstable.cells.filter((c) => ids.indexOf(c.player) < ids.indexOf(c.opponent));
    mount(pairs,
      h('h2', {}, 'Pairs'),
      met.length
        ? h('table', { class: 'pairs' },
          h('thead', {}, h('tr', {}, ['pair', 'games', 'W-D-L', 'score', 'by side', 'pentanomial LL·LD·DD/WL·WD·WW', 'Elo [95%]', 'LOS'].map((x) => h('th', {}, x)))),
          h('tbody', {}, met.map((c) =>
            h('tr', { dataset: { pair: `${c.player}-${c.opponent}` } },
              h('td', {}, `${c.player} vs ${c.opponent}`),
              h('td', { class: 'num' }, String(c.games)),
              h('td', { class: 'num' }, wdl(c)),
              h('td', { class: 'num' }, pct(c.score)),
              h('td', { class: 'muted' }, Object.entries(c.bySide).map(([s, w]) => `${s} ${wdl(w)}`).join(', ')),
              h('td', { class: 'num mono penta' }, c.pentanomial ? c.pentanomial.join(' · ') : '—'),
              h('td', { class: 'num pair-elo' }, eloWithInterval(c.elo)),
              h('td', { class: 'num' }, los(c.elo.los, c.elo.games))))))
        : h('p', { class: 'muted empty' }, 'No games yet.'));
    rounds.hidden = !t.rounds.length;
    mount(rounds, h('h2', {}, 'Rounds'), h('ol', { class: 'rounds' }, t.rounds.map((r) =>
      h('li', {}, r.pairings.map(([a, b]) => `${a} – ${b}`).join(', '), r.bye ? h('span', { class: 'muted' }, ` · bye ${r.bye}`) : null))));
    mount(games,
      h('h2', {}, 'Newest games'),
      recent.length
        ? h('table', { class: 'matches' }, h('tbody', {}, recent.map((g) =>
          h('tr', { class: 'match-row', dataset: { matchId: g.id } },
            h('td', { class: 'num' }, `#${g.idx}`),
            h('td', {}, g.players.join(' · ')),
            h('td', {}, g.outcome),
            h('td', { class: 'mono' }, JSON.stringify(g.returns)),
            h('td', {}, h('a', { class: 'button', href: `#/match/${encodeURIComponent(g.id)}` }, 'replay'))))))
        : h('p', { class: 'muted empty' }, 'No games yet.'));
  }

  /** @param {Report} t */
  function drawSprt(t) {
    sprtBox.hidden = !t.sprt;
    if (!t.sprt) return;
    const s = t.sprt;
    const span = n(s.upper) - n(s.lower);
    const pos = Math.max(0, Math.min(100, ((n(s.llr) - n(s.lower)) / span) * 100));
    const decision = s.decision ? `${s.decision} accepted` : t.finished ? 'undecided (game limit)' : 'running';
    mount(sprtBox,
      h('h2', {}, 'SPRT', h('span', { class: 'count', id: 'sprt-players' }, `${named(t.players[0])} vs ${named(t.players[1])} · [${s.elo0}, ${s.elo1}] ${s.model} Elo · α ${s.alpha} · β ${s.beta}`)),
      h('p', { id: 'sprt-status' }, h('strong', { class: s.decision === 'H1' ? 'h1' : s.decision === 'H0' ? 'h0' : '' }, decision),
        ` · LLR ${num(n(s.llr), 2)} in [${num(n(s.lower), 2)}, ${num(n(s.upper), 2)}] · ${s.counts.length === 5 ? 'pentanomial' : 'trinomial'} ${s.counts.join(' · ')} · Elo ${eloWithInterval(s.elo)} · LOS ${los(s.elo.los, s.elo.games)}`),
      h('div', { class: 'llr-bar', title: 'LLR between the H0 (left) and H1 (right) bounds' }, h('div', { class: 'llr-mark', style: { left: `${pos}%` } })));
  }

  const socket = getSocket();
  /** @type {ReturnType<typeof setTimeout> | null} */
  let pending = null;
  /** @param {import('./types.js').LeagueMessage} msg */
  const onLeague = (msg) => {
    if (msg.league !== name || pending) return;
    pending = setTimeout(() => { pending = null; void load(); }, 500);
  };
  socket.on('league', onLeague);
  const timer = setInterval(load, 10_000);
  load();

  return () => {
    disposed = true;
    clearInterval(timer);
    if (pending) clearTimeout(pending);
    socket.off('league', onLeague);
    channel.close();
  };
}
