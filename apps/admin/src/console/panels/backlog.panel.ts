import { ConsolePanel } from '../console-parts';

/**
 * The numbers of this instant: outbox backlog, parked rows, oldest pending row, dead letters waiting, and the keys
 * groups hold behind a dead letter with the events waiting behind them (linking to the dead letters page).
 */
export const backlogPanel: ConsolePanel = {
  id: 'backlog',
  markup: `<section><h2>Now</h2><div id="backlog" class="cards"></div></section>`,
  script: `
hookrail.panel({
  id: 'backlog',
  async refresh() {
    const h = hookrail;
    const [backlog, parked] = await Promise.all([h.api('/admin/backlog'), h.api('/admin/parked-keys?limit=1')]);
    const dead = h.state.groups.reduce((sum, group) => sum + group.dead, 0);
    const keys = parked.byGroup.reduce((sum, group) => sum + group.keys, 0);
    const events = parked.byGroup.reduce((sum, group) => sum + group.events, 0);
    const card = (value, label, bad, id) => h.el('div', { class: bad ? 'card bad' : 'card' }, h.el('b', { id }, value), label);
    h.$('backlog').replaceChildren(
      card(backlog.unpublished, 'unpublished outbox rows', false, 'backlog-unpublished'),
      card(backlog.parked, 'parked rows', backlog.parked > 0),
      card(backlog.oldestAgeSeconds + ' s', 'oldest unpublished', backlog.oldestAgeSeconds > 60),
      card(dead, 'dead letters waiting', dead > 0, 'dead-waiting'),
      card(keys, h.el('a', { href: '#/dead-letters', id: 'parked-keys-link' }, 'parked keys, ' + events + ' event(s) waiting behind them'), keys > 0, 'parked-keys-count'));
  },
});
`,
};
