import { ConsolePage } from '../console-parts';

/** Every scheduled job (whichever app runs it): schedule, last run and success, duration, rows, error; overdue in red. */
export const jobsPage: ConsolePage = {
  id: 'jobs',
  title: 'Jobs',
  markup: `
<section>
  <h2>Scheduled jobs</h2>
  <p>A job is overdue when its last success is older than its interval times its grace; it runs again at the next
  start of its app, once.</p>
  <div id="jobs"></div>
</section>`,
  script: `
hookrail.page({
  id: 'jobs',
  async refresh() {
    const h = hookrail;
    const jobs = await h.api('/admin/jobs');
    h.$('jobs').replaceChildren(h.table([
      { title: 'job', key: 'name', class: () => 'nowrap' },
      { title: 'app', key: 'app' },
      { title: 'schedule', key: 'schedule', class: () => 'nowrap', render: (job) => job.schedule ? job.schedule + ' (grace ×' + job.grace + ')' : 'not scheduled' },
      { title: 'last run', key: 'lastStartedAt', class: () => 'nowrap', render: (job) => job.lastStartedAt ? h.time(job.lastStartedAt) + ' (' + h.ago(job.lastStartedAt) + ')' : 'never' },
      { title: 'last success', key: 'lastSucceededAt', class: () => 'nowrap', render: (job) => job.lastSucceededAt ? h.ago(job.lastSucceededAt) : 'never' },
      { title: 'duration', key: 'lastDurationMs', numeric: true, render: (job) => job.lastDurationMs === null ? '' : job.lastDurationMs + ' ms' },
      { title: 'rows', key: 'lastAffected', numeric: true },
      { title: 'next due', key: 'nextDueAt', class: () => 'nowrap', render: (job) => job.nextDueAt ? h.ago(job.nextDueAt) : '' },
      { title: 'overdue', key: 'overdue', render: (job) => job.overdue ? 'OVERDUE since ' + h.time(job.overdueSince) : 'no' },
      { title: 'last error', key: 'lastError', class: () => 'message' },
    ], jobs, (job) => ({ 'data-job': job.name, 'data-overdue': String(job.overdue), class: job.overdue ? 'overdue' : undefined })));
  },
});
`,
};
