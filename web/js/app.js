/** The page's router: #/ (lobby), #/match/<id>?view=..., #/leaderboard?league=...&role=..., #/tournament?name=..., #/play/<seat token> (a human seat) */
import { showLobby } from './lobby.js';
import { showMatch } from './match-view.js';
import { showLeaderboard } from './leaderboard.js';
import { showTournament } from './tournament.js';
import { getSocket } from './api.js';
import { showPlay } from './play-view.js';

let cleanup = null;

function route() {
  if (cleanup) cleanup();
  cleanup = null;
  const hash = location.hash || '#/';
  const [path, query] = hash.slice(1).split('?');
  const params = new URLSearchParams(query || '');
  const app = document.getElementById('app');
  const page = path.startsWith('/play/') ? 'play' : path.startsWith('/match/') ? 'match' : path.startsWith('/leaderboard') ? 'leaderboard' : path.startsWith('/tournament') ? 'tournament' : 'lobby';
  for (const a of document.querySelectorAll('[data-nav]')) a.classList.toggle('active', a.dataset.nav === page);
  document.body.dataset.page = page;
  if (page === 'play') cleanup = showPlay(app, decodeURIComponent(path.slice('/play/'.length)));
  else if (page === 'match') cleanup = showMatch(app, decodeURIComponent(path.slice('/match/'.length)), params);
  else if (page === 'leaderboard') cleanup = showLeaderboard(app, params);
  else if (page === 'tournament') cleanup = showTournament(app, params);
  else cleanup = showLobby(app, params);
}

getSocket();
window.addEventListener('hashchange', route);
route();
