/**
 * Kernel speedup: the task and shape, each revision's kernel source (highlighted), the evaluator's
 * forecast, correctness per trial, the speedup with its 95% interval on a log axis against 1×,
 * the reward; the attacker's input and its verdict. Built from the env's public events (so live,
 * replayed and every view agree), with the task details from the observation when there is one.
 */
import { h, mount, num, short } from '../dom.js';
import { highlightWithin } from '../highlight.js';
import { agentsFromEvents, rolesFromEvents } from './describe.js';
import { genericRenderer } from './generic.js';

const OUTCOMES = ['incorrect', 'not-faster', '1x', '1.2x', '1.5x', '2x', '3x'];
const isObj = (x) => x && typeof x === 'object' && !Array.isArray(x);

/** Revisions and the attack, folded from env events. */
function fold(events) {
  const revisions = [];
  let attack = null;
  let stopped = false;
  for (const e of events) {
    if (e.type !== 'env') continue;
    const d = e.data ?? {};
    const rev = (k) => (revisions[k] ??= {});
    if (e.name === 'submitted') rev(d.revision).candidate = d.candidate;
    else if (e.name === 'predicted') rev(d.revision).prediction = d.prediction;
    else if (e.name === 'measured') Object.assign(rev(d.revision), { measurement: d.measurement, reward: d.reward, outcome: d.outcome, predictionScore: d.predictionScore });
    else if (e.name === 'stopped') stopped = true;
    else if (e.name === 'attack') attack = { input: d.input, valid: d.valid, reason: d.reason };
    else if (e.name === 'attack-result') attack = { ...(attack ?? {}), result: d.result, score: d.score };
  }
  return { revisions: revisions.filter(Boolean), attack, stopped };
}

const shapeText = (dims) => (isObj(dims) ? Object.entries(dims).map(([k, v]) => `${k}=${v}`).join(' ') : '');

function sourceBlock(candidate) {
  const lang = candidate.kind === 'assemblyscript' ? 'typescript' : 'javascript';
  return h('pre', { class: 'ks-source' }, h('code', { 'data-lang': lang }, candidate.source ?? ''));
}

function candidateTitle(c, k) {
  if (c.kind === 'schedule') return `Revision ${k + 1}: schedule #${c.index} ${Object.entries(c.schedule ?? {}).map(([n, v]) => `${n}=${v}`).join(' ')}`;
  return `Revision ${k + 1}: ${c.kind === 'js' ? 'JavaScript' : 'AssemblyScript'}`;
}

/** The speedup interval on a log axis from 1/4× to 16×, with 1× marked. */
function intervalBar(t) {
  const lo2 = -2;
  const hi2 = 4;
  const x = (v) => `${Math.max(0, Math.min(100, ((Math.log2(v) - lo2) / (hi2 - lo2)) * 100))}%`;
  const left = x(t.lo);
  const width = `calc(${x(t.hi)} - ${left})`;
  return h('div', { class: 'ks-axis', title: `95% interval ${num(t.lo, 3)}–${num(t.hi, 3)}×` },
    h('span', { class: 'ks-one', style: { left: x(1) } }),
    h('span', { class: t.lo > 1 ? 'ks-ci faster' : t.hi < 1 ? 'ks-ci slower' : 'ks-ci', style: { left, width } }),
    h('span', { class: 'ks-median', style: { left: x(t.speedup) } }));
}

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

function predictionBlock(r) {
  if (!Array.isArray(r.prediction)) return null;
  return h('div', { class: 'ks-prediction' },
    h('span', { class: 'muted' }, 'evaluator: '),
    r.prediction.map((p, i) => h('span', { class: r.outcome === i ? 'ks-p truth' : 'ks-p', title: OUTCOMES[i] }, `${OUTCOMES[i]} ${Math.round(p * 100)}%`)),
    r.predictionScore !== undefined ? h('span', { class: 'muted' }, ` · score ${num(r.predictionScore, 3)}`) : null);
}

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

export const kernelSpeedupRenderer = {
  name: 'kernel-speedup',
  render(el, ctx) {
    const { revisions, attack, stopped } = fold(ctx.events);
    const o = isObj(ctx.obs) && ctx.obs.task ? ctx.obs : null;
    if (!o && !revisions.length) return genericRenderer.render(el, ctx);
    const agents = agentsFromEvents(ctx.events, ctx.match);
    const roles = rolesFromEvents(ctx.events);
    const ended = ctx.events.find((e) => e.type === 'match.ended');
    mount(
      el,
      h('div', { class: 'kernel-speedup' },
        h('div', { class: 'ks-task', id: 'ks-task' },
          o ? h('strong', {}, `${o.task.title}`) : h('strong', {}, 'kernel'),
          o ? h('span', { class: 'mono' }, ` · ${shapeText(o.shape)}`) : null,
          o?.task.expertSpeedup ? h('span', { class: 'muted' }, ` · expert ${num(o.task.expertSpeedup, 2)}×`) : null),
        h('p', { class: 'muted' }, agents.map((a, i) => `P${i} ${a}${roles ? ` (${roles[i]})` : ''}`).join(' · ')),
        h('div', { id: 'ks-revisions' },
          revisions.map((r, k) =>
            h('div', { class: 'panel ks-revision' },
              h('h3', {}, r.candidate ? candidateTitle(r.candidate, k) : `Revision ${k + 1}`),
              r.candidate ? sourceBlock(r.candidate) : null,
              predictionBlock(r),
              measurementBlock(r)))),
        stopped ? h('p', { class: 'muted' }, 'the defender kept its last revision') : null,
        attackBlock(attack),
        ended ? h('p', { class: 'outcome' }, `Outcome: ${ended.outcome || ended.code} · returns ${ended.returns.map((x) => num(x, 3)).join(', ')}`) : null,
        o && !revisions.length ? h('p', { class: 'muted' }, short(o.task.description, 300)) : null,
      ),
    );
    highlightWithin(el);
  },
};
