/**
 * Werewolf: players in a circle (alive/dead, speaking, votes received, claims), day/night,
 * speech acts and messages, votes and deaths. A seat's true role is shown only when this view
 * knows it: the omniscient view, the seat's own view, a wolf's teammates, or a public reveal
 * (dawn/exile with revealed roles, game over). The public view shows "?" for every other seat.
 */
import { h, mount } from '../dom.js';
import { agentsFromEvents, rolesFromEvents } from './describe.js';

const ACT_TEXT = {
  claim: (d) => `claims to be the ${d.role}`,
  accuse: (d) => `accuses P${d.target}`,
  defend: (d) => `defends P${d.target}`,
  reveal: (d) => `says P${d.target} is ${d.werewolf ? 'a werewolf' : 'not a werewolf'}`,
  agree: (d) => (d.target === undefined || d.target === null || d.target < 0 ? 'agrees' : `agrees with P${d.target}`),
  silent: () => 'stays silent',
};
const PRIVATE_TEXT = {
  kill: (d) => `wolves: P${d.by} kills P${d.target}`,
  proposal: (d) => `wolves: P${d.by} proposes P${d.target}`,
  decision: (d) => `wolves: P${d.by} decides on P${d.target}`,
  'wolf-vote': (d) => `wolves: P${d.by} votes for P${d.target}`,
  check: (d) => `seer checks P${d.target}: ${d.result}`,
  protect: (d) => `doctor protects P${d.target}`,
  guard: (d) => `guard protects P${d.target}`,
  antidote: (d) => `witch saves P${d.target}`,
  poison: (d) => `witch poisons P${d.target}`,
  victim: (d) => `the wolves' victim is ${d.target === null ? 'nobody' : `P${d.target}`}`,
  vote: (d) => `secret vote for ${d.target === null ? 'nobody' : `P${d.target}`}`,
  bids: (d) => `bids ${JSON.stringify(d.bids)}`,
};

function model(ctx) {
  const agents = agentsFromEvents(ctx.events, ctx.match);
  const n = Math.max(agents.length, ctx.seats || 0);
  const obs = ctx.obs && typeof ctx.obs === 'object' && ctx.obs.public ? ctx.obs : null;
  const m = {
    n, agents, obs,
    alive: Array(n).fill(true),
    known: Array(n).fill(null),
    claims: Array(n).fill(null),
    votes: [], votesRound: 0,
    round: 1, phase: 'night', speaker: -1, toAct: [],
    log: [], deaths: [], winner: null,
  };
  const secretRoles = rolesFromEvents(ctx.events);
  if (secretRoles) secretRoles.forEach((r, i) => (m.known[i] = r));
  for (const e of ctx.events) {
    if (e.type === 'turn') m.toAct = e.toAct;
    if (e.type === 'message') m.log.push({ kind: 'message', seat: e.seat, text: e.text, round: m.round });
    if (e.type === 'match.ended') m.toAct = [];
    if (e.type !== 'env') continue;
    const d = e.data;
    const isPublic = e.visibility === 'public';
    if (typeof d.round === 'number') m.round = d.round;
    switch (e.name) {
      case 'dawn':
        m.phase = 'day';
        for (const [k, s] of (d.dead || []).entries()) {
          m.alive[s] = false;
          if (d.roles && d.roles[k]) m.known[s] = d.roles[k];
          m.deaths.push({ seat: s, round: d.round, how: 'killed at night', role: d.roles?.[k] });
        }
        m.log.push({ kind: 'dawn', round: d.round, text: d.dead?.length ? `Dawn: ${d.dead.map((s) => `P${s}`).join(', ')} found dead` : 'Dawn: nobody died' });
        break;
      case 'floor':
        m.phase = 'day';
        m.speaker = d.seat;
        break;
      case 'speech':
        m.phase = 'day';
        m.speaker = d.seat;
        if (d.act === 'claim') m.claims[d.seat] = d.role;
        m.log.push({ kind: 'speech', seat: d.seat, round: d.round, text: (ACT_TEXT[d.act] || (() => d.act))(d), act: d.act, free: d.text });
        break;
      case 'vote':
        if (!isPublic) { m.log.push({ kind: 'private', round: d.round, text: PRIVATE_TEXT.vote(d) }); break; }
        m.phase = 'vote';
        if (m.votesRound !== d.round) { m.votes = []; m.votesRound = d.round; }
        m.votes[d.seat] = d.target;
        break;
      case 'votes':
        m.phase = 'vote';
        m.votes = d.votes.slice();
        m.votesRound = d.round;
        break;
      case 'exile':
        m.phase = 'night';
        m.speaker = -1;
        if (d.seat !== null && d.seat !== undefined) {
          m.alive[d.seat] = false;
          if (d.role) m.known[d.seat] = d.role;
          m.deaths.push({ seat: d.seat, round: d.round, how: 'exiled by vote', role: d.role });
        }
        m.log.push({ kind: 'exile', round: d.round, text: d.seat === null || d.seat === undefined ? 'Nobody was exiled' : `P${d.seat} was exiled${d.role ? ` (${d.role})` : ''}` });
        break;
      case 'game-over':
        m.phase = 'over';
        m.winner = d.winner;
        (d.roles || []).forEach((r, i) => (m.known[i] = r));
        m.log.push({ kind: 'over', round: d.round, text: `Game over: ${d.winner} win` });
        break;
      default:
        if (!isPublic) m.log.push({ kind: 'private', round: d.round, text: (PRIVATE_TEXT[e.name] || ((x) => `${e.name} ${JSON.stringify(x)}`))(d) });
    }
  }
  if (obs) {
    const p = obs.public;
    m.round = p.round;
    m.phase = p.phase === 'bid' || p.phase === 'speak' ? 'day' : p.phase;
    if (Array.isArray(p.alive)) m.alive = p.alive.map((a) => !!a);
    if (p.speaker >= 0) m.speaker = p.speaker;
    if (p.winner) m.winner = p.winner;
    const roles = obs.roles || p.roles;
    if (roles) roles.forEach((r, i) => (m.known[i] = r));
    if (obs.seat !== null && obs.seat !== undefined && obs.role) m.known[obs.seat] = obs.role;
    for (const w of obs.wolves || []) if (!m.known[w]) m.known[w] = 'werewolf';
  }
  return m;
}

const ICON = { night: '☾', day: '☀', vote: '✋', over: '⚑' };

/** Timeline line for a werewolf env event (null: use the generic description). */
function describe(e) {
  if (e.type !== 'env') return null;
  const d = e.data;
  switch (e.name) {
    case 'speech': return `P${d.seat} ${(ACT_TEXT[d.act] || (() => d.act))(d)}`;
    case 'floor': return `P${d.seat} has the floor`;
    case 'dawn': return d.dead?.length ? `dawn: ${d.dead.map((s) => `P${s}`).join(', ')} dead` : 'dawn: nobody died';
    case 'exile': return d.seat === null || d.seat === undefined ? 'nobody exiled' : `P${d.seat} exiled${d.role ? ` (${d.role})` : ''}`;
    case 'votes': return d.votes.map((t, s) => `P${s}→${t === null ? '-' : `P${t}`}`).join(' ');
    case 'vote': return e.visibility === 'public' ? `P${d.seat} votes ${d.target === null ? 'for nobody' : `P${d.target}`}` : PRIVATE_TEXT.vote(d);
    case 'game-over': return `${d.winner} win`;
    default: return PRIVATE_TEXT[e.name] ? PRIVATE_TEXT[e.name](d) : null;
  }
}

export const werewolfRenderer = {
  name: 'werewolf',
  describe,
  render(el, ctx) {
    const m = model(ctx);
    const votesFor = Array(m.n).fill(0);
    for (const t of m.votes) if (typeof t === 'number' && t >= 0) votesFor[t]++;
    const seats = [];
    for (let i = 0; i < m.n; i++) {
      const angle = (2 * Math.PI * i) / m.n - Math.PI / 2;
      const x = 50 + 40 * Math.cos(angle);
      const y = 50 + 40 * Math.sin(angle);
      const role = m.known[i];
      const cls = ['seat', m.alive[i] ? 'alive' : 'dead', i === m.speaker && m.phase === 'day' ? 'speaking' : '', m.toAct.includes(i) && m.phase !== 'over' ? 'acting' : '', role === 'werewolf' ? 'wolf' : '', ctx.obs?.seat === i ? 'me' : ''].filter(Boolean).join(' ');
      seats.push(
        h('div', { class: cls, dataset: { seat: i }, style: { left: `${x}%`, top: `${y}%` } },
          h('div', { class: 'seat-name' }, `P${i}`, m.alive[i] ? '' : ' ☠'),
          h('div', { class: 'seat-agent' }, m.agents[i] ?? ''),
          h('div', { class: 'role' }, role ?? '?'),
          m.claims[i] ? h('div', { class: 'claim' }, `claims ${m.claims[i]}`) : null,
          votesFor[i] ? h('div', { class: 'votes-badge', title: 'votes received' }, `${votesFor[i]} vote${votesFor[i] > 1 ? 's' : ''}`) : null,
        ),
      );
    }
    const lastSpeech = [...m.log].reverse().find((l) => l.kind === 'speech' || l.kind === 'message');
    const center = h('div', { class: 'circle-center' },
      h('div', { class: 'phase-icon' }, ICON[m.phase] || ''),
      h('div', { class: 'phase', id: 'ww-phase' }, m.phase === 'over' ? `${m.winner} win` : `Round ${m.round} · ${m.phase}`),
      lastSpeech ? h('div', { class: 'bubble' }, `P${lastSpeech.seat}: ${lastSpeech.text}${lastSpeech.free ? ` — “${lastSpeech.free}”` : ''}`) : null,
    );
    const votes = m.votes.map((t, s) => (t === undefined ? null : h('li', {}, `P${s} → ${t === null || t < 0 ? 'abstain' : `P${t}`}`))).filter(Boolean);
    mount(
      el,
      h('div', { class: `werewolf phase-${m.phase}` },
        h('div', { class: 'circle', id: 'ww-circle' }, center, seats),
        h('div', { class: 'ww-side' },
          h('h3', {}, 'Talk'),
          h('ol', { class: 'talk', id: 'ww-talk' }, m.log.slice(-80).reverse().map((l) =>
            h('li', { class: `talk-${l.kind}` }, h('span', { class: 'round' }, `R${l.round}`), ' ', l.kind === 'speech' || l.kind === 'message' ? h('strong', {}, `P${l.seat} `) : l.kind === 'private' ? '(private) ' : '', l.text, l.free ? h('em', {}, ` “${l.free}”`) : null))),
          h('h3', {}, `Votes${m.votesRound ? ` (round ${m.votesRound})` : ''}`),
          votes.length ? h('ul', { class: 'votes', id: 'ww-votes' }, votes) : h('p', { class: 'muted' }, 'no votes yet'),
          h('h3', {}, 'Deaths'),
          m.deaths.length ? h('ul', { class: 'deaths', id: 'ww-deaths' }, m.deaths.map((d) => h('li', {}, `R${d.round}: P${d.seat} ${d.how}${d.role ? ` (${d.role})` : ''}`))) : h('p', { class: 'muted' }, 'nobody yet'),
        ),
      ),
    );
  },
};
