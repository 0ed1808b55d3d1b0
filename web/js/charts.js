// @ts-check
/** Line charts through chart.js (served by the arena server at /vendor/chart.umd.min.js). */
import { h } from './dom.js';

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#1f77b4', '#2ca02c'];

/** @typedef {{ x: number, y: number }} XY */
/** @typedef {{ label: string, points: XY[], dashed?: boolean, bold?: boolean }} Series */
/**
 * @typedef {object} ChartOptions
 * @property {string} xLabel
 * @property {string} yLabel
 * @property {number} [yMin]
 * @property {number} [yMax]
 * @property {boolean} [integerX] the x values are whole numbers (iterations, matches): integer ticks only
 * @property {boolean} [integerY] the y values are counts: integer ticks only
 * @property {(y: number) => string} [yFormat] tick and tooltip text of a y value
 */

/** A colour of the palette. @param {number} i */
export const colour = (i) => PALETTE[i % PALETTE.length];

/**
 * A line chart in `canvas` that can be refreshed in place. Points are drawn when a series is
 * short (a lone point is still seen); ticks are whole numbers on `integerX` / `integerY` axes.
 * Returns { update(series), destroy() }; without chart.js it draws nothing and says so.
 * @param {HTMLCanvasElement} canvas
 * @param {ChartOptions} options
 * @returns {{ update(series: Series[]): void, destroy(): void }}
 */
export function lineChart(canvas, options) {
  const Chart = window.Chart;
  if (!Chart) {
    canvas.replaceWith(h('p', { class: 'error' }, 'chart.js did not load'));
    return { update() {}, destroy() {} };
  }
  const { xLabel, yLabel, yMin, yMax, integerX, integerY, yFormat } = options;
  const chart = new Chart(canvas, {
    type: 'line',
    data: { datasets: [] },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      interaction: { mode: 'nearest', intersect: false },
      elements: { line: { borderWidth: 2, tension: 0.15 } },
      scales: {
        x: { type: 'linear', title: { display: true, text: xLabel }, ticks: integerX ? { precision: 0 } : {} },
        y: {
          title: { display: true, text: yLabel },
          ...(yMin !== undefined ? { min: yMin } : {}),
          ...(yMax !== undefined ? { max: yMax } : {}),
          ticks: { ...(integerY ? { precision: 0 } : {}), ...(yFormat ? { callback: (/** @type {string | number} */ v) => yFormat(Number(v)) } : {}) },
        },
      },
      plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } } },
    },
  });
  return {
    update(series) {
      chart.data.datasets = series.map((s, i) => ({
        label: s.label,
        data: s.points,
        borderColor: colour(i),
        backgroundColor: colour(i),
        borderDash: s.dashed ? [6, 4] : [],
        borderWidth: s.bold ? 3 : 2,
        // a lone point must be seen; short series show their points; long ones are lines
        pointRadius: s.points.length <= 1 ? 4 : s.points.length <= 12 ? 3 : 0,
        pointHitRadius: 6,
      }));
      chart.update('none');
    },
    destroy() {
      chart.destroy();
    },
  };
}
