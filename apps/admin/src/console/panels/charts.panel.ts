import { ConsolePanel } from '../console-parts';

/**
 * The last hour as uPlot charts, one per metric the API samples (events accepted, published and applied per second,
 * lag per group, outbox backlog, dead letters per group): drawn from `/admin/charts`, refreshed every 10 s, times in
 * UTC. Each legend shows the latest sample of its series, and the values under the pointer while it is on the chart.
 * A chart the API adds appears here without a change.
 */
export const chartsPanel: ConsolePanel = {
  id: 'charts',
  markup: `<section><h2>Last hour</h2><div id="charts" class="charts"></div></section>`,
  script: `
(() => {
  const h = hookrail;
  const COLORS = ['#0969da', '#067647', '#b54708', '#8250df', '#b42318', '#1b7c83', '#57606a', '#bf3989', '#4d2d00'];
  const plots = {};
  let loadedAt = 0;
  const utc = (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

  /** The index of the last sample that is not null, or null. */
  function lastSample(values) {
    for (let index = values.length - 1; index >= 0; index--) if (values[index] !== null && values[index] !== undefined) return index;
    return null;
  }

  /** The legend as it stands without a pointer: each series' latest sample, the time of the latest of them. */
  function showLatest(plot) {
    if (plot.cursor.idx !== null && plot.cursor.idx !== undefined) return;
    const idxs = plot.data.map((values, index) => (index === 0 ? null : lastSample(values)));
    const known = idxs.filter((index) => index !== null);
    idxs[0] = known.length ? Math.max(...known) : plot.data[0].length ? plot.data[0].length - 1 : null;
    plot.setLegend({ idxs }, false);
  }

  function draw(box, chart, times) {
    const target = box.querySelector('.plot');
    const names = chart.series.map((series) => series.name || chart.title);
    const key = names.join('|');
    const data = [times].concat(chart.series.map((series) => series.values));
    const existing = plots[chart.metric];
    if (existing && existing.key === key) {
      existing.plot.setData(data);
      return showLatest(existing.plot);
    }
    if (existing) existing.plot.destroy();
    const options = {
      width: Math.max(280, target.clientWidth || 360),
      height: 170,
      tzDate: utc,
      scales: { x: { time: true }, y: { range: (plot, min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [{ values: (plot, ticks, axis, space, increment) => ticks.map((tick) => new Date(tick * 1000).toISOString().slice(11, increment >= 60 ? 16 : 19)) }, { size: 56, values: (plot, ticks) => ticks.map((tick) => (tick >= 1000 ? Math.round(tick / 100) / 10 + 'k' : String(Math.round(tick * 100) / 100))) }],
      // The legend's time as every time in the console: UTC, to the second.
      series: [{ value: (plot, seconds) => (seconds === null || seconds === undefined ? '--' : h.time(seconds * 1000)) }].concat(names.map((name, index) => ({ label: name, stroke: COLORS[index % COLORS.length], width: 1.5 }))),
      // The pointer left the chart (or was never on it): back to the latest values instead of "--".
      hooks: { setCursor: [showLatest] },
    };
    const plot = new uPlot(options, data, target);
    plots[chart.metric] = { key, plot };
    showLatest(plot);
  }

  h.panel({
    id: 'charts',
    async refresh() {
      if (Date.now() - loadedAt < 10000 && Object.keys(plots).length) return;
      const answer = await h.api('/admin/charts?minutes=60');
      loadedAt = Date.now();
      const grid = h.$('charts');
      for (const chart of answer.charts) {
        let box = grid.querySelector('[data-chart="' + chart.metric + '"]');
        if (!box) {
          box = h.el('figure', { class: 'chart', 'data-chart': chart.metric },
            h.el('figcaption', {}, chart.title + ' (' + chart.unit + ', UTC)'),
            h.el('p', { class: 'empty' }, 'no samples yet'),
            h.el('div', { class: 'plot' }));
          grid.append(box);
        }
        const points = chart.series.reduce((sum, series) => sum + series.values.filter((value) => value !== null).length, 0);
        box.dataset.points = String(points);
        box.querySelector('.empty').hidden = points > 0;
        draw(box, chart, answer.times);
      }
    },
  });

  window.addEventListener('resize', () => {
    for (const { plot } of Object.values(plots)) plot.setSize({ width: Math.max(280, plot.root.parentElement.clientWidth), height: 170 });
  });
})();
`,
};
