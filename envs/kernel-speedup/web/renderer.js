// @ts-check
/**
 * kernel-speedup-v1: the task and shape, each revision's kernel source (highlighted), the
 * evaluator's forecast, correctness per trial, the speedup with its 95% interval on a log axis
 * against 1×, the reward; the attacker's input and its verdict. Drawn from the observation the
 * server sends for this view (every view sees the revisions and the attack); the outcome class of
 * each measurement comes from the env's `measured` events.
 */
import { addStylesheet, h, patch, short } from '../../../web/js/dom.js';
import { num, pct } from '../../../web/js/format.js';
import { fillCode } from '../../../web/js/highlight.js';
import { genericRenderer } from '../../../web/js/renderers/generic.js';

addStylesheet(new URL('./renderer.css', import.meta.url).href);

/** @typedef {import('../types').KernelObservation} KernelObservation */
/** @typedef {import('../types').RevisionView} RevisionView */
/** @typedef {import('../types').CandidateView} CandidateView */
/** @typedef {import('../types').AttackRecord} AttackRecord */
/** @typedef {import('../measure/types').Measurement} Measurement */
/** @typedef {import('../measure/types').TimingSummary} TimingSummary */

/** The evaluator's outcome classes, in prediction order (envs/kernel-speedup/rewards.ts OUTCOMES). */
const OUTCOMES = ['incorrect', 'not-faster', '1x', '1.2x', '1.5x', '2x', '3x'];

/**
 * @param {unknown} obs
 * @returns {obs is KernelObservation}
 */
function isKernel(obs) {
  return !!obs && typeof obs === 'object' && 'task' in obs && 'revisions' in obs && 'shape' in obs;
}

/** @param {unknown} dims */
const shapeText = (dims) => (dims && typeof dims === 'object' ? Object.entries(dims).map(([k, v]) => `${k}=${v}`).join(' ') : '');

/** @param {CandidateView} candidate */
function sourceBlock(candidate) {
  const lang = candidate.kind === 'assemblyscript' ? 'typescript' : 'javascript';
  const code = h('code', { 'data-lang': lang });
  fillCode(code, candidate.source ?? '', lang);
  return h('pre', { class: 'ks-source' }, code);
}

/** @param {CandidateView} c @param {number} k */
function candidateTitle(c, k) {
  if (c.kind === 'schedule') return `Revision ${k + 1}: schedule #${c.index} ${Object.entries(c.schedule ?? {}).map(([n, v]) => `${n}=${v}`).join(' ')}`;
  return `Revision ${k + 1}: ${c.kind === 'js' ? 'JavaScript' : 'AssemblyScript'}`;
}

/**
 * The speedup interval on a log axis from 1/4× to 16×, with 1× marked.
 * @param {TimingSummary} t
 */
function intervalBar(t) {
  const lo2 = -2;
  const hi2 = 4;
  const x = (/** @type {number} */ v) => `${Math.max(0, Math.min(100, ((Math.log2(v) - lo2) / (hi2 - lo2)) * 100))}%`;
  const left = x(t.lo);
  const width = `calc(${x(t.hi)} - ${left})`;
  return h('div', { class: 'ks-axis', title: `95% interval ${num(t.lo, 3)}–${num(t.hi, 3)}×` },
    h('span', { class: 'ks-one', style: { left: x(1) } }),
    h('span', { class: t.lo > 1 ? 'ks-ci faster' : t.hi < 1 ? 'ks-ci slower' : 'ks-ci', style: { left, width } }),
    h('span', { class: 'ks-median', style: { left: x(t.speedup) } }));
}

/** @param {Measurement} m */
function trialsTable(m) {
  if (!m.trials?.length) return h('p', { class: 'muted' }, m.flags?.includes('table') ? 'looked up in the recorded table (no trials run)' : 'no trial ran');
  return h('table', { class: 'ks-trials' },
    h('thead', {}, h('tr', {}, ['trial', 'shape', 'result', 'mismatches', 'max |error|', ''].map((c) => h('th', {}, c)))),
    h('tbody', {}, m.trials.map((t, i) =>
      h('tr', { class: t.code === 'ok' ? 'ok' : 'bad' },
        h('td', {}, `${i + 1} ${t.kind}`),
        h('td', { class: 'mono' }, shapeText(t.dims)),
        h('td', {}, t.code === 'ok' ? '✓' : `✗ ${t.code}`),
        h('td', { class: 'num' }, t.total ? `${t.mismatches}/${t.total}` : ''),
        h('td', { class: 'num' }, t.total ? num(t.maxAbsError, 6) : ''),
        h('td', { class: 'muted' }, t.first ? `${t.first.output}[${t.first.index}] = ${t.first.actual}, expected ${t.first.expected}` : (t.message ?? ''))))));
}

/** @param {RevisionView} r */
function measurementBlock(r) {
  const m = r.measurement;
  if (!m) return h('p', { class: 'muted' }, 'being measured…');
  const t = m.timing;
  return h('div', { class: 'ks-measurement' },
    h('p', {},
      h('span', { class: m.correct ? 'badge ok' : 'badge bad' }, m.correct ? 'correct' : m.code),
      m.message ? h('span', { class: 'muted' }, ` ${m.message}`) : null,
      ` · checked calls ${m.checkedCalls}`,
      r.reward !== undefined ? ` · reward ${num(r.reward, 3)}` : ''),
    t
      ? h('div', { class: 'ks-speedup' },
          h('strong', {}, `${num(t.speedup, 2)}×`),
          h('span', {}, ` [${num(t.lo, 2)}, ${num(t.hi, 2)}] 95%`),
          h('span', { class: 'muted' }, ` · ${num(t.referenceNs / 1e6, 3)} ms → ${num(t.candidateNs / 1e6, 3)} ms, ${t.trials} trials${m.flags?.length ? ` · ${m.flags.join('; ')}` : ''}`),
          intervalBar(t))
      : null,
    h('details', { open: !m.correct }, h('summary', {}, `correctness per trial (${m.trials?.length ?? 0})`), trialsTable(m)));
}

/** @param {RevisionView} r @param {number | undefined} outcome the measured outcome class */
function predictionBlock(r, outcome) {
  if (!Array.isArray(r.prediction)) return null;
  return h('div', { class: 'ks-prediction' },
    h('span', { class: 'muted' }, 'evaluator: '),
    r.prediction.map((p, i) => h('span', { class: outcome === i ? 'ks-p truth' : 'ks-p', title: OUTCOMES[i] }, `${OUTCOMES[i]} ${pct(p, 0)}`)),
    r.predictionScore !== undefined ? h('span', { class: 'muted' }, ` · score ${num(r.predictionScore, 3)}`) : null);
}

/** @param {AttackRecord | null} a */
function attackBlock(a) {
  if (!a) return null;
  const res = a.result;
  return h('div', { class: 'panel ks-attack', id: 'ks-attack' },
    h('h3', {}, 'Attack'),
    h('pre', { class: 'json' }, JSON.stringify(a.input, null, 1).slice(0, 4000)),
    h('p', {},
      a.valid ? 'inside the contract' : h('span', { class: 'badge bad' }, `outside the contract: ${a.reason}`),
      res ? ` · the kernel: ${res.code}${res.referenceFinite ? '' : ' (reference not finite)'}` : '',
      a.score !== undefined ? ` · score ${a.score}` : ''),
    res?.check?.first ? h('p', { class: 'muted' }, `${res.check.first.output}[${res.check.first.index}] = ${res.check.first.actual}, expected ${res.check.first.expected}`) : null);
}

/** @type {import('../../../web/js/renderers/context.js').Renderer} */
export const renderer = {
  name: 'kernel-speedup',
  render(el, ctx) {
    const o = ctx.obs;
    if (!isKernel(o)) return genericRenderer.render(el, ctx);
    /** @type {Map<number, number>} revision → outcome class, from the env's `measured` events */
    const outcomes = new Map();
    for (const e of ctx.named('measured')) {
      const { revision, outcome } = e.data;
      if (typeof revision === 'number' && typeof outcome === 'number') outcomes.set(revision, outcome);
    }
    const stopped = ctx.named('stopped').length > 0;
    const { agents, roles, ended } = ctx;
    patch(
      el,
      h('div', { class: 'kernel-speedup' },
        h('div', { class: 'ks-task', id: 'ks-task' },
          h('strong', {}, o.task.title),
          h('span', { class: 'mono' }, ` · ${shapeText(o.shape)}`),
          o.task.expertSpeedup ? h('span', { class: 'muted' }, ` · expert ${num(o.task.expertSpeedup, 2)}×`) : null),
        h('p', { class: 'muted' }, agents.map((a, i) => `P${i} ${a}${roles ? ` (${roles[i]})` : ''}`).join(' · ')),
        h('div', { id: 'ks-revisions' },
          o.revisions.map((r, k) =>
            h('div', { class: 'panel ks-revision', key: `rev-${k}` },
              h('h3', {}, candidateTitle(r.candidate, k)),
              sourceBlock(r.candidate),
              predictionBlock(r, outcomes.get(k)),
              measurementBlock(r)))),
        stopped ? h('p', { class: 'muted' }, 'the defender kept its last revision') : null,
        attackBlock(o.attack),
        ended ? h('p', { class: 'outcome' }, `Outcome: ${ended.outcome || ended.code} · returns ${ended.returns.map((x) => num(x, 3)).join(', ')}`) : null,
        o.revisions.length ? null : h('p', { class: 'muted' }, short(o.task.description, 300)),
      ),
    );
  },
};
