import { ConsolePanel } from '../console-parts';

/**
 * A red line per open circuit breaker ("notifier: email-provider unavailable since …"): the group's partitions that
 * wait on that dependency are paused, its lag grows, nothing is dead-lettered meanwhile.
 */
export const breakersPanel: ConsolePanel = {
  id: 'breakers',
  markup: `<div id="breakers" class="banner" role="alert" hidden></div>`,
  script: `
hookrail.panel({
  id: 'breakers',
  async refresh() {
    const h = hookrail;
    const open = await h.api('/admin/breakers?state=open');
    const banner = h.$('breakers');
    banner.hidden = open.length === 0;
    banner.replaceChildren(...open.map((breaker) => h.el('div', { 'data-breaker': breaker.group + '/' + breaker.dependency, title: breaker.lastError || '' },
      h.el('b', {}, breaker.group + ': ' + breaker.dependency + ' unavailable'),
      ' since ' + h.time(breaker.since) + ' (' + h.ago(breaker.since) + '); its partitions are paused and wait, nothing is dead-lettered',
      breaker.lastError ? h.el('span', { class: 'sub' }, 'last error: ' + breaker.lastError) : null)));
  },
});
`,
};
