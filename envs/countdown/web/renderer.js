// @ts-check
/**
 * Countdown, drawn from the view's observation: the target, the numbers (for the tile bag of
 * the UK rules: large tiles marked apart from small ones, with a legend), the attempts with
 * their scores where this view may see them (omniscient, or everyone at the end), the exact
 * solver's verdict and the returns. The scoring rules are the env's words (`ctx.rules`), shown
 * with the tiles.
 */
import { addStylesheet, h, patch } from '../../../web/js/dom.js';
import { num } from '../../../web/js/format.js';
import { genericRenderer } from '../../../web/js/renderers/generic.js';

addStylesheet(new URL('./renderer.css', import.meta.url).href);

/** @typedef {import('../types').CountdownObservation} CountdownObservation */
/** @typedef {import('../../../web/js/renderers/context.js').RenderContext} RenderContext */

/**
 * @param {unknown} obs
 * @returns {obs is CountdownObservation}
 */
function isCountdown(obs) {
  return !!obs && typeof obs === 'object' && 'contract' in obs && 'attempts' in obs && 'phase' in obs;
}

/**
 * Whether a number is one of the bag's large tiles (the UK bag: small tiles 1-10, large 25, 50,
 * 75, 100); without a bag there are no large or small tiles.
 * @param {CountdownObservation} o
 * @param {number} n
 */
const isLarge = (o, n) => !!o.contract.tiles && n > 10;

/**
 * The attempts this view may see: every result (answer, value, score) when the observation has
 * them; else how many are done, with the solver's own answers in its seat view.
 * @param {CountdownObservation} o
 * @param {RenderContext} ctx
 */
function attempts(o, ctx) {
  if (o.results) return o.results.map((r) => ({ answer: r.answer, value: r.value, score: /** @type {number | null} */ (r.score), reason: r.reason, correct: r.correct }));
  /** @type {Map<number, string>} */
  const mine = new Map();
  for (const e of ctx.named('answer')) if (typeof e.data.attempt === 'number') mine.set(e.data.attempt, String(e.data.answer));
  return Array.from({ length: o.attemptsDone }, (_, k) => ({ answer: mine.get(k) ?? (o.answers?.[k] ?? null), value: null, score: null, reason: 'scored at the end', correct: null }));
}

/** @type {import('../../../web/js/renderers/context.js').Renderer} */
export const renderer = {
  name: 'countdown',
  render(el, ctx) {
    const o = ctx.obs;
    if (!isCountdown(o)) return genericRenderer.render(el, ctx);
    const list = attempts(o, ctx);
    const roles = ctx.roles;
    const tiles = o.numbers ?? o.draft ?? [];
    const v = o.verdict;
    patch(el,
      h('div', { class: 'countdown' },
        h('div', { class: 'cd-board' },
          h('div', { class: 'cd-target', id: 'cd-target' }, h('span', { class: 'muted' }, 'target'), h('strong', {}, o.target === null ? '?' : String(o.target))),
          h('div', { class: 'cd-numbers', id: 'cd-numbers' }, tiles.map((n, i) => h('span', { key: `n${i}`, class: isLarge(o, n) ? 'tile large' : 'tile', title: o.contract.tiles ? (isLarge(o, n) ? 'large tile' : 'small tile') : 'number' }, String(n)))),
          o.contract.tiles
            ? h('p', { class: 'cd-legend', id: 'cd-legend' }, h('span', { class: 'tile large mini' }, 'L'), ' large tile (25, 50, 75, 100) ', h('span', { class: 'tile mini' }, 's'), ' small tile (1 to 10)')
            : h('p', { class: 'cd-legend muted', id: 'cd-legend' }, 'plain numbers: these rules have no large or small tiles'),
        ),
        o.phase === 'propose' ? h('p', { class: 'muted' }, `The challenger is choosing the puzzle${o.draft?.length ? `: ${o.draft.join(' ')} so far` : ''}.`) : null,
        h('p', { class: 'muted' }, ctx.agents.map((a, i) => `P${i} ${a}${roles ? ` (${roles[i]})` : ''}`).join(' · ')),
        v ? h('p', { class: 'cd-verdict', id: 'cd-verdict' }, v.expression ? `exact solver: ${v.expression}${v.value !== null ? ` = ${v.value}` : ''}${v.distance ? ` (off by ${v.distance})` : ''}` : v.reachable === false ? 'exact solver: no solution' : '') : null,
        o.moves?.length ? h('p', { class: 'cd-moves mono' }, `attempt in progress: ${o.moves.join(', ')}`) : null,
        h('h3', {}, `Attempts (${o.attemptsDone} of ${o.attempts} done)`),
        list.length
          ? h('table', { class: 'cd-attempts', id: 'cd-attempts' },
              h('thead', {}, h('tr', {}, ['#', 'answer', 'value', 'score', ''].map((t) => h('th', {}, t)))),
              h('tbody', {}, list.map((a, i) =>
                h('tr', { class: a.correct === true ? 'exact' : a.score === 0 ? 'miss' : '' },
                  h('td', {}, String(i + 1)),
                  h('td', { class: 'mono' }, a.answer ?? '—'),
                  h('td', { class: 'num' }, a.value === null ? '' : num(a.value, 4)),
                  h('td', { class: 'num score' }, a.score === null ? '' : num(a.score, 3)),
                  h('td', { class: 'muted' }, a.reason ?? '')))))
          : h('p', { class: 'muted' }, 'no attempt yet'),
        ctx.ended ? h('p', { class: 'outcome' }, `Outcome: ${ctx.ended.outcome || ctx.ended.code} · returns ${ctx.ended.returns.map((r) => num(r, 3)).join(', ')}`) : null,
      ));
  },
};
