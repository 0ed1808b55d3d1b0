// @ts-check
/**
 * code-repair-v1: the task, the current program (syntax-highlighted, with the diff from the
 * previous revision), every test with its input, expected value, actual output and mark, the
 * hidden-test count, the auditor's tests with their verdicts and scores, CURE's verdict matrix,
 * predictions and returns. Everything comes from the observation the server sends for this view
 * (hidden tests are never in it).
 */
import { addStylesheet, h, patch, short } from '../../../web/js/dom.js';
import { num } from '../../../web/js/format.js';
import { fillCode } from '../../../web/js/highlight.js';
import { genericRenderer } from '../../../web/js/renderers/generic.js';

addStylesheet(new URL('./renderer.css', import.meta.url).href);

/** @typedef {import('../types').CodeRepairObservation} CodeRepairObservation */
/** @typedef {import('../types').AuditTest} AuditTest */
/** @typedef {import('../types').CandidateRun} CandidateRun */
/** @typedef {import('../types').CureVerdict} CureVerdict */
/** @typedef {import('../types').PublicTask} PublicTask */
/** @typedef {{ code: string, actual?: unknown, message?: string }} Outcome */
/**
 * @param {unknown} obs
 * @returns {obs is CodeRepairObservation}
 */
function isCodeRepair(obs) {
  return !!obs && typeof obs === 'object' && 'task' in obs && 'revisions' in obs;
}

/**
 * A code block; highlighted when highlight.js has loaded (its output escapes the source).
 * @param {string} source
 * @param {string} language
 * @param {string} [id]
 */
function codeBlock(source, language, id) {
  const code = h('code', { class: `language-${language}` });
  fillCode(code, source, language);
  return h('pre', { class: 'code', id }, code);
}

/**
 * Line diff between two revisions (jsdiff, loaded as window.Diff), as +/- lines.
 * @param {string | undefined} before
 * @param {string} after
 */
function diffBlock(before, after) {
  if (!window.Diff || before === undefined) return null;
  const parts = window.Diff.diffLines(before, after);
  if (parts.every((p) => !p.added && !p.removed)) return h('p', { class: 'muted', id: 'cr-diff' }, 'unchanged from the previous revision');
  return h('pre', { class: 'diff', id: 'cr-diff' }, parts.flatMap((p) =>
    p.value.replace(/\n$/, '').split('\n').map((line) => h('div', { class: p.added ? 'add' : p.removed ? 'del' : 'same' }, `${p.added ? '+' : p.removed ? '-' : ' '} ${line}`)),
  ));
}

/** ✓ passed, ✗ the program failed (any of its codes), ⚠ the sandbox failed (not the program's fault). */
const mark = (/** @type {string} */ code) =>
  code === 'sandbox-error'
    ? h('span', { class: 'warn', title: "sandbox-error: the sandbox failed (not the program's fault)" }, '⚠')
    : h('span', { class: code === 'ok' ? 'pass' : 'fail', title: code }, code === 'ok' ? '✓' : '✗');

/** @param {Outcome | undefined} o */
function outcomeCell(o) {
  if (!o) return h('td', { class: 'muted' }, 'not run');
  return h('td', {}, mark(o.code), ' ', o.code === 'ok' ? '' : o.code, o.actual !== undefined ? ` got ${short(o.actual, 60)}` : '', o.message ? ` — ${o.message}` : '');
}

/**
 * @param {PublicTask} task
 * @param {CandidateRun | null} run
 */
function publicTable(task, run) {
  return h('table', { class: 'tests', id: 'cr-public' },
    h('thead', {}, h('tr', {}, ['', 'input', 'expected', 'result'].map((t) => h('th', {}, t)))),
    h('tbody', {}, task.publicTests.map((t, i) => {
      /** @type {Outcome | undefined} */
      const o = run?.public?.tests?.[i];
      return h('tr', {}, h('td', {}, o ? mark(o.code) : ''), h('td', {}, short(t.input, 80)), h('td', {}, 'expected' in t ? short(t.expected, 60) : `property ${t.property}`), outcomeCell(o));
    })),
  );
}

/** @param {AuditTest[]} tests */
function auditTable(tests) {
  if (!tests.length) return null;
  return h('table', { class: 'tests', id: 'cr-audit' },
    h('thead', {}, h('tr', {}, ['round', 'input', 'expected', 'verdict', 'score'].map((t) => h('th', {}, t)))),
    h('tbody', {}, tests.map((t) =>
      h('tr', { class: t.valid === false ? 'invalid' : '' },
        h('td', {}, String(t.round)),
        h('td', {}, short(t.input, 80)),
        h('td', {}, t.reference !== undefined ? short(t.reference, 60) : t.expected !== undefined ? short(t.expected, 60) : '(the reference\'s)'),
        t.valid === false ? h('td', {}, mark('invalid'), ` invalid: ${t.reason}`) : outcomeCell(t.outcome),
        h('td', { class: 'num' }, t.score === undefined ? '' : num(t.score, 2)),
      ))),
  );
}

/**
 * @param {CureVerdict} cure
 * @param {string[]} programs
 */
function cureMatrix(cure, programs) {
  return h('div', { id: 'cr-cure' },
    h('h3', {}, 'CURE verdict: program × test'),
    h('table', { class: 'tests' },
      h('thead', {}, h('tr', {}, h('th', {}, 'program'), h('th', {}, 'pass rate'), cure.tests.map((t, j) => h('th', { title: short(t.input, 80) }, `test ${j}${t.valid ? '' : ' (invalid)'}`)), h('th', {}, 'reward'))),
      h('tbody', {}, cure.passes.map((row, i) =>
        h('tr', {}, h('td', {}, `P${i}${cure.correct[i] ? ' ✓' : ''}`), h('td', { class: 'num' }, num(cure.passRates[i], 2)), row.map((p) => h('td', {}, mark(p ? 'ok' : 'fail'))), h('td', { class: 'num' }, num(cure.coderRewards[i], 2))))),
      h('tfoot', {}, h('tr', {}, h('td', {}, 'test reward'), h('td', {}, ''), cure.testerRewards.map((r) => h('td', { class: 'num' }, num(r, 2))), h('td', {}, ''))),
    ),
    programs.map((p, i) => h('details', {}, h('summary', {}, `program P${i}`), codeBlock(p, 'javascript'))),
  );
}

/** @type {import('../../../web/js/renderers/context.js').Renderer} */
export const renderer = {
  name: 'code-repair',
  render(el, ctx) {
    const o = ctx.obs;
    if (!isCodeRepair(o)) return genericRenderer.render(el, ctx);
    const language = o.task.language === 'js' ? 'javascript' : 'python';
    const agents = ctx.agents;
    const revs = o.revisions ?? [];
    const run = o.lastRun;
    patch(
      el,
      h('div', { class: 'code-repair' },
        h('p', { class: 'muted', id: 'cr-head' }, `${o.task.id} · ${o.mode} · ${o.reward} · phase ${o.phase} · round ${o.round}/${o.rounds} · ${agents.map((a, i) => `P${i} ${a}`).join(' · ')}`),
        h('details', { open: revs.length === 0 }, h('summary', {}, 'Spec'), h('pre', { class: 'spec' }, o.task.spec), h('p', {}, h('code', {}, o.task.signature))),
        o.candidate !== null ? h('div', {}, h('h3', {}, `Program (revision ${revs.length - 1})`), codeBlock(o.candidate, language, 'cr-program'), revs.length > 1 ? diffBlock(revs[revs.length - 2], o.candidate) : null) : null,
        h('h3', {}, 'Public tests'),
        publicTable(o.task, run),
        run ? h('p', { id: 'cr-hidden' }, mark(run.hidden.passed === run.hidden.total ? 'ok' : 'fail'), ` hidden tests: ${run.hidden.passed} of ${run.hidden.total} pass (${run.hidden.code})`) : h('p', { class: 'muted' }, `${o.task.hiddenTests} hidden tests`),
        o.audit.length ? h('h3', {}, o.reward === 'cure' ? 'Tests' : "Auditor's tests") : null,
        o.reward === 'cure' ? null : auditTable(o.audit),
        o.cure ? cureMatrix(o.cure, revs) : null,
        o.predictions.length ? h('p', { id: 'cr-predictions' }, `predictions: ${o.predictions.map((p) => `rev ${p.revision}: ${num(p.p, 2)}${p.passed === undefined ? '' : p.passed ? ' (passed)' : ' (failed)'}`).join(', ')}`) : null,
        o.returns ? h('p', { class: 'outcome', id: 'cr-returns' }, `${o.outcome}: returns ${o.returns.map((r) => num(r, 3)).join(' / ')}`) : null,
      ),
    );
  },
};
