import { ConsolePanel } from '../console-parts';

/** A red line over everything when a scheduled job is overdue (its dead man's switch), linking to the jobs page. */
export const overdueJobsPanel: ConsolePanel = {
  id: 'overdue-jobs',
  markup: `<div id="overdue-jobs" class="banner" role="alert" hidden></div>`,
  script: `
hookrail.panel({
  id: 'overdue-jobs',
  async refresh() {
    const h = hookrail;
    const overdue = (await h.api('/admin/jobs')).filter((job) => job.overdue);
    const banner = h.$('overdue-jobs');
    banner.hidden = overdue.length === 0;
    banner.replaceChildren(h.el('span', {},
      overdue.length + ' scheduled job(s) overdue: ',
      overdue.map((job, index) => [index ? ', ' : '', h.el('b', {}, job.name), ' (' + (job.app || '?') + ', last success ' + (job.lastSucceededAt ? h.ago(job.lastSucceededAt) : 'never') + ')']),
      ' ', h.el('a', { href: '#/jobs' }, 'see jobs')));
  },
});
`,
};
