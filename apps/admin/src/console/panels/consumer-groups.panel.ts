import { ConsolePanel } from '../console-parts';

/** Each consumer group with the team that owns it, how it works through its partitions, its lag and dead letters. */
export const consumerGroupsPanel: ConsolePanel = {
  id: 'consumer-groups',
  markup: `<section><h2>Consumer groups</h2><div id="consumer-groups"></div></section>`,
  script: `
hookrail.panel({
  id: 'consumer-groups',
  async refresh() {
    const h = hookrail;
    h.$('consumer-groups').replaceChildren(h.table([
      { title: 'group', key: 'group' },
      { title: 'owner', key: 'owner', render: (row) => row.owner ? row.owner.team : 'not started yet' },
      { title: 'contact', key: 'contact', render: (row) => row.owner ? row.owner.contact : '' },
      { title: 'works by', key: 'concurrency', render: (row) => row.concurrency === 'key'
        ? h.el('span', { title: 'records of different keys at once, each key in order' }, 'key')
        : row.concurrency === 'batch' ? h.el('span', { title: 'one record at a time per partition, in batches' }, 'batch') : '–' },
      { title: 'lag', key: 'lag', numeric: true, render: (row) => row.lag === null ? '–' : row.lag },
      { title: 'dead letters', key: 'dead', numeric: true, render: (row) => row.dead
        ? h.el('a', { href: '#/dead-letters/' + encodeURIComponent(row.group) }, String(row.dead)) : '0' },
      { title: 'topics', key: 'topics', render: (row) => row.topics.join(', ') },
    ], h.state.groups, (row) => ({ 'data-group': row.group })));
  },
});
`,
};
