import { ConsolePanel } from '../console-parts';

/** The numbers of this instant: outbox backlog, parked rows, oldest pending row, dead letters waiting. */
export const backlogPanel: ConsolePanel = {
  id: 'backlog',
  markup: `<section><h2>Now</h2><div id="backlog" class="cards"></div></section>`,
  script: `
hookrail.panel({
  id: 'backlog',
  async refresh() {
    const h = hookrail;
    const backlog = await h.api('/admin/backlog');
    const dead = h.state.groups.reduce((sum, group) => sum + group.dead, 0);
    const card = (value, label, bad, id) => h.el('div', { class: bad ? 'card bad' : 'card' }, h.el('b', { id }, value), label);
    h.$('backlog').replaceChildren(
      card(backlog.unpublished, 'unpublished outbox rows', false, 'backlog-unpublished'),
      card(backlog.parked, 'parked rows', backlog.parked > 0),
      card(backlog.oldestAgeSeconds + ' s', 'oldest unpublished', backlog.oldestAgeSeconds > 60),
      card(dead, 'dead letters waiting', dead > 0, 'dead-waiting'));
  },
});
`,
};
