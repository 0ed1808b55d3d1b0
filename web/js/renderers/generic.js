/** The renderer for any env: players, the latest observation (or a fold of env events) as JSON. */
import { h, mount, num } from '../dom.js';
import { agentsFromEvents, returnsFromEvents, rolesFromEvents } from './describe.js';

export const genericRenderer = {
  name: 'generic',
  render(el, ctx) {
    const agents = agentsFromEvents(ctx.events, ctx.match);
    const roles = rolesFromEvents(ctx.events);
    const returns = returnsFromEvents(ctx.events);
    const turn = [...ctx.events].reverse().find((e) => e.type === 'turn');
    const ended = ctx.events.find((e) => e.type === 'match.ended');
    const lastByName = {};
    for (const e of ctx.events) if (e.type === 'env') lastByName[e.name] = e.data;
    const state = ctx.obs ?? { step: turn ? turn.step : 0, toAct: turn ? turn.toAct : [], lastEnvEvents: lastByName };
    mount(
      el,
      h('div', { class: 'generic' },
        h('table', { class: 'players' },
          h('thead', {}, h('tr', {}, ['seat', 'agent', 'role', 'to act', 'return'].map((t) => h('th', {}, t)))),
          h('tbody', {}, agents.map((a, i) =>
            h('tr', { class: turn && turn.toAct.includes(i) && !ended ? 'acting' : '' },
              h('td', {}, `P${i}`), h('td', {}, a), h('td', {}, roles ? roles[i] : '—'),
              h('td', {}, turn && turn.toAct.includes(i) && !ended ? '●' : ''),
              h('td', { class: 'num' }, returns ? num(returns[i], 3) : '')))),
        ),
        ended ? h('p', { class: 'outcome' }, `Outcome: ${ended.outcome || ended.code}`) : null,
        h('h3', {}, ctx.obs ? `Observation (${ctx.view}) after step ${ctx.step}` : 'State (from events)'),
        h('pre', { class: 'json state-json' }, JSON.stringify(state, null, 2)),
      ),
    );
  },
};
