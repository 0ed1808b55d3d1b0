// @ts-check
/**
 * Training progress panels: mean return, rates (win rates, 0 to 1) and counts (games, episodes,
 * outcomes) each on its own chart with whole-number iteration ticks and metrics named in words.
 * With a single iteration there is no line to draw: the panel lists its values instead of an
 * empty grid.
 */
import { lineChart } from './charts.js';
import { h, patch } from './dom.js';
import { num, pct } from './format.js';
import { roleWords, seriesOf } from './training-metrics.js';

/** @typedef {import('./types.js').TrainingRecord} TrainingRecord */
/** @typedef {import('./training-metrics.js').MetricKind} MetricKind */

/** @type {{ kind: MetricKind, id: string, title: string, yLabel: string }[]} */
const PANELS = [
  { kind: 'return', id: 'return-chart', title: 'Training: mean return per iteration', yLabel: 'mean return' },
  { kind: 'rate', id: 'winrate-chart', title: 'Training: win rates per iteration', yLabel: 'rate' },
  { kind: 'count', id: 'count-chart', title: 'Training: games and episodes per iteration', yLabel: 'count' },
];

/**
 * The three panels; `update(records)` redraws them from the league's iteration records.
 * @returns {{ el: HTMLElement, update(records: readonly TrainingRecord[]): void, destroy(): void }}
 */
export function trainingPanels() {
  const parts = PANELS.map((p) => {
    const canvas = h('canvas', { id: p.id });
    const box = h('div', { class: 'chart-box' }, canvas);
    const values = h('div', { class: 'single-iteration', id: `${p.id}-values`, hidden: true });
    const section = h('section', { class: 'panel chart', dataset: { kind: p.kind } }, h('h3', {}, p.title), box, values);
    const chart = lineChart(canvas, {
      xLabel: 'training iteration',
      yLabel: p.yLabel,
      integerX: true,
      integerY: p.kind === 'count',
      ...(p.kind === 'rate' ? { yMin: 0, yMax: 1, yFormat: (/** @type {number} */ y) => pct(y, 0) } : {}),
    });
    return { p, box, values, section, chart };
  });
  const note = h('p', { class: 'muted', id: 'training-note' });
  const el = h('div', { class: 'training' }, h('div', { class: 'charts' }, parts.map((x) => x.section)), note);
  return {
    el,
    update(records) {
      const iterations = new Set(records.map((r) => `${r.role}\u0000${r.iteration}`)).size;
      const learners = [...new Set(records.map((r) => r.role))];
      note.textContent = records.length
        ? `${iterations} training iteration${iterations === 1 ? '' : 's'} recorded${learners.length ? ` (${learners.map(roleWords).join(', ')})` : ''}.`
        : 'No training iteration yet: learners train every few league matches.';
      for (const x of parts) {
        const series = seriesOf(records, x.p.kind);
        const lines = series.some((s) => s.points.length > 1);
        x.box.hidden = !lines;
        x.values.hidden = lines;
        x.chart.update(lines ? series : []);
        if (!lines) {
          patch(x.values, series.length
            ? [h('p', { class: 'muted' }, `After iteration ${series[0].points[0].x} (a line appears from the second):`),
                h('table', { class: 'metric-values' }, h('tbody', {}, series.map((s) => h('tr', {}, h('td', {}, s.label), h('td', { class: 'num' }, x.p.kind === 'rate' ? pct(s.points[0].y, 0) : num(s.points[0].y, 3))))))]
            : h('p', { class: 'muted' }, 'nothing recorded yet'));
        }
      }
    },
    destroy() {
      for (const x of parts) x.chart.destroy();
    },
  };
}
