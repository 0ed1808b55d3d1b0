// @ts-check
/**
 * Deal-or-No-Deal, drawn from the view's observation: the item pool, each seat's values where
 * this view may see them (its own in a seat view, both in the omniscient view, none in the
 * public view), the offers with what each is worth (openspiel protocol: the offer events carry
 * what the proposer keeps) or the dialogue, and the outcome.
 */
import { addStylesheet, h, patch } from '../../../web/js/dom.js';
import { num } from '../../../web/js/format.js';
import { genericRenderer } from '../../../web/js/renderers/generic.js';

addStylesheet(new URL('./renderer.css', import.meta.url).href);

/** @typedef {import('../observe').DondObservation} DondObservation */

const ITEMS = ['book', 'hat', 'ball'];

/**
 * @param {unknown} obs
 * @returns {obs is DondObservation}
 */
function isDond(obs) {
  return !!obs && typeof obs === 'object' && 'pool' in obs && 'protocol' in obs;
}

/** "1 book, 2 hats, 0 balls" @param {readonly number[] | null} counts */
function items(counts) {
  if (!counts) return '?';
  return counts.map((c, i) => `${c} ${ITEMS[i]}${c === 1 ? '' : 's'}`).join(', ');
}

/** @param {unknown} x @returns {number[] | null} */
const vector = (x) => (Array.isArray(x) && x.every((v) => typeof v === 'number') ? x : null);

/**
 * @param {readonly number[] | null} keep
 * @param {readonly number[] | null} values
 */
const worth = (keep, values) => (keep && values ? keep.reduce((t, c, i) => t + c * (values[i] ?? 0), 0) : null);

/** @type {import('../../../web/js/renderers/context.js').Renderer} */
export const renderer = {
  name: 'deal-or-no-deal',
  render(el, ctx) {
    const o = ctx.obs;
    if (!isDond(o)) return genericRenderer.render(el, ctx);
    /** @type {(number[] | null)[]} */
    const values = [null, null];
    if (o.allValues) o.allValues.forEach((v, i) => (values[i] = v));
    else if (o.seat !== null && o.values) values[o.seat] = o.values;
    /** @param {number[] | null} keep */
    const rest = (keep) => (keep ? o.pool.map((c, i) => c - (keep[i] ?? 0)) : null);
    /** @type {import('../../../web/js/dom.js').Child[]} */
    let rows = [];
    if (o.protocol === 'openspiel') {
      const agreed = ctx.named('agree');
      rows = ctx.named('offer').map((e, k) => {
        const seat = typeof e.data.seat === 'number' ? e.data.seat : k % 2;
        const keep = vector(e.data.keep);
        const mine = worth(keep, values[seat] ?? null);
        const theirs = worth(rest(keep), values[1 - seat] ?? null);
        return h('tr', { class: 'offer', key: `o${k}` },
          h('td', {}, String(k + 1)), h('td', {}, `P${seat}`), h('td', {}, items(keep)), h('td', {}, items(rest(keep))),
          h('td', { class: 'num' }, mine === null ? '' : String(mine)), h('td', { class: 'num' }, theirs === null ? '' : String(theirs)));
      });
      for (const e of agreed) rows.push(h('tr', { class: 'agree', key: `a${e.seq}` }, h('td', { colspan: 6 }, e.caption ?? `P${String(e.data.seat)} agrees`)));
    } else {
      rows = o.messages.map((m, k) => h('tr', { class: 'message', key: `m${k}` }, h('td', { colspan: 6 }, h('strong', {}, `P${m.seat}: `), m.text)));
      if (o.accepted) rows.push(h('tr', { class: 'agree', key: 'accepted' }, h('td', { colspan: 6 }, `✔ agreed in talk: P${o.accepted.seat} keeps ${items(o.accepted.keep)}`)));
      o.chosen.forEach((c, s) => c && rows.push(h('tr', { class: 'note', key: `c${s}` }, h('td', { colspan: 6 }, `P${s} made a private selection`))));
    }
    const end = ctx.named('end')[0];
    const endKeep = end ? vector(end.data.keep) : null;
    patch(el,
      h('div', { class: 'dond' },
        h('div', { class: 'pool', id: 'dond-pool' }, h('span', { class: 'muted' }, 'pool '), items(o.pool)),
        h('table', { class: 'values', id: 'dond-values' },
          h('thead', {}, h('tr', {}, h('th', {}, 'seat'), h('th', {}, 'agent'), ITEMS.map((t) => h('th', { class: 'num' }, `${t} value`)), h('th', {}, 'return'))),
          h('tbody', {}, [0, 1].map((s) => h('tr', {}, h('td', {}, `P${s}`), h('td', {}, ctx.agents[s] ?? ''),
            ITEMS.map((_, i) => h('td', { class: 'num' }, values[s] ? String(values[s]?.[i]) : 'hidden')),
            h('td', { class: 'num' }, ctx.returns ? num(ctx.returns[s], 3) : ''))))),
        h('h3', {}, o.protocol === 'openspiel' ? `Offers (${o.turn} of at most ${o.maxTurns})` : `Talk (${o.turn} of at most ${o.maxTurns} messages)`),
        rows.length
          ? h('table', { class: 'offers', id: 'dond-offers' },
              h('thead', {}, h('tr', {}, ['#', 'by', 'keeps', 'gives', 'its value', "other's value"].map((t) => h('th', {}, t)))),
              h('tbody', {}, rows))
          : h('p', { class: 'muted' }, 'no offer yet'),
        o.outcome ? h('p', { class: 'outcome', id: 'dond-outcome' }, `Outcome: ${o.outcome}${endKeep ? ` — the last proposer keeps ${items(endKeep)}` : ''}`) : null,
      ));
  },
};
