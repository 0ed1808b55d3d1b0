/** Line charts through chart.js (served by the arena server at /vendor/chart.umd.min.js). */
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#1f77b4', '#2ca02c'];

/**
 * A line chart in `canvas` that can be refreshed in place. `series` = [{ label, points: [{x, y}] }].
 * Returns { update(series), destroy() }; without chart.js it draws nothing and says so.
 */
export function lineChart(canvas, { xLabel, yLabel, yMin, yMax }) {
  const Chart = window.Chart;
  if (!Chart) {
    canvas.replaceWith(Object.assign(document.createElement('p'), { className: 'error', textContent: 'chart.js did not load' }));
    return { update() {}, destroy() {} };
  }
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
      elements: { point: { radius: 0, hitRadius: 6 }, line: { borderWidth: 2, tension: 0.15 } },
      scales: {
        x: { type: 'linear', title: { display: true, text: xLabel } },
        y: { title: { display: true, text: yLabel }, ...(yMin !== undefined ? { min: yMin } : {}), ...(yMax !== undefined ? { max: yMax } : {}) },
      },
      plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } } },
    },
  });
  return {
    update(series) {
      chart.data.datasets = series.map((s, i) => ({ label: s.label, data: s.points, borderColor: PALETTE[i % PALETTE.length], backgroundColor: PALETTE[i % PALETTE.length] }));
      chart.update('none');
    },
    destroy() {
      chart.destroy();
    },
  };
}
