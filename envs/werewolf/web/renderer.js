// @ts-check
/**
 * Werewolf, drawn from the view's observation (the env's projection: who is alive, the phase,
 * the speaker, the public log, and what this view may know of roles, night results and votes):
 * players in a circle (alive/dead, speaking, claims, votes received), the talk (the events in
 * the env's words, sent by the server), the votes of the latest vote (or why they are secret)
 * and the deaths. A seat's true role is shown only where the observation has it.
 */
import { addStylesheet, h, patch } from '../../../web/js/dom.js';
import { genericRenderer } from '../../../web/js/renderers/generic.js';

addStylesheet(new URL('./renderer.css', import.meta.url).href);

/** @typedef {import('../observe').WerewolfObservation} WerewolfObservation */
/** @typedef {WerewolfObservation['public']['log'][number][number]} PublicEvent */
/** @typedef {WerewolfObservation['private'][number]} PrivateEvent */
/** @typedef {import('../../../web/js/renderers/context.js').RenderContext} RenderContext */
/** @typedef {import('../../../web/js/types.js').ViewEvent} ViewEvent */

/**
 * @param {unknown} obs
 * @returns {obs is WerewolfObservation}
 */
function isWerewolf(obs) {
  return !!obs && typeof obs === 'object' && 'public' in obs && 'rules' in obs && !!obs.public;
}

/** @type {Record<string, string>} */
const ICON = { night: '☾', bid: '☀', speak: '☀', vote: '✋', over: '⚑' };
/** @type {Record<string, string>} */
const PHASE = { night: 'night', bid: 'day: bidding for the floor', speak: 'day: debate', vote: 'vote', over: 'over' };

const P = (/** @type {number | null | undefined} */ s) => (s === null || s === undefined || s < 0 ? 'nobody' : `P${s}`);

/**
 * Who is known to hold which role in this view, and the claims and deaths of the public log.
 * @param {WerewolfObservation} o
 */
function seatsOf(o) {
  const p = o.public;
  const n = p.alive.length;
  /** @type {(string | null)[]} */
  const known = Array(n).fill(null);
  /** @type {(string | null)[]} */
  const claims = Array(n).fill(null);
  /** @type {{ seat: number, round: number, how: string, role: string | null }[]} */
  const deaths = [];
  p.log.forEach((chunk) => {
    for (const e of chunk) {
      if (e.type === 'speech' && e.act === 'claim' && e.role) claims[e.seat] = e.role;
      if (e.type === 'dawn') e.dead.forEach((s, k) => {
        const role = e.roles?.[k] ?? null;
        if (role) known[s] = role;
        deaths.push({ seat: s, round: e.round, how: 'killed at night', role });
      });
      if (e.type === 'exile' && e.seat !== null) {
        if (e.role) known[e.seat] = e.role;
        deaths.push({ seat: e.seat, round: e.round, how: 'exiled by vote', role: e.role ?? null });
      }
    }
  });
  for (const w of o.wolves) known[w] = 'werewolf';
  if (o.seat !== null && o.role) known[o.seat] = o.role;
  const all = o.roles ?? p.roles;
  if (all) all.forEach((r, i) => (known[i] = r));
  return { n, known, claims, deaths };
}

/**
 * The latest vote: its round, who voted for whom as far as this view knows, its result, and a
 * note when the rules keep the votes secret from this view.
 * @param {WerewolfObservation} o
 */
function latestVote(o) {
  const p = o.public;
  const rules = o.rules;
  const secret = rules.voting === 'simultaneous' && !rules.votesPublic;
  let round = 0;
  for (let r = p.log.length; r >= 1 && !round; r--) if (p.log[r - 1].some((e) => e.type === 'vote' || e.type === 'votes' || e.type === 'exile')) round = r;
  const voting = p.phase === 'vote';
  if (voting) round = p.round;
  if (!round) return { round: 0, votes: /** @type {Map<number, number | null>} */ (new Map()), result: null, secret, inProgress: false };
  /** @type {Map<number, number | null>} */
  const votes = new Map();
  const chunk = p.log[round - 1] ?? [];
  /** @type {string | null} */
  let result = null;
  for (const e of chunk) {
    if (e.type === 'votes') e.votes.forEach((t, s) => t !== null && votes.set(s, t));
    if (e.type === 'vote') votes.set(e.seat, e.target);
    if (e.type === 'exile') result = e.seat === null ? 'Nobody was exiled.' : `${P(e.seat)} was exiled${e.role ? ` (${e.role})` : ''}.`;
  }
  // what this view may know beyond the public log: the omniscient view every secret vote, a seat its own
  /** @param {readonly PrivateEvent[]} list @param {number} seat */
  const own = (list, seat) => {
    for (const e of list) if (e.type === 'vote' && e.round === round && !votes.has(seat)) votes.set(seat, e.target);
  };
  if (o.secret) {
    o.secret.privates.forEach((list, seat) => own(list, seat));
    if (voting) o.secret.votes.forEach((t, seat) => t >= 0 && !votes.has(seat) && votes.set(seat, t));
  } else if (o.seat !== null) own(o.private, o.seat);
  return { round, votes, result, secret: secret && !o.secret, inProgress: voting && result === null };
}

/**
 * @param {WerewolfObservation} o
 */
function votesPanel(o) {
  const v = latestVote(o);
  if (!v.round) return [h('h3', {}, 'Votes'), h('p', { class: 'muted', id: 'ww-votes-none' }, 'No vote yet: the first vote follows the first day’s debate.')];
  const list = [...v.votes.entries()].sort((a, b) => a[0] - b[0]);
  return [
    h('h3', {}, `Votes, round ${v.round}${v.inProgress ? ' (in progress)' : ''}`),
    list.length ? h('ul', { class: 'votes', id: 'ww-votes' }, list.map(([s, t]) => h('li', { key: `v${s}` }, `${P(s)} → ${t === null ? 'pass' : P(t)}`))) : null,
    v.secret ? h('p', { class: 'muted', id: 'ww-votes-secret' }, 'Votes are secret in these rules: only the exile is announced.') : null,
    v.result ? h('p', { class: 'vote-result', id: 'ww-vote-result' }, v.result) : null,
  ];
}

/**
 * @param {ViewEvent} e
 * @returns {string}
 */
function talkText(e) {
  if (e.caption) return e.caption;
  if (e.type === 'message') return `${P(e.seat)}: “${e.text}”`;
  return e.type === 'env' ? e.name : '';
}

/** @type {import('../../../web/js/renderers/context.js').Renderer} */
export const renderer = {
  name: 'werewolf',
  render(el, ctx) {
    const o = ctx.obs;
    if (!isWerewolf(o)) return genericRenderer.render(el, ctx);
    const p = o.public;
    const { n, known, claims, deaths } = seatsOf(o);
    const v = latestVote(o);
    /** @type {number[]} */
    const received = Array(n).fill(0);
    if (!v.result) for (const t of v.votes.values()) if (typeof t === 'number' && t >= 0) received[t]++;
    const over = p.phase === 'over';
    const seats = [];
    for (let i = 0; i < n; i++) {
      const angle = (2 * Math.PI * i) / n - Math.PI / 2;
      const role = known[i];
      const alive = !!p.alive[i];
      const cls = ['seat', alive ? 'alive' : 'dead', i === p.speaker && !over ? 'speaking' : '', ctx.toAct.includes(i) && !over ? 'acting' : '', role === 'werewolf' ? 'wolf' : '', ctx.seat === i ? 'me' : ''].filter(Boolean).join(' ');
      seats.push(
        h('div', { class: cls, key: `seat${i}`, dataset: { seat: i }, style: { left: `${50 + 40 * Math.cos(angle)}%`, top: `${50 + 40 * Math.sin(angle)}%` } },
          h('div', { class: 'seat-name' }, `P${i}`, alive ? '' : ' ☠'),
          h('div', { class: 'seat-agent' }, ctx.agents[i] ?? ''),
          h('div', { class: 'role' }, role ?? '?'),
          claims[i] ? h('div', { class: 'claim' }, `claims ${claims[i]}`) : null,
          received[i] ? h('div', { class: 'votes-badge', title: 'votes received in the vote under way' }, `${received[i]} vote${received[i] > 1 ? 's' : ''}`) : null,
        ),
      );
    }
    const told = ctx.told(80);
    const lastSaid = [...told].reverse().find((e) => e.type === 'message' || (e.type === 'env' && e.name === 'speech'));
    const winner = p.winner === 'draw' ? 'a draw' : `${p.winner} win`;
    patch(el,
      h('div', { class: `werewolf phase-${p.phase}` },
        h('div', { class: 'circle', id: 'ww-circle' },
          h('div', { class: 'circle-center' },
            h('div', { class: 'phase-icon' }, ICON[p.phase] ?? ''),
            h('div', { class: 'phase', id: 'ww-phase' }, over ? winner : `Round ${p.round} · ${PHASE[p.phase] ?? p.phase}`),
            lastSaid ? h('div', { class: 'bubble' }, talkText(lastSaid)) : null,
          ),
          seats,
        ),
        h('div', { class: 'ww-side' },
          h('h3', {}, 'Talk and events'),
          h('ol', { class: 'talk', id: 'ww-talk' }, [...told].reverse().map((e) => {
            const round = e.type === 'env' && typeof e.data.round === 'number' ? `R${e.data.round} ` : '';
            const kind = e.type === 'env' ? (e.visibility === 'public' ? e.name : 'private') : 'message';
            return h('li', { class: `talk-${kind}`, key: `t${e.seq}` }, h('span', { class: 'round' }, round), e.visibility === 'public' ? '' : h('span', { class: 'private-tag' }, 'private '), talkText(e));
          })),
          votesPanel(o),
          h('h3', {}, 'Deaths'),
          deaths.length
            ? h('ul', { class: 'deaths', id: 'ww-deaths' }, deaths.map((d) => h('li', {}, `R${d.round}: ${P(d.seat)} ${d.how}${d.role ? ` (${d.role})` : ''}`)))
            : h('p', { class: 'muted' }, 'nobody yet'),
        ),
      ));
  },
};
