import { ConsolePage } from '../console-parts';

/**
 * The event catalogue (`GET /catalog`, public: read without the admin token): event types and their versions with
 * their descriptions and a link to each JSON Schema, topics with the groups that consume them, and each group's owner, dead-letter and replay
 * topics. It changes only with a deployment, so it is read once per visit.
 */
export const catalogPage: ConsolePage = {
  id: 'catalog',
  title: 'Catalogue',
  markup: `
<section>
  <h2>Event types</h2>
  <p>What downstream teams may rely on, exported from the contracts (<code>npm run contracts:export</code>): a JSON
  Schema per type and version, and <a id="catalog-asyncapi" href="/catalog/asyncapi.json" target="_blank" rel="noopener">the AsyncAPI
  document</a> of every topic. Public: <code>GET /catalog</code> needs no token. <span id="catalog-version"></span></p>
  <div id="catalog-types"><p>loading…</p></div>
</section>
<section>
  <h2>Topics and their consumer groups</h2>
  <div id="catalog-topics"></div>
</section>
<section>
  <h2>Consumer groups and owners</h2>
  <div id="catalog-groups"></div>
</section>`,
  script: `
(() => {
  const h = hookrail;
  let loaded = false;

  const owner = (entry) => entry.owner ? h.el('span', { class: 'sub', title: entry.owner.contact }, entry.owner.team + ' · ' + entry.owner.contact) : null;
  const consumers = (list) => list.length ? list.map((consumer) => h.el('div', { 'data-group': consumer.group }, consumer.group, owner(consumer))) : 'none yet';
  const schema = (type, text) => h.el('a', { href: '/catalog/schemas/' + encodeURIComponent(type), target: '_blank', rel: 'noopener', 'data-schema': type }, text || type);

  function show(catalog) {
    h.$('catalog-version').textContent = 'Catalogue version ' + catalog.version + '.' + (catalog.namespace ? ' Topics in namespace ' + catalog.namespace + '.' : '');
    h.$('catalog-types').replaceChildren(h.table([
      { title: 'event type', key: 'name', render: (row) => [row.name, row.description ? h.el('span', { class: 'sub' }, row.description) : null] },
      { title: 'version', key: 'version', numeric: true, render: (row) => row.version === null ? '–' : 'v' + row.version },
      { title: 'schema', key: 'schema', render: (row) => schema(row.type, 'JSON Schema') },
      { title: 'topics', key: 'topics', render: (row) => row.topics.join(', ') },
      { title: 'consumer groups · owners', key: 'consumers', render: (row) => consumers(row.consumers) },
    ], catalog.types, (row) => ({ 'data-type': row.type })));
    h.$('catalog-topics').replaceChildren(h.table([
      { title: 'topic', key: 'topic', class: () => 'nowrap' },
      { title: 'event types', key: 'types', render: (row) => row.types.length ? row.types.flatMap((type, index) => [index ? ', ' : '', schema(type)]) : 'any (not in the catalogue)' },
      { title: 'consumer groups · owners', key: 'consumers', render: (row) => consumers(row.consumers) },
    ], catalog.topics.filter((topic) => topic.kind === 'events'), (row) => ({ 'data-topic': row.topic })));
    h.$('catalog-groups').replaceChildren(h.table([
      { title: 'group', key: 'group' },
      { title: 'owner', key: 'owner', render: (row) => row.owner.team },
      { title: 'contact', key: 'contact', render: (row) => row.owner.contact },
      { title: 'reads', key: 'topics', render: (row) => row.topics.join(', ') },
      { title: 'handles', key: 'handles', render: (row) => row.handles.join(', ') },
      { title: 'dead letters · replays', key: 'deadLetterTopic', class: () => 'nowrap', render: (row) => [row.deadLetterTopic, h.el('span', { class: 'sub' }, row.replayTopic)] },
    ], catalog.groups, (row) => ({ 'data-group': row.group })));
  }

  h.page({
    id: 'catalog',
    async refresh() {
      if (loaded) return;
      const response = await fetch('/catalog');
      const body = await response.json();
      if (!response.ok) return h.$('catalog-types').replaceChildren(h.el('p', {}, 'No catalogue: ' + (body.message || response.statusText)));
      show(body);
      loaded = true;
    },
  });
})();
`,
};
