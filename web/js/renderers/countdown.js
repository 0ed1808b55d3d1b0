/**
 * Countdown: the numbers, the target, and each attempt with its score. The puzzle comes from
 * the observation (numbers/target) or from any event carrying them; attempts are events with a
 * score (or an answer/expression). Falls back to the generic view when nothing is found.
 */
import { h, mount, num, short } from '../dom.js';
import { agentsFromEvents, rolesFromEvents } from './describe.js';
import { genericRenderer } from './generic.js';

const isObj = (x) => x && typeof x === 'object' && !Array.isArray(x);

function findPuzzle(ctx) {
  const candidates = [];
  if (isObj(ctx.obs)) candidates.push(ctx.obs, ctx.obs.puzzle);
  for (const e of ctx.events) if (e.type === 'env' || e.type === 'message') candidates.push(e.data, e.data?.puzzle);
  let puzzle = null;
  for (const c of candidates) if (isObj(c) && Array.isArray(c.numbers) && typeof c.target === 'number') puzzle = { numbers: c.numbers, target: c.target, ...(c.contract ? { contract: c.contract } : {}) };
  return puzzle;
}

/**
 * Attempts with what this view may know: the results (answer, value, score) from the
 * observation (omniscient, or everyone once the game is over) or the final `result` event;
 * before that only how many attempts are done, plus the solver's own answers in its seat view.
 */
function attempts(ctx) {
  const results = isObj(ctx.obs) && Array.isArray(ctx.obs.results) ? ctx.obs.results : null;
  const final = ctx.events.find((e) => e.type === 'env' && e.name === 'result');
  const list = results ?? (final && Array.isArray(final.data.attempts) ? final.data.attempts : null);
  if (list) return list.map((r) => ({ answer: r.answer ?? null, value: r.value ?? null, score: r.score ?? null, reason: r.reason ?? null, exact: r.correct ?? null }));
  const out = [];
  for (const e of ctx.events) {
    if (e.type !== 'env') continue;
    if (e.name === 'attempt') out[e.data.attempt] = { ...(out[e.data.attempt] ?? {}), done: true };
    if (e.name === 'answer') out[e.data.attempt] = { ...(out[e.data.attempt] ?? {}), answer: e.data.answer };
  }
  return out.filter(Boolean).map((a) => ({ answer: a.answer ?? null, value: null, score: null, reason: a.answer === undefined ? 'scored at the end' : null, exact: null }));
}

function verdictText(v) {
  if (v.expression) return `exact solver: ${v.expression}${v.value !== null && v.value !== undefined ? ` = ${v.value}` : ''}${v.distance > 0 ? ` (off by ${v.distance})` : ''}`;
  return v.reachable === false ? 'exact solver: no solution' : '';
}

export const countdownRenderer = {
  name: 'countdown',
  render(el, ctx) {
    const puzzle = findPuzzle(ctx);
    if (!puzzle) return genericRenderer.render(el, ctx);
    const agents = agentsFromEvents(ctx.events, ctx.match);
    const roles = rolesFromEvents(ctx.events);
    const list = attempts(ctx);
    const ended = ctx.events.find((e) => e.type === 'match.ended');
    mount(
      el,
      h('div', { class: 'countdown' },
        h('div', { class: 'cd-target', id: 'cd-target' }, h('span', { class: 'muted' }, 'target'), h('strong', {}, String(puzzle.target))),
        h('div', { class: 'cd-numbers', id: 'cd-numbers' }, puzzle.numbers.map((n) => h('span', { class: n >= 25 ? 'tile large' : 'tile' }, String(n)))),
        h('p', { class: 'muted' }, agents.map((a, i) => `P${i} ${a}${roles ? ` (${roles[i]})` : ''}`).join(' · ')),
        isObj(ctx.obs) && ctx.obs.verdict ? h('p', { class: 'cd-verdict', id: 'cd-verdict' }, verdictText(ctx.obs.verdict)) : null,
        isObj(ctx.obs) && Array.isArray(ctx.obs.moves) && ctx.obs.moves.length ? h('p', { class: 'cd-moves mono' }, `attempt in progress: ${ctx.obs.moves.join(', ')}`) : null,
        h('h3', {}, `Attempts (${list.length}${isObj(ctx.obs) && ctx.obs.attempts ? ` of ${ctx.obs.attempts}` : ''})`),
        list.length
          ? h('table', { class: 'cd-attempts', id: 'cd-attempts' },
              h('thead', {}, h('tr', {}, ['#', 'seat', 'answer', 'value', 'score', ''].map((t) => h('th', {}, t)))),
              h('tbody', {}, list.map((a, i) =>
                h('tr', { class: a.exact === true || (a.value !== null && a.value === puzzle.target) ? 'exact' : a.score === 0 ? 'miss' : '' },
                  h('td', {}, String(i + 1)),
                  h('td', {}, a.seat === null || a.seat === undefined ? 'solver' : `P${a.seat}`),
                  h('td', { class: 'mono' }, a.answer === null ? '—' : typeof a.answer === 'string' ? a.answer : short(a.answer, 60)),
                  h('td', { class: 'num' }, a.value === null ? '' : num(a.value, 4)),
                  h('td', { class: 'num score' }, a.score === null ? '' : num(a.score, 3)),
                  h('td', { class: 'muted' }, a.reason ? String(a.reason) : '')))))
          : h('p', { class: 'muted' }, 'no attempt yet'),
        ended ? h('p', { class: 'outcome' }, `Outcome: ${ended.outcome || ended.code} · returns ${ended.returns.map((r) => num(r, 3)).join(', ')}`) : null,
      ),
    );
  },
};
