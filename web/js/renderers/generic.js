// @ts-check
/**
 * The renderer for any env: who plays, who is to act, the returns, and the view's observation in
 * the env's own words (its `render`, e.g. the hole cards in Kuhn poker's omniscient view) with the
 * JSON below it, or as JSON when the env has no words.
 */
import { h, patch } from '../dom.js';
import { num } from '../format.js';

/** @typedef {import('./context.js').RenderContext} RenderContext */

/**
 * The players table every renderer may show: seat, agent, role where known, whose turn, return.
 * @param {RenderContext} ctx
 */
export function playersTable(ctx) {
  return h('table', { class: 'players' },
    h('thead', {}, h('tr', {}, ['seat', 'agent', 'role', 'to act', 'return'].map((t) => h('th', {}, t)))),
    h('tbody', {}, ctx.agents.map((a, i) =>
      h('tr', { class: ctx.toAct.includes(i) ? 'acting' : '' },
        h('td', {}, `P${i}`), h('td', {}, a || '?'), h('td', {}, ctx.roles ? ctx.roles[i] : '—'),
        h('td', {}, ctx.toAct.includes(i) ? '●' : ''),
        h('td', { class: 'num' }, ctx.returns ? num(ctx.returns[i], 3) : '')))));
}

/** @type {import('./context.js').Renderer} */
export const genericRenderer = {
  name: 'generic',
  render(el, ctx) {
    patch(el,
      h('div', { class: 'generic' },
        playersTable(ctx),
        ctx.ended ? h('p', { class: 'outcome' }, `Outcome: ${ctx.ended.outcome || ctx.ended.code}`) : null,
        h('h3', {}, ctx.obs === null ? 'Observation' : `Observation (${ctx.view}) after step ${ctx.step}`),
        ctx.obs === null
          ? h('p', { class: 'muted', id: 'no-obs' }, 'This server does not know the env, so it sends events only (see the list of events).')
          : ctx.text !== null
            ? h('pre', { class: 'env-text', id: 'obs-text' }, ctx.text)
            : h('pre', { class: 'json state-json' }, JSON.stringify(ctx.obs, null, 2)),
        ctx.obs !== null && ctx.text !== null
          ? h('details', { class: 'obs-json' }, h('summary', {}, 'as JSON'), h('pre', { class: 'json state-json' }, JSON.stringify(ctx.obs, null, 2)))
          : null,
      ));
  },
};
