/**
 * Deal-or-No-Deal: the item pool, each seat's values where this view may see them (own values
 * in a seat view, both in the omniscient view, none in the public view), the offers (or the
 * dialogue) over time, and the final split.
 */
import { h, mount, num } from '../dom.js';
import { agentsFromEvents, returnsFromEvents } from './describe.js';

const ITEMS = ['book', 'hat', 'ball'];
const ICONS = ['books', 'hats', 'balls'];

function items(counts) {
  if (!Array.isArray(counts)) return '?';
  return counts.map((c, i) => `${c} ${ICONS[i]}`).join(', ');
}
const worth = (keep, values) => (Array.isArray(keep) && Array.isArray(values) ? keep.reduce((t, c, i) => t + c * values[i], 0) : null);

export const dealRenderer = {
  name: 'deal-or-no-deal',
  render(el, ctx) {
    const obs = ctx.obs && typeof ctx.obs === 'object' ? ctx.obs : null;
    const agents = agentsFromEvents(ctx.events, ctx.match);
    const pool = obs?.pool ?? null;
    const values = [null, null];
    if (obs?.allValues) obs.allValues.forEach((v, i) => (values[i] = v));
    else if (obs && obs.seat !== null && obs.seat !== undefined && obs.values) values[obs.seat] = obs.values;
    const rows = [];
    let outcome = null;
    for (const e of ctx.events) {
      if (e.type === 'message') rows.push({ kind: 'message', seat: e.seat, text: e.text, seq: e.seq });
      if (e.type !== 'env') continue;
      const d = e.data;
      if (e.name === 'offer') rows.push({ kind: 'offer', seat: d.seat, keep: d.keep, seq: e.seq });
      else if (e.name === 'agree') rows.push({ kind: 'agree', seat: d.seat, seq: e.seq });
      else if (e.name === 'selection') rows.push({ kind: 'note', text: d.seat === null || d.seat === undefined ? `talk ran out (${d.reason}); selection` : `P${d.seat} moves to the selection`, seq: e.seq });
      else if (e.name === 'chosen') rows.push({ kind: 'note', text: `P${d.seat} made a private selection`, seq: e.seq });
      else if (e.name === 'end') outcome = d;
    }
    const returns = returnsFromEvents(ctx.events);
    const rest = (keep) => (pool && Array.isArray(keep) ? pool.map((c, i) => c - keep[i]) : null);
    const offerRow = (r, k) => {
      const other = 1 - r.seat;
      const give = rest(r.keep);
      const vMine = worth(r.keep, values[r.seat]);
      const vOther = worth(give, values[other]);
      return h('tr', { class: 'offer' },
        h('td', {}, String(k + 1)),
        h('td', {}, `P${r.seat}`),
        h('td', {}, items(r.keep)),
        h('td', {}, give ? items(give) : '?'),
        h('td', { class: 'num' }, vMine === null ? '' : `${vMine}`),
        h('td', { class: 'num' }, vOther === null ? '' : `${vOther}`));
    };
    let k = 0;
    mount(
      el,
      h('div', { class: 'dond' },
        h('div', { class: 'pool', id: 'dond-pool' }, h('span', { class: 'muted' }, 'pool '), pool ? items(pool) : 'not visible in this view'),
        h('table', { class: 'values', id: 'dond-values' },
          h('thead', {}, h('tr', {}, h('th', {}, 'seat'), h('th', {}, 'agent'), ITEMS.map((t) => h('th', { class: 'num' }, `${t} value`)), h('th', {}, 'return'))),
          h('tbody', {}, [0, 1].map((s) => h('tr', {}, h('td', {}, `P${s}`), h('td', {}, agents[s] ?? ''),
            ITEMS.map((_, i) => h('td', { class: 'num' }, values[s] ? String(values[s][i]) : 'hidden')),
            h('td', { class: 'num' }, returns ? num(returns[s], 3) : ''))))),
        h('h3', {}, 'Offers and talk'),
        rows.length
          ? h('table', { class: 'offers', id: 'dond-offers' },
              h('thead', {}, h('tr', {}, ['#', 'by', 'keeps', 'gives', 'its value', "other's value"].map((t) => h('th', {}, t)))),
              h('tbody', {}, rows.map((r) =>
                r.kind === 'offer' ? offerRow(r, k++)
                  : r.kind === 'agree' ? h('tr', { class: 'agree' }, h('td', { colspan: 6 }, `✔ P${r.seat} agrees`))
                  : r.kind === 'message' ? h('tr', { class: 'message' }, h('td', { colspan: 6 }, h('strong', {}, `P${r.seat}: `), r.text))
                  : h('tr', { class: 'note' }, h('td', { colspan: 6 }, r.text)))))
          : h('p', { class: 'muted' }, 'no offer yet'),
        outcome ? h('p', { class: 'outcome', id: 'dond-outcome' }, `Outcome: ${outcome.outcome}${outcome.keep ? ` — last proposer keeps ${items(outcome.keep)}` : ''}`) : null,
      ),
    );
  },
};
