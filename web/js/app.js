// @ts-check
/**
 * The page's router: #/ (lobby), #/match/<id>?view=...&watch=1, #/leaderboard?league=...&role=...&system=...,
 * #/league?id=... (a league's overview), #/tournament?name=..., #/play/<seat token> (a human seat).
 */
import { showLobby } from './lobby.js';
import { showMatch } from './match-view.js';
import { showLeaderboard } from './leaderboard.js';
import { showLeague } from './league.js';
import { showTournament } from './tournament.js';
import { getSocket } from './api.js';
import { showPlay } from './play-view.js';

/** @type {(() => void) | null} */
let cleanup = null;

/** @param {string} path */
function pageOf(path) {
  if (path.startsWith('/play/')) return 'play';
  if (path.startsWith('/match/')) return 'match';
  if (path.startsWith('/leaderboard')) return 'leaderboard';
  if (path.startsWith('/league')) return 'league';
  if (path.startsWith('/tournament')) return 'tournament';
  return 'lobby';
}

function route() {
  if (cleanup) cleanup();
  cleanup = null;
  const hash = location.hash || '#/';
  const [path, query] = hash.slice(1).split('?');
  const params = new URLSearchParams(query || '');
  const app = document.getElementById('app');
  if (!app) return;
  const page = pageOf(path);
  for (const a of document.querySelectorAll('[data-nav]')) if (a instanceof HTMLElement) a.classList.toggle('active', a.dataset.nav === page);
  document.body.dataset.page = page;
  if (page === 'play') cleanup = showPlay(app, decodeURIComponent(path.slice('/play/'.length)));
  else if (page === 'match') cleanup = showMatch(app, decodeURIComponent(path.slice('/match/'.length)), params);
  else if (page === 'leaderboard') cleanup = showLeaderboard(app, params);
  else if (page === 'league') cleanup = showLeague(app, params);
  else if (page === 'tournament') cleanup = showTournament(app, params);
  else cleanup = showLobby(app, params);
}

getSocket();
window.addEventListener('hashchange', route);
route();
