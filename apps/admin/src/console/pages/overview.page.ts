import { ConsolePage } from '../console-parts';
import { CONSOLE_PANELS } from '../panels';

/** The landing page: its panels (overdue jobs, numbers of now, the last hour's charts, consumer groups). */
export const overviewPage: ConsolePage = {
  id: 'overview',
  title: 'Overview',
  markup: CONSOLE_PANELS.map((panel) => panel.markup).join('\n'),
  script: `
hookrail.page({
  id: 'overview',
  async refresh() {
    const results = await Promise.allSettled(hookrail.panels.map((panel) => panel.refresh()));
    const failed = results.find((result) => result.status === 'rejected' && result.reason.message !== 'unauthorized');
    if (failed) hookrail.flash('could not load a panel: ' + failed.reason.message, true);
  },
});
`,
};
